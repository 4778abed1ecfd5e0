"""Secure, streaming, lossless reading of a log file into an lxml tree.

Security: the parser never resolves entities, never loads a DTD named by the
document and never touches the network; a document that declares entities or
names an external DTD subset is refused outright (XXE, billion laughs and
quadratic blow-up all need entity declarations). libxml2's own amplification
guard stays on as a second line.

Losslessness: comments, processing instructions, CDATA sections and the
DOCTYPE stay in the tree; the XML declaration and the whitespace around the
root, which lxml does not keep, are captured as raw bytes so that saving an
unedited document reproduces what the project itself wrote byte for byte.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from annotator.errors import LogReadError, UnsafeLogError

_CHUNK = 1 << 20
_DECLARATION = re.compile(rb"^(\xef\xbb\xbf)?<\?xml\s[^>]*?\?>")
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


@dataclass(frozen=True)
class FileStamp:
    """What identifies the bytes a document was read from (to notice outside changes)."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: str | Path) -> FileStamp:
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for chunk in iter(lambda: stream.read(_CHUNK), b""):
                digest.update(chunk)
        info = os.stat(path)
        return cls(info.st_size, info.st_mtime_ns, digest.hexdigest())


@dataclass
class ParsedLog:
    tree: etree._ElementTree
    encoding: str
    declaration: bytes  # the XML declaration exactly as written (BOM included), or b""
    prolog: bytes | None  # every byte before the root element, when it could be delimited
    epilogue: bytes | None  # every byte after the root element, when it could be delimited
    trailer: bytes  # whitespace after the last node
    stamp: FileStamp

    def serialize(self) -> bytes:
        """Bytes of the (possibly edited) tree with the untouchable prolog and trailer as read.

        lxml keeps neither the declaration's quoting nor the whitespace between
        top-level nodes, so those come from the raw bytes; the root element,
        the only part annotations change, comes from lxml.
        """
        stream = io.BytesIO()
        self.write_to(stream)
        return stream.getvalue()

    def write_to(self, stream: BinaryIO) -> None:
        """Stream what serialize() returns (saving 100 MB need not build 100 MB of bytes first)."""
        root = self.tree.getroot()
        if self.prolog is not None and self.epilogue is not None:
            stream.write(self.prolog)
            with etree.xmlfile(stream, encoding=self.encoding) as writer:
                writer.write(root, with_tail=False)
            stream.write(self.epilogue)
            return
        stream.write(self._serialize_whole_tree())

    def _serialize_whole_tree(self) -> bytes:
        if not self.declaration:  # not ASCII-compatible (UTF-16...) or none: lxml writes it
            return etree.tostring(self.tree, encoding=self.encoding, xml_declaration=True) + self.trailer
        body = etree.tostring(self.tree, encoding=self.encoding, xml_declaration=False)
        return self.declaration + b"\n" + body + self.trailer


def make_parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=True,
        strip_cdata=False,
        remove_blank_text=False,
        remove_comments=False,
        remove_pis=False,
    )


def parse_log_file(path: str | Path) -> ParsedLog:
    """Parse PATH or raise LogReadError naming file, line and column."""
    path = Path(path)
    try:
        if path.is_dir():
            raise LogReadError(path, "is a folder, not a log file")
        info = os.stat(path)
        stream = open(path, "rb")
    except OSError as error:
        raise LogReadError(path, error.strerror or str(error)) from None
    parser = make_parser()
    digest = hashlib.sha256()
    head = b""
    tail = b""
    with stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            if not head:
                head = chunk[:4096]
            digest.update(chunk)
            tail = (tail + chunk)[-4096:]
            try:
                parser.feed(chunk)
            except etree.XMLSyntaxError as error:
                raise _syntax_error(path, error, head) from None
    if not head.strip():
        raise LogReadError(path, "is empty" if not head else "holds only whitespace, no XML")
    try:
        root = parser.close()
    except etree.XMLSyntaxError as error:
        raise _syntax_error(path, error, head) from None
    tree = root.getroottree()
    _refuse_unsafe(path, tree)
    declaration, _ = _declaration(head)
    encoding = tree.docinfo.encoding or "UTF-8"
    prolog = _raw_prolog(head, len(declaration), root.tag)
    trailer = tail[len(tail.rstrip()):]
    epilogue = trailer if root.getnext() is None else _raw_epilogue(tail, root.tag)
    stamp = FileStamp(info.st_size, info.st_mtime_ns, digest.hexdigest())
    return ParsedLog(tree, encoding, declaration, prolog, epilogue, trailer, stamp)


def _skip_misc(data: bytes, pos: int) -> int:
    """Skip whitespace, comments and processing instructions; return where something else starts."""
    while pos < len(data):
        if data[pos:pos + 1].isspace():
            pos += 1
        elif data.startswith(b"<!--", pos):
            end = data.find(b"-->", pos + 4)
            if end < 0:
                return -1
            pos = end + 3
        elif data.startswith(b"<?", pos):
            end = data.find(b"?>", pos + 2)
            if end < 0:
                return -1
            pos = end + 2
        else:
            return pos
    return pos


def _raw_epilogue(tail: bytes, root_tag: str) -> bytes | None:
    """The comments and PIs after the root's end tag, as written (None if not delimitable)."""
    start = tail.rfind(b"</" + root_tag.encode("ascii", "replace"))
    close = tail.find(b">", start) if start >= 0 else -1
    if close < 0 or _skip_misc(tail, close + 1) != len(tail):
        return None
    return tail[close + 1:]


def _raw_prolog(head: bytes, start: int, root_tag: str) -> bytes | None:
    """The bytes before the root start tag, or None when they cannot be delimited safely
    (non-ASCII-compatible encodings, a prolog longer than the first chunk)."""
    pos = _skip_misc(head, start)
    if pos >= 0 and head.startswith(b"<!DOCTYPE", pos):
        close = head.find(b">", pos)
        bracket = head.find(b"[", pos)
        if 0 <= bracket < close:
            close = head.find(b">", head.find(b"]", bracket))
        pos = _skip_misc(head, close + 1) if close >= 0 else -1
    if pos >= 0 and head.startswith(b"<" + root_tag.encode("ascii", "replace"), pos):
        return head[:pos]
    return None


def _declaration(head: bytes) -> tuple[bytes, str]:
    match = _DECLARATION.match(head)
    if not match:
        return b"", "UTF-8"
    found = _ENCODING.search(match.group(0))
    return match.group(0), found.group(1).decode("ascii") if found else "UTF-8"


def unsafe_reason(tree: etree._ElementTree) -> str | None:
    """Why a parsed document must be refused (external DTD, entity declarations), or None."""
    info = tree.docinfo
    if info.system_url or info.public_id:
        return f"refused: the DOCTYPE names an external DTD ({info.system_url or info.public_id}); logs may not load outside files"
    subset = info.internalDTD
    names = [entity.name for entity in subset.iterentities()] if subset is not None else []
    if names:
        return f"refused: the DOCTYPE declares entities ({', '.join(names[:5])}); entity declarations can read files or explode in memory"
    return None


def _refuse_unsafe(path: Path, tree: etree._ElementTree) -> None:
    reason = unsafe_reason(tree)
    if reason:
        raise UnsafeLogError(path, reason)


def _syntax_error(path: Path, error: etree.XMLSyntaxError, head: bytes) -> LogReadError:
    line, column = (error.position if error.position else (None, None))
    message = error.msg or str(error)
    # lxml appends "(<string>, line N)" or "line N, column M"; the location is given separately.
    message = re.sub(r",? line \d+, column \d+$", "", message)
    message = re.sub(r"\s*\(<string>, line \d+\)$", "", message)
    # libxml2's advice to programmers means nothing to a user.
    message = re.sub(r",? *(see xmlCtxtSetMaxAmplification|use XML_PARSE_HUGE option)[^.]*", "", message)
    message = message.rstrip(" .,") + "."
    lowered = message.lower()
    if "amplification" in lowered or "entity" in lowered and "loop" in lowered:
        return UnsafeLogError(path, f"refused: entity expansion blow-up ({message})", line, column)
    if "utf-8" in lowered or "encoding" in lowered:
        declaration, declared = _declaration(head)
        offset = _first_undecodable_byte(path, declared)
        where = f" at byte offset {offset}" if offset is not None else ""
        if b"encoding" in declaration:
            reason = (f"the bytes do not match the declared encoding {declared}{where} "
                      "(a file saved in another encoding, e.g. Latin-1, without saying so?)")
        else:
            reason = (f"the bytes do not match UTF-8{where}, the encoding of a log that declares none "
                      "(if it is Latin-1, say so: <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)")
        return LogReadError(path, reason, line, column)
    return LogReadError(path, f"not well-formed XML: {message}", line, column)


def _first_undecodable_byte(path: Path, encoding: str) -> int | None:
    """Offset of the first byte that is not valid in ENCODING (None if all decode)."""
    import codecs

    try:
        decoder = codecs.getincrementaldecoder(encoding)()
    except LookupError:
        return None
    offset = 0
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as error:
                return offset + error.start
            offset += len(chunk)
    return None
