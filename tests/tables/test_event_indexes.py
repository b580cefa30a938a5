"""The log's partial index for the requests to the host covers exactly their kinds."""

from __future__ import annotations

from tables.events import EventKind
from tables.models import Event


def test_the_requests_index_covers_every_request_kind_and_no_other():
    (index,) = [index for index in Event._meta.indexes if index.name == "event_requests_per_table"]
    lookup, kinds = index.condition.children[0]
    assert lookup == "kind__in"
    # tables.selectors.requests_pending reads these four; any new request_* kind must join them.
    assert set(kinds) == {str(kind) for kind in EventKind if kind.startswith("request_")}
    assert set(kinds) == {"request_made", "request_approved", "request_denied", "request_cancelled"}
