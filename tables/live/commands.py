"""What a socket's session does with each command from its page (``tables.live.protocol``):
one typed call of a service or a read, and the answer (``None``: the frames the command
sends are its answer).

A write goes through :meth:`TableSession.write`, which checks under the table's lock that
the seat is still the socket's. A :class:`ServiceError` raised here is the consumer's to send.
"""

from __future__ import annotations

from typing import Protocol

from django.utils.translation import gettext as _

from tables import services
from tables.live.channels_typed import database_sync_to_async
from tables.live.protocol import (
    Ack,
    Act,
    ActFor,
    Beat,
    Command,
    Hold,
    HostCommand,
    Ping,
    Pong,
    Reply,
    RequestApprove,
    RequestCancel,
    RequestDeny,
    Resync,
    SeatAsk,
    SeatBuyBack,
    SeatComeBack,
    SeatCommand,
    SeatLeave,
    SeatRemove,
    SeatSitOut,
    SeatTake,
    See,
    SeedSubmit,
    SettingsChange,
    SnapshotAsk,
    TableEnd,
    TablePause,
    TableResume,
    TableStart,
    VariantCall,
)
from tables.live.session import TableSession
from tables.services import ServiceError


async def command_run(session: TableSession, command: Command) -> Reply | None:
    """Carry out ``command`` for ``session`` (``Visibility`` is the consumer's: it counts the
    socket's page, not its table)."""
    match command:
        case Act():
            return await action_play(session, command)
        case See():
            seat_id = session.acting_seat()
            client_id = session.client_action_id(command.request_id, seat_id)
            seq = await session.write(
                services.hand_see,
                table_id=session.table_id,
                seat_id=seat_id,
                client_action_id=client_id,
                only_on_turn=session.viewer.passing,
            )
            return {"type": "ack", "seq": seq}
        case Hold():
            return await _hold(session, command)
        case Resync():
            await session.resync(command.after, command.request_id)
            return None
        case SnapshotAsk():
            async with session.sending:
                await session.send_snapshot()
            return None
        case SeatCommand():
            return await _seat(session, command)
        case HostCommand():
            await _host(session, command)
            return {"type": "ack"}
        case SeedSubmit():
            for_hand = await session.write(
                services.seat_seed_submit, table_id=session.table_id, seat_id=session.seat_id, seed=command.seed
            )
            return {"type": "ack", "for_hand": for_hand}
        case Ping():
            # The table's latest seq, after sending this socket whatever it had missed of it.
            return Pong(type="pong", seq=await session.catch_up())
        case Beat():
            # The page's frequent heartbeat: the last seq this socket sent, with no read (a
            # page behind it lost news on the way and asks for a snapshot); a socket behind
            # the log is the quiet watcher's and the page's slower ``ping``'s to find.
            return Pong(type="pong", seq=session.last_seq)
    raise TypeError(command)  # pragma: no cover  (every command of the protocol is above)


async def action_play(session: TableSession, command: Act) -> Ack:
    """A move in the hand (the benchmark's trace wraps this, benchmarks/daphne_counted.py)."""
    seat_id = session.acting_seat()
    seq = await session.write(
        services.hand_act,
        table_id=session.table_id,
        seat_id=seat_id,
        verb=command.verb,
        amount=command.amount,
        client_action_id=session.client_action_id(command.request_id, seat_id),
        only_on_turn=session.viewer.passing,
    )
    return {"type": "ack", "seq": seq}


class SeatWrite(Protocol):
    """A service that writes for a seat and is given nothing else."""

    def __call__(self, *, table_id: int, seat_id: int) -> object: ...


def _plain_write(command: Command) -> SeatWrite | None:
    """The service of a seat request or host control that carries nothing but its verb
    (looked up at each call, so a service replaced in a test is the one called)."""
    writes: dict[type[Command], SeatWrite] = {
        SeatLeave: services.seat_leave,
        SeatSitOut: services.seat_sit_out,
        SeatComeBack: services.seat_come_back,
        SeatBuyBack: services.seat_buy_back,
        RequestCancel: services.request_cancel,
        TableStart: services.table_start,
        TablePause: services.table_pause,
        TableResume: services.table_resume,
        TableEnd: services.table_end,
    }
    return writes.get(type(command))


async def _hold(session: TableSession, command: Hold) -> Ack:
    """Pass and play: "I am <name>" (``seat``: the phone's seat whose turn it is), or
    ``seat: null`` to hide every card again. The new view follows as a snapshot."""
    viewer = session.viewer
    if command.seat is None:
        if not viewer.passing:
            raise ServiceError("not_pass_and_play", _("Nobody plays on this phone: the host adds players first."))
        async with session.sending:
            viewer.let_go()
            await session.send_snapshot()
        return {"type": "ack", "holding": None}
    held, phone = await database_sync_to_async(services.phone_hold_check)(
        table_id=session.table_id, seat_id=session.seat_id, hold_seat_id=command.seat
    )
    async with session.sending:
        viewer.hold(seat_id=held.pk, phone=phone)
        await session.send_snapshot()
    return {"type": "ack", "holding": viewer.holding}


async def _seat(session: TableSession, command: SeatCommand) -> Ack:
    table_id, seat_id = session.table_id, session.seat_id
    if command.phone_seat is not None:
        # Pass and play: the host's phone asks for one of its players.
        local = await database_sync_to_async(services.phone_seat_check)(
            table_id=table_id, seat_id=seat_id, local_seat_id=command.phone_seat
        )
        seat_id = local.pk
    plain = _plain_write(command)
    if plain is not None:
        await session.write(plain, table_id=table_id, seat_id=seat_id)
        return {"type": "ack"}
    match command:
        case SeatTake():
            await session.write(services.seat_take, table_id=table_id, seat_id=seat_id, number=command.number)
        case SeatAsk():
            request = await session.write(
                services.seat_ask, table_id=table_id, seat_id=seat_id, what=command.what, number=command.number
            )
            return {"type": "ack", "request": request}
        case VariantCall():
            # Dealer's choice: the next dealer calls the variant.
            await session.write(services.variant_call, table_id=table_id, seat_id=seat_id, variant=command.variant)
        case _:  # pragma: no cover  (every seat command of the protocol is above)
            raise TypeError(command)
    return {"type": "ack"}


async def _host(session: TableSession, command: HostCommand) -> None:
    table_id, seat_id = session.table_id, session.seat_id
    plain = _plain_write(command)
    if plain is not None:
        await session.write(plain, table_id=table_id, seat_id=seat_id)
        return
    match command:
        case SettingsChange():
            await session.write(
                services.table_update_settings, table_id=table_id, seat_id=seat_id, choices=command.choices
            )
        case SeatRemove():
            await session.write(
                services.seat_remove,
                table_id=table_id,
                seat_id=seat_id,
                remove_seat_id=command.remove_seat,
                ban=command.ban,
            )
        case ActFor():
            await session.write(
                services.hand_act_for_away,
                table_id=table_id,
                seat_id=seat_id,
                player_seat_id=command.player_seat,
                move=command.move,
                amount=command.amount,
            )
        case RequestApprove():
            await session.write(services.request_approve, table_id=table_id, seat_id=seat_id, request=command.request)
        case RequestDeny():
            await session.write(services.request_deny, table_id=table_id, seat_id=seat_id, request=command.request)
        case _:  # pragma: no cover  (every host control of the protocol is above)
            raise TypeError(command)
