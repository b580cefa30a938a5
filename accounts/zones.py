"""Time zones as a person chooses one: every IANA zone the machine knows, by its name."""

import functools
import zoneinfo


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone name the machine knows, read once a process (``zoneinfo.available_timezones``
    walks the zone files on every call, about 10 ms; a page, a sign-up and a saved choice
    would each walk them again)."""
    return frozenset(zoneinfo.available_timezones())


def zone_choices() -> list[tuple[str, str]]:
    """(value, label) pairs for a form's list: "America/New_York" shown as "America/New York"."""
    return [(name, name.replace("_", " ")) for name in sorted(zone_names())]
