"""Time zones as a person chooses one: every IANA zone the machine knows, by its name."""

import zoneinfo


def zone_choices() -> list[tuple[str, str]]:
    """(value, label) pairs for a form's list: "America/New_York" shown as "America/New York"."""
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]
