"""Services of live play (every write to a table goes through one of these).

All are keyword-only and raise :class:`ServiceError` (code + translated message),
changing nothing when they do. Each writes through ``tables.services.write.table_write``.
See ``docs/architecture.md`` for the module map and ``docs/live-play.md`` for the rules.
"""

from tables.services.acting import hand_act, hand_see
from tables.services.away import PLAYER_ONLY_VERBS, hand_act_for_away
from tables.services.claims import (
    seat_claim_ask,
    seat_claim_state,
    seat_claim_take,
    seat_claim_withdraw,
    seat_claimable,
)
from tables.services.clock_run import table_clock_run, table_clock_run_if_due, table_clock_sweep
from tables.services.errors import DATABASE_UNAVAILABLE, ServiceError, unavailable_error
from tables.services.hosting import (
    guest_token_new,
    invite_rotate,
    invite_token_matches,
    seat_link_key,
    seat_link_state,
    seat_link_use,
    seat_remove,
    table_create,
    table_end,
    table_join,
    table_pause,
    table_resume,
    table_start,
    table_update_settings,
    variant_call,
)
from tables.services.pass_and_play import local_player_add, phone_hold_check, phone_seat_check
from tables.services.push import push_public_key, push_subscribe, push_unsubscribe
from tables.services.requests import (
    join_answer,
    join_approved_take,
    join_ask,
    join_withdraw,
    request_approve,
    request_cancel,
    request_deny,
    seat_ask,
)
from tables.services.seats import (
    seat_buy_back,
    seat_come_back,
    seat_leave,
    seat_seed_submit,
    seat_sit_out,
    seat_take,
)
from tables.services.table_settings import table_settings_build
from tables.services.write import SeatHolder, writes_for

__all__ = [
    "DATABASE_UNAVAILABLE",
    "PLAYER_ONLY_VERBS",
    "SeatHolder",
    "ServiceError",
    "guest_token_new",
    "hand_act",
    "hand_act_for_away",
    "hand_see",
    "invite_rotate",
    "invite_token_matches",
    "join_answer",
    "join_approved_take",
    "join_ask",
    "join_withdraw",
    "local_player_add",
    "phone_hold_check",
    "phone_seat_check",
    "push_public_key",
    "push_subscribe",
    "push_unsubscribe",
    "request_approve",
    "request_cancel",
    "request_deny",
    "seat_ask",
    "seat_buy_back",
    "seat_claim_ask",
    "seat_claim_state",
    "seat_claim_take",
    "seat_claim_withdraw",
    "seat_claimable",
    "seat_come_back",
    "seat_leave",
    "seat_link_key",
    "seat_link_state",
    "seat_link_use",
    "seat_remove",
    "seat_seed_submit",
    "seat_sit_out",
    "seat_take",
    "table_clock_run",
    "table_clock_run_if_due",
    "table_clock_sweep",
    "table_create",
    "table_end",
    "table_join",
    "table_pause",
    "table_resume",
    "table_settings_build",
    "table_start",
    "table_update_settings",
    "unavailable_error",
    "variant_call",
    "writes_for",
]
