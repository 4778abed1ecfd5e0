"""Finding the bytes after the root element, whatever their size, by reading the file backwards.

After the root element only comments, processing instructions and whitespace
may follow, and libxml2 keeps each of those as a sibling of the root. Their
markup holds a known number of ASCII punctuation characters (`<!--`, `?>`,
`-` ...; the set 0x21-0x2F and 0x3A-0x3F, which no ASCII-compatible encoding
here uses inside a multi-byte character and whitespace never holds). So the
epilogue is the stretch at the end of the file holding exactly that many
punctuation characters, starting right after a `>`: any earlier start would
hold the root's end tag too (more punctuation), any later one would cut a
comment or PI open (less). The file is read backwards in blocks, counting,
so finding it costs what the epilogue weighs, and what was found is checked:
it must decode, and parse as exactly the siblings libxml2 saw.
"""

from __future__ import annotations

import re
from typing import BinaryIO, cast

from lxml import etree

from annotator.reading.xml_encoding import LogEncoding

_BLOCK = 1 << 16
_PUNCTUATION = bytes(range(0x21, 0x30)) + bytes(range(0x3A, 0x40))
_PUNCTUATION_TEXT = _PUNCTUATION.decode("ascii")
_WHITESPACE = b" \t\r\n"
_UNIT_TYPES = {"utf-16-le": "<u2", "utf-16-be": ">u2", "utf-32-le": "<u4", "utf-32-be": ">u4"}
_PI = re.compile(r"([^ \t\n]+)[ \t\n]*(.*)", re.DOTALL)


def find_epilogue(stream: BinaryIO, size: int, encoding: LogEncoding, root: etree._Element) -> bytes | None:
    """The raw bytes after ROOT's end in STREAM (a regular file of SIZE bytes), or None if they cannot be
    delimited for certain (the caller then writes what the tree holds instead)."""
    expected = _siblings(root)
    units = _Units(stream, size, encoding)
    start = units.epilogue_start(sum(_punctuation(markup) for markup in _markup(expected)))
    if start is None:
        return None
    stream.seek(start)
    raw = stream.read()
    try:
        text = raw.decode(encoding.codec or "ascii")
    except UnicodeDecodeError:
        return None
    return raw if _misc_items(text) == expected else None


def _siblings(root: etree._Element) -> list[tuple[str, ...]]:
    items: list[tuple[str, ...]] = []
    for node in root.itersiblings():
        if isinstance(node, etree._Comment):
            items.append(("comment", node.text or ""))
        elif isinstance(node, etree._ProcessingInstruction):
            items.append(("pi", cast(str, node.target), node.text or ""))  # lxml's targets are str
    return items


def _markup(items: list[tuple[str, ...]]) -> list[str]:
    return [f"<!--{item[1]}-->" if item[0] == "comment" else f"<?{item[1]} {item[2]}?>" for item in items]


def _punctuation(text: str) -> int:
    return len(text) - len(text.translate({ord(c): None for c in _PUNCTUATION_TEXT}))


def _misc_items(text: str) -> list[tuple[str, ...]] | None:
    """TEXT as comments and PIs separated by whitespace (XML's Misc*), or None if it is not that."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # what the parser saw (XML 1.0, 2.11)
    items: list[tuple[str, ...]] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t\n":
            pos += 1
        if pos == len(text):
            return items
        if text.startswith("<!--", pos):
            end = text.find("-->", pos + 4)
            if end < 0 or "--" in text[pos + 4 : end]:
                return None
            items.append(("comment", text[pos + 4 : end]))
            pos = end + 3
        elif text.startswith("<?", pos):
            end = text.find("?>", pos + 2)
            match = _PI.fullmatch(text, pos + 2, end) if end >= 0 else None
            if match is None:
                return None
            items.append(("pi", match.group(1), match.group(2)))
            pos = end + 2
        else:
            return None


class _Units:
    """The file's code units read backwards, each shown as one byte: itself when below 0x80, else 0x80."""

    def __init__(self, stream: BinaryIO, size: int, encoding: LogEncoding) -> None:
        self.stream = stream
        self.unit = encoding.unit
        self.dtype = _UNIT_TYPES.get(encoding.codec or "")
        self.count = size // self.unit

    def _block(self, end: int) -> tuple[int, bytes]:
        """(first unit, shadow bytes) of the block of units ending at unit END."""
        start = max(0, end - _BLOCK)
        self.stream.seek(start * self.unit)
        raw = self.stream.read((end - start) * self.unit)
        if self.dtype is None:
            return start, raw
        import numpy  # only UTF-16/UTF-32 logs get here

        values = numpy.frombuffer(raw, dtype=self.dtype)
        return start, numpy.where(values < 0x80, values, 0x80).astype(numpy.uint8).tobytes()

    def epilogue_start(self, punctuation: int) -> int | None:
        """The byte offset after the `>` that precedes the last PUNCTUATION punctuation units."""
        end = self.count
        first = end  # the unit where the epilogue's markup begins
        while punctuation > 0:
            if end == 0:
                return None
            start, block = self._block(end)
            found = len(block) - len(block.translate(None, _PUNCTUATION))
            if found < punctuation:
                punctuation -= found
                end = start
                continue
            for index in range(len(block) - 1, -1, -1):
                if block[index] in _PUNCTUATION:
                    punctuation -= 1
                    if punctuation == 0:
                        first = start + index
                        break
        return self._after_closing_bracket(first)

    def _after_closing_bracket(self, end: int) -> int | None:
        while end > 0:
            start, block = self._block(end)
            kept = block.rstrip(_WHITESPACE)
            if kept:
                return (start + len(kept)) * self.unit if kept.endswith(b">") else None
            end = start
        return None
