"""Turn ids are NMTOKENs; "-01" and "-1" name the same turn when they are numbers."""

from __future__ import annotations

TurnKey = int | str


def turn_key(raw: str | None) -> TurnKey | None:
    """A comparable key: the integer for numeric ids, else the stripped text."""
    if raw is None:
        return None
    text = raw.strip()
    try:
        return int(text)
    except ValueError:
        return text or None
