"""The rules of every game Dashain plays, as pure Python.

This package owns the rule books in code: Teen Patti (Faras, Classic, 999) and
no-limit Texas hold'em. It uses the standard library only: no Django, no I/O, no
global random state and no clock. Decks come from seeds the caller passes, so the
same seed and the same actions always give the same events.

The shared API lives in :mod:`engine.api`; :func:`engine.games.get_game` finds a
game's rules by name.
"""
