"""Finding the bytes before the root element as they stream in: the prolog, and what its DOCTYPE holds.

XML 1.0's prolog is small grammar: an optional byte-order mark and XML
declaration, then comments, processing instructions and whitespace around at
most one DOCTYPE, whose internal subset holds markup declarations, comments,
processing instructions and parameter-entity references. PrologScanner reads
it from bytes in an ASCII-safe encoding (raw, or as transcoded to UTF-8) fed in
any chunks: it resumes where it stopped, and every terminator search starts
where the last one gave up, so a prolog of any size is scanned in linear time.

It answers where the root element starts (everything before it is kept byte
for byte), where the internal subset lies, and which entities it declares or
parameter entities it refers to, so that those are refused before a byte of
the document reaches libxml2.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass, field

_WHITESPACE = b" \t\r\n"
_NAME_END = re.compile(rb"[ \t\r\n\[>]")
_DECLARATION_STOP = re.compile(rb"[>\"']")
_PE_REFERENCE_END = re.compile(rb"[;<>\[\] \t\r\n]")
_KEYWORD = re.compile(rb"[A-Z]+")

_Scan = Generator[None, None, "Prolog | None"]


@dataclass
class Prolog:
    """What the prolog holds; offsets into the scanned bytes."""

    root_start: int  # where the root element's `<` is: the prolog is everything before it
    subset: tuple[int, int] | None = None  # the internal subset, between its `[` and `]`
    entities: list[str] = field(default_factory=list)  # names of <!ENTITY declarations, in order
    pe_references: list[str] = field(default_factory=list)  # %name; references in the internal subset


class _EndOfInput(Exception):
    pass


class PrologScanner:
    """feed() bytes until it returns a Prolog (the root element starts) or None at the end (not a prolog
    it understands: libxml2 will then say what is wrong)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self._ended = False
        self._scan = self._prolog()
        self.result: Prolog | None = None
        self.done = False

    def feed(self, chunk: bytes) -> bool:
        """Add CHUNK; True once the scan is over (see result)."""
        self.data += chunk
        return self._advance()

    def finish(self) -> None:
        """No more input: settle the scan (an unfinished prolog gives result None)."""
        self._ended = True
        self._advance()

    def _advance(self) -> bool:
        if self.done:
            return True
        try:
            next(self._scan)
        except StopIteration as stop:
            self.result, self.done = stop.value, True
        except _EndOfInput:
            self.result, self.done = None, True
        return self.done

    # --- primitives: each waits (yields) for more input until it can answer ------------------------
    def _need(self, end: int) -> Generator[None, None, bool]:
        """Wait until END bytes are there; False when the input ends first."""
        while len(self.data) < end:
            if self._ended:
                return False
            yield
        return True

    def _find(self, needle: bytes | bytearray, start: int) -> Generator[None, None, int]:
        searched = start
        while True:
            found = self.data.find(needle, searched)
            if found >= 0:
                return found
            if self._ended:
                raise _EndOfInput
            searched = max(start, len(self.data) - len(needle) + 1)
            yield

    def _search(self, pattern: re.Pattern[bytes], start: int) -> Generator[None, None, re.Match[bytes]]:
        searched = start
        while True:
            match = pattern.search(self.data, searched)
            if match is not None:
                return match
            if self._ended:
                raise _EndOfInput
            searched = max(start, len(self.data))
            yield

    def _starts(self, pos: int, text: bytes) -> Generator[None, None, bool]:
        yield from self._need(pos + len(text))
        return self.data.startswith(text, pos)

    def _skip_space(self, pos: int) -> Generator[None, None, int]:
        while (yield from self._need(pos + 1)) and self.data[pos] in _WHITESPACE:
            pos += 1
        return pos

    def _comment_or_pi(self, pos: int) -> Generator[None, None, int | None]:
        """The end of a comment or processing instruction starting at POS; None if there is none."""
        if (yield from self._starts(pos, b"<!--")):
            return (yield from self._find(b"-->", pos + 4)) + 3
        if (yield from self._starts(pos, b"<?")):
            return (yield from self._find(b"?>", pos + 2)) + 2
        return None

    # --- the grammar ---------------------------------------------------------------------------------
    def _prolog(self) -> _Scan:
        pos = 3 if (yield from self._starts(0, b"\xef\xbb\xbf")) else 0
        if (
            (yield from self._starts(pos, b"<?xml"))
            and (yield from self._need(pos + 6))
            and self.data[pos + 5] in _WHITESPACE
        ):
            pos = (yield from self._find(b"?>", pos + 5)) + 2
        prolog = Prolog(-1)
        seen_doctype = False
        while True:
            pos = yield from self._skip_space(pos)
            end = yield from self._comment_or_pi(pos)
            if end is not None:
                pos = end
            elif not seen_doctype and (yield from self._starts(pos, b"<!DOCTYPE")):
                pos = yield from self._doctype(pos + 9, prolog)
                if pos < 0:
                    return None
                seen_doctype = True
            elif (yield from self._need(pos + 2)) and self.data[pos] == 0x3C and self.data[pos + 1] not in b"!?/":
                prolog.root_start = pos
                return prolog
            else:
                return None

    def _doctype(self, pos: int, prolog: Prolog) -> Generator[None, None, int]:
        """Scan `<!DOCTYPE` from after the keyword; the position after its `>`, or -1."""
        name_start = yield from self._skip_space(pos)
        if name_start == pos:
            return -1
        pos = (yield from self._search(_NAME_END, name_start)).start()
        pos = yield from self._skip_space(pos)
        literals = 0
        if (yield from self._starts(pos, b"SYSTEM")):
            literals, pos = 1, pos + 6
        elif (yield from self._starts(pos, b"PUBLIC")):
            literals, pos = 2, pos + 6
        for _ in range(literals):
            pos = yield from self._skip_space(pos)
            pos = yield from self._literal(pos)
            if pos < 0:
                return -1
        pos = yield from self._skip_space(pos)
        if (yield from self._starts(pos, b"[")):
            end = yield from self._internal_subset(pos + 1, prolog)
            if end < 0:
                return -1
            prolog.subset = (pos + 1, end)
            pos = yield from self._skip_space(end + 1)
        return pos + 1 if (yield from self._starts(pos, b">")) else -1

    def _literal(self, pos: int) -> Generator[None, None, int]:
        """The position after the quoted literal at POS, or -1."""
        if not (yield from self._need(pos + 1)) or self.data[pos] not in b"\"'":
            return -1
        return (yield from self._find(self.data[pos : pos + 1], pos + 1)) + 1

    def _internal_subset(self, pos: int, prolog: Prolog) -> Generator[None, None, int]:
        """Scan the declarations from POS; the position of the closing `]`, or -1."""
        while True:
            pos = yield from self._skip_space(pos)
            if not (yield from self._need(pos + 1)):
                return -1
            if self.data[pos] == 0x5D:  # ]
                return pos
            if self.data[pos] == 0x25:  # %name;
                reference_end = (yield from self._search(_PE_REFERENCE_END, pos + 1)).start()
                prolog.pe_references.append(self.data[pos : reference_end + 1].decode("utf-8", "replace"))
                pos = reference_end + 1
                continue
            end = yield from self._comment_or_pi(pos)
            if end is not None:
                pos = end
            elif (yield from self._starts(pos, b"<!")):
                pos = yield from self._markup_declaration(pos + 2, prolog)
            else:
                return -1

    def _markup_declaration(self, pos: int, prolog: Prolog) -> Generator[None, None, int]:
        """ELEMENT, ATTLIST, ENTITY or NOTATION from after `<!`: the position after its `>`."""
        yield from self._need(pos + 8)
        keyword = _KEYWORD.match(self.data, pos)
        if keyword is not None and keyword.group() == b"ENTITY":
            name_start = yield from self._skip_space(keyword.end())
            if (yield from self._starts(name_start, b"%")):
                name_start = yield from self._skip_space(name_start + 1)
            name_end = (yield from self._search(_NAME_END, name_start)).start()
            prolog.entities.append(self.data[name_start:name_end].decode("utf-8", "replace"))
        while True:
            stop = yield from self._search(_DECLARATION_STOP, pos)
            if stop.group() == b">":
                return stop.end()
            pos = (yield from self._find(stop.group(), stop.end())) + 1


_BLANKS = bytes(byte if byte in b"\r\n" else 0x20 for byte in range(256))


def blank(data: bytearray, start: int, end: int) -> None:
    """Overwrite DATA[START:END] with spaces, keeping line ends (so every line and byte offset stays put)."""
    data[start:end] = bytes(data[start:end]).translate(_BLANKS)
