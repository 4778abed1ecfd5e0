"""Which encoding a log's bytes are in, and who decodes them: libxml2 or Python.

The first bytes tell the family (XML 1.0, appendix F): a byte-order mark, or
`<?` in UTF-16/UTF-32 without one, or else an ASCII-compatible encoding whose
name the XML declaration gives (UTF-8 when it gives none). libxml2 knows fewer
names than Python and IANA (not `latin-1`, `utf_8`, `cp437`, ...), and reads
UTF-32 with a BOM not at all. So:

- libxml2 reads the raw bytes ("native") when the family is ASCII-compatible,
  libxml2 knows the name, and the encoding is ASCII-safe (every byte below 0x80
  is that ASCII character, so the prolog and epilogue can be found in the raw
  bytes): UTF-8, ISO-8859-*, Windows-125x, KOI8, EUC and the like;
- otherwise Python decodes the bytes as they stream in and libxml2 reads them
  re-encoded as UTF-8 ("transcoded"); the original bytes are still what is
  kept for saving, and saving encodes back to the declared encoding.

A name neither knows is an error of its own ("unknown encoding"), never a
complaint that the bytes do not match.
"""

from __future__ import annotations

import codecs
import functools
import re
from dataclasses import dataclass
from typing import BinaryIO

from lxml import etree

# Python codecs that are not character encodings a document could be written in.
_NOT_CHARACTER_ENCODINGS = {"undefined", "unicode-escape", "raw-unicode-escape", "charmap", "idna", "punycode"}
_DECLARATION_NAME = re.compile(r"""^<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"']*)\1""")
_XML_WHITESPACE = " \t\r\n"

# (first bytes, codec of the rest, family name): longest first, UTF-32 before UTF-16.
_SIGNATURES = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", None),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_BOMLESS = (
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00", "utf-16-le"),
    (b"\x00<", "utf-16-be"),
)


class UnknownEncodingError(ValueError):
    """The declaration names an encoding nobody here knows (str() is the one-line reason)."""


class EncodingMismatchError(ValueError):
    """The first bytes and the declared name disagree (UTF-16 bytes declaring Latin-1, ...)."""


@dataclass(frozen=True)
class LogEncoding:
    declared: str | None  # the name as written in the declaration, or None
    bom: bytes  # the byte-order mark the file starts with, or b""
    codec: str | None  # Python codec of the bytes after the BOM (None: a name only libxml2 knows)
    native: bool  # libxml2 reads the raw bytes; else Python transcodes them to UTF-8

    @property
    def name(self) -> str:
        """The encoding to report and to write the root element in."""
        return self.declared or (_FAMILY_NAMES.get(self.codec or "", "UTF-8"))

    @property
    def unit(self) -> int:
        """Bytes per code unit: 1, or 2/4 for UTF-16/UTF-32."""
        return {"utf-16-le": 2, "utf-16-be": 2, "utf-32-le": 4, "utf-32-be": 4}.get(self.codec or "", 1)


_FAMILY_NAMES = {"utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32-le": "UTF-32", "utf-32-be": "UTF-32"}


def sniff(head: bytes) -> tuple[bytes, str | None]:
    """(byte-order mark, codec of the bytes after it) from the first bytes; codec None: ASCII-compatible."""
    for bom, codec, _ in _SIGNATURES:
        if head.startswith(bom):
            return bom, None if codec == "utf-8" else codec
    for start, codec in _BOMLESS:
        if head.startswith(start):
            return b"", codec
    return b"", None


def declared_name(head: bytes, bom: bytes, family: str | None) -> tuple[str | None, bool]:
    """(the encoding name the XML declaration gives or None, whether the declaration is complete in HEAD)."""
    raw = head[len(bom) :]
    if family is not None:
        unit = 4 if family.startswith("utf-32") else 2
        body = raw[: len(raw) - len(raw) % unit].decode(family, errors="replace")
    else:
        body = raw.decode("latin-1")
    if not body.startswith("<?xml") or len(body) > 5 and body[5] not in _XML_WHITESPACE:
        return None, len(body) >= 6 or not "<?xml".startswith(body[:5])
    end = body.find("?>")
    if end < 0:
        return None, False
    match = _DECLARATION_NAME.match(body[: end + 2])
    return (match.group(2) if match else None), True


def python_codec(name: str) -> str | None:
    """Python's canonical codec for NAME when it is a character encoding; else None."""
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):  # ValueError: a name with a NUL byte in it
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARACTER_ENCODINGS:
        return None
    return info.name


@functools.lru_cache(maxsize=64)
def libxml2_knows(name: str) -> bool:
    """Whether libxml2 (as built into this lxml) can read a document declaring NAME."""
    probe = f'<?xml version="1.0" encoding="{name}"?><a/>'.encode("ascii", "replace")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        parser.feed(probe)
        parser.close()
    except etree.XMLSyntaxError as error:
        return "unsupported encoding" not in str(error).lower()
    return True


@functools.lru_cache(maxsize=64)
def ascii_safe(codec: str) -> bool:
    """True when CODEC writes every ASCII character as its byte and nothing else with bytes below 0x80.

    Then markup (`<`, `>`, quotes, `]`, `-->`) can be found in the raw bytes without decoding them.
    Tested on the codec itself: each byte below 0x80 alone, and each byte above it followed by one
    below (a multi-byte character whose second byte is ASCII, as in Shift_JIS, or a shift sequence).
    """
    try:
        if bytes(range(128)).decode(codec) != "".join(map(chr, range(128))):
            return False
    except UnicodeDecodeError:
        return False
    for lead in range(0x80, 0x100):
        for trail in (0x22, 0x27, 0x2D, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5D, 0x30, 0x41, 0x7E):
            decoder = codecs.getincrementaldecoder(codec)(errors="strict")
            try:
                out = decoder.decode(bytes((lead, trail)), final=False)
            except UnicodeDecodeError:
                continue
            if not out.endswith(chr(trail)):
                return False
    return True


def resolve(head: bytes) -> LogEncoding:
    """The encoding of a log whose first bytes are HEAD (enough to hold the declaration)."""
    bom, family = sniff(head)
    declared, _ = declared_name(head, bom, family)
    if family is not None:  # UTF-16/UTF-32 by the first bytes
        if declared is not None and python_codec(declared) not in (family, family[:6]):
            raise EncodingMismatchError(f"they are {family.upper()} by their first bytes")
        return LogEncoding(declared, bom, family, native=False)
    name = declared or "UTF-8"
    codec = python_codec(name)
    if codec is not None and codec.startswith(("utf-16", "utf-32")):
        raise EncodingMismatchError("the declaration itself is written in single bytes")
    if libxml2_knows(name) and (codec is None or ascii_safe(codec)):
        return LogEncoding(declared, bom, codec, native=True)
    if codec is None:
        raise UnknownEncodingError(f"unknown encoding '{name}' declared at line 1")
    return LogEncoding(declared, bom, codec, native=False)


class Transcoder:
    """Decodes raw chunks of a transcoded log with Python and hands libxml2 UTF-8.

    Keeps count of bytes, lines and columns so that a byte that does not decode is
    reported at its offset, line and column (DecodeProblem)."""

    def __init__(self, encoding: LogEncoding):
        assert encoding.codec is not None, "only a log with a Python codec is transcoded"
        self.decoder = codecs.getincrementaldecoder(encoding.codec)(errors="strict")
        self.consumed = len(encoding.bom)  # raw bytes handed to the decoder, BOM included
        self.lines = 0  # newlines decoded so far
        self.column = 0  # characters since the last newline

    def decode(self, raw: bytes, final: bool = False) -> bytes:
        pending = len(self.decoder.getstate()[0])
        try:
            text = self.decoder.decode(raw, final)
        except UnicodeDecodeError as error:
            before = error.object[: error.start]
            good = before.decode(error.encoding, errors="replace")
            self._count(good)
            offset = self.consumed - pending + error.start
            raise DecodeProblem(offset, self.lines + 1, self.column + 1) from None
        self.consumed += len(raw)
        self._count(text)
        return text.encode("utf-8")

    def _count(self, text: str) -> None:
        newlines = text.count("\n")
        if newlines:
            self.lines += newlines
            self.column = len(text) - text.rfind("\n") - 1
        else:
            self.column += len(text)


class DecodeProblem(Exception):
    def __init__(self, offset: int, line: int, column: int):
        super().__init__(offset, line, column)
        self.offset, self.line, self.column = offset, line, column


class EncodingWriter:
    """A binary stream lxml writes UTF-8 into; what reaches STREAM is in CODEC (unencodable characters as
    character references, as libxml2 writes them)."""

    def __init__(self, stream: BinaryIO, codec: str):
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.encoder = codecs.getincrementalencoder(codec)(errors="xmlcharrefreplace")

    def write(self, data: bytes) -> int:
        self.stream.write(self.encoder.encode(self.decoder.decode(bytes(data))))
        return len(data)

    def close(self) -> None:
        self.stream.write(self.encoder.encode(self.decoder.decode(b"", final=True), final=True))
