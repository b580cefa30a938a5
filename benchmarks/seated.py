"""A table opened through the services with every player seated, for the benchmarks that play
on the database (``act_cpu``, ``news_fanout``, ``live_load``). Call after Django is set up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accounts.models import User
    from tables.models import Seat, Table


def seated_table(
    users: list[User], game: str, choices: dict[str, Any], *, start: bool = True
) -> tuple[Table, list[Seat]]:
    """``users[0]`` opens a ``game`` table with ``choices``, the others join by the invite,
    everyone sits; started unless ``start`` is false. Returns the table and the seats."""
    from tables.models import Seat
    from tables.services import seat_take, table_create, table_join, table_start

    table = table_create(host=users[0], game=game, choices=choices)
    seats = [Seat.objects.get(table=table, user=users[0])]
    seats += [table_join(code=table.code, invite_token=table.invite_token, user=user) for user in users[1:]]
    for seat in seats:
        seat_take(table_id=table.pk, seat_id=seat.pk)
    if start:
        table_start(table_id=table.pk, seat_id=seats[0].pk)
    return table, seats
