"""File names as text: any name the file system allows, written reversibly into CSV, JSON, XML and text.

A POSIX file name is bytes, and need not be UTF-8 (a Latin-1 `pr\\xe9.xml`); Python
holds the bytes that are not UTF-8 as lone surrogates, which no UTF-8 file can
hold. Every writer of a file name into an output therefore writes name_text(name):

- the name's characters as they are, where its bytes are UTF-8;
- %XX (the byte in two upper-case hex digits) for each byte that is not UTF-8,
  and for the bytes of control characters (U+0000-U+001F, U+007F) and of the
  non-characters U+FFFE and U+FFFF, which would break a line or an XML file;
- %25 for a "%" followed by two hex digits, so that the escape stays reversible.

    name_text("pr\\udce9.xml")      == "pr%E9.xml"        # os.fsdecode(b"pr\\xe9.xml")
    name_text("100%.xml")          == "100%.xml"         # unchanged: no hex digits follow
    name_text("a%41.xml")          == "a%2541.xml"
    name_from_text("pr%E9.xml")    == "pr\\udce9.xml"     # the name again: open() finds the file

Percent-decoding the text (urllib.parse.unquote_to_bytes) gives back the name's
exact bytes; a "%" not followed by two hex digits is left alone by it and by us.
Names of UTF-8 printable characters without such a "%" are written unchanged.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath
from urllib.parse import unquote_to_bytes

_ESCAPED = re.compile("[\x00-\x1f\x7f\udc80-\udcff\ufffe\uffff]|%(?=[0-9A-Fa-f]{2})")


def name_text(name: str | bytes | PurePath) -> str:
    """NAME (a file name or path, as str, bytes or path) as text any UTF-8 output can hold, reversibly."""
    if isinstance(name, PurePath):
        name = str(name)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if not _ESCAPED.search(name):
        return name
    return _ESCAPED.sub(_percent, name)


def name_from_text(text: str) -> str:
    """The file name name_text wrote as TEXT (as os.fsdecode holds it: usable with open() and Path)."""
    return os.fsdecode(unquote_to_bytes(text))


def _percent(match: re.Match) -> str:
    return "".join(f"%{byte:02X}" for byte in os.fsencode(match.group()))
