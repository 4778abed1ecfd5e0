"""Who is who: turn ids as keys, and which of several sessions (or turns) sharing an id is meant.

Turn ids are NMTOKENs; "-01" and "-1" name the same turn when they are plain numerals.

A plain numeral is an optional sign and ASCII digits, nothing else: Python's
int() would also read "1_0" as 10 and "٣" (an Arabic-Indic digit) as 3, which
would make turn "1_0" turn 10. Anything else matches exactly. Surrounding XML
whitespace (space, tab, CR, LF) is dropped first, as a validating XML parser
normalises an NMTOKEN attribute; the same holds for session ids, which always
match exactly.

A log may repeat a session id (or a turn id inside a session): the n-th of
them is occurrence n, counted from 1 over the logs at hand in the order given,
each log's sessions in document order (a turn's among the turns of its
session). docs/numbers-and-ids.md states the rules.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence

TurnKey = int | str

XML_SPACE = " \t\r\n"
_OCCURRENCE = re.compile(r"[0-9]{1,9}")
_MAX_DIGITS = 4000  # below Python's int/str conversion limit (4300 digits)


def strip_id(raw: str | None) -> str:
    """An id with the XML whitespace around it dropped ("" for None)."""
    return (raw or "").strip(XML_SPACE)


def turn_key(raw: str | None) -> TurnKey | None:
    """A comparable key: the integer for a plain numeral, else the id as written (None when blank)."""
    if raw is None:
        return None
    text = raw.strip(XML_SPACE)
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits.isdigit() and digits.isascii():  # isdigit alone takes "٣" and "²"
        if len(digits) <= _MAX_DIGITS:
            return int(text)
        return ("-" if text[0] == "-" else "") + (digits.lstrip("0") or "0")  # a canonical numeral no other id spells
    return text or None


def occurrences(keys: Sequence[Hashable | None]) -> list[int | None]:
    """For each key: None when it occurs once (or is None), else its occurrence 1, 2, ... in order."""
    totals = Counter(key for key in keys if key is not None)
    seen: Counter[Hashable] = Counter()
    result: list[int | None] = []
    for key in keys:
        if key is None or totals[key] == 1:
            result.append(None)
        else:
            seen[key] += 1
            result.append(seen[key])
    return result


def occurrence_number(raw: str | None, what: str) -> int | None:
    """An occurrence written in a file (a plain numeral from 1), None when blank. Raises ValueError."""
    text = strip_id(raw)
    if not text:
        return None
    if not _OCCURRENCE.fullmatch(text) or int(text) < 1:
        raise ValueError(f"{what} {text!r} is not a whole number from 1")
    return int(text)
