"""The hot statements of the write path and of a hand's end as SQL built once from the
models (``write``: lock, update, insert, append events; ``read``: the seats and hands a
hand's end and the next deal read), with the ORM's call on any other database.

Below the services and the screens, above only the models and the event kinds: a read
(``tables.what_viewers_see``) and a write (``tables.services``) both use them, so they live in no
services package of their own. The tests compare every statement with the ORM's.
"""
