"""Secure, streaming, lossless reading of a log file into an lxml tree.

Security: the file must be a regular file (annotator.input_files); the parser
never resolves entities, never loads a DTD and never touches the network. A
DOCTYPE may name an external DTD (SYSTEM or PUBLIC, a path or a URL): it is
kept, never read. Entity declarations and parameter-entity references in the
internal subset are refused before a byte reaches libxml2 (XXE, billion laughs
and quadratic blow-up all need them); the rest of the internal subset is
checked for well-formedness and then blanked out of what libxml2 reads, so no
attribute default, namespace default or attribute-type normalisation it
declares can change what is read. libxml2's amplification guard stays on.

Losslessness: every byte before the root element (byte-order mark, XML
declaration, comments, PIs, DOCTYPE, whitespace) and after it is kept as read,
for a prolog and epilogue of any size and in any encoding (see prolog.py,
epilogue.py, xml_encoding.py); the root element, the only part annotations
change, is written by lxml in the declared encoding.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from lxml import etree

from annotator.errors import LogReadError, UnsafeLogError
from annotator.input_files import open_input_file
from annotator.reading.epilogue import find_epilogue
from annotator.reading.log_reader import LogReader, entities_refusal, make_parser
from annotator.reading.lxml_types import entity_declarations, internal_subset
from annotator.reading.xml_encoding import EncodingWriter, LogEncoding
from annotator.writes.inplace import lock, recover_interrupted_write

__all__ = ["ChunkWatcher", "FileStamp", "ParsedLog", "make_parser", "parse_log_file", "unsafe_reason"]

# A chunk of 256 KB is parsed in about 10 ms, so Cancel and the progress are heard that often. lxml lets
# the GIL go while libxml2 parses a chunk fed to it (parser.pxi, _parse_data_chunk runs "with nogil"), so
# the window paints meanwhile; the GIL is held between chunks, by the Python around each feed.
_CHUNK = 1 << 18


@dataclass(frozen=True)
class FileStamp:
    """What identifies the bytes a document was read from (to notice outside changes)."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: str | Path) -> FileStamp:
        digest = hashlib.sha256()
        with open_input_file(path) as stream:
            for chunk in iter(lambda: stream.read(_CHUNK), b""):
                digest.update(chunk)
            info = os.fstat(stream.fileno())
        return cls(info.st_size, info.st_mtime_ns, digest.hexdigest())


@dataclass
class ParsedLog:
    tree: etree._ElementTree
    log_encoding: LogEncoding
    prolog: bytes | None  # every byte before the root element, as read (None: could not be delimited)
    epilogue: bytes | None  # every byte after the root element, as read (None: could not be delimited)
    stamp: FileStamp
    notes: list[str] = field(default_factory=list)  # remarks made while reading, shown as findings

    @property
    def encoding(self) -> str:
        return self.log_encoding.name

    def serialize(self) -> bytes:
        """Bytes of the (possibly edited) tree: the prolog and epilogue as read, the root as lxml writes it."""
        stream = io.BytesIO()
        self.write_to(stream)
        return stream.getvalue()

    def write_to(self, stream: BinaryIO) -> None:
        """Stream what serialize() returns (saving 100 MB need not build 100 MB of bytes first)."""
        root = self.tree.getroot()
        if self.prolog is None:
            self._write_whole_tree(stream)
            return
        stream.write(self.prolog)
        self._write_node(stream, root)
        if self.epilogue is not None:
            stream.write(self.epilogue)
            return
        for sibling in root.itersiblings():  # the epilogue could not be delimited: its nodes, one a line
            stream.write(self._encode("\n"))
            self._write_node(stream, sibling)
        stream.write(self._encode("\n"))

    def _write_node(self, stream: BinaryIO, node: etree._Element) -> None:
        if self.log_encoding.native:
            with etree.xmlfile(stream, encoding=self.encoding) as writer:
                writer.write(node, with_tail=False)
            return
        assert self.log_encoding.codec is not None  # only a log with a Python codec is not read natively
        target = EncodingWriter(stream, self.log_encoding.codec)
        with etree.xmlfile(target, encoding="UTF-8") as writer:
            writer.write(node, with_tail=False)
        target.close()

    def _encode(self, text: str) -> bytes:
        return text.encode(self.log_encoding.codec or "ascii", errors="xmlcharrefreplace")

    def _write_whole_tree(self, stream: BinaryIO) -> None:
        """The prolog could not be delimited (never seen in practice): what the tree holds, after a declaration."""
        if self.log_encoding.codec is None:
            # An encoding name other than "unicode" makes tostring() return bytes.
            whole = cast(bytes, etree.tostring(self.tree, encoding=self.encoding, xml_declaration=True))
            stream.write(whole + b"\n")
            return
        stream.write(self.log_encoding.bom)
        stream.write(self._encode(f'<?xml version="1.0" encoding="{self.encoding}"?>\n'))
        stream.write(self._encode(etree.tostring(self.tree, encoding="unicode") + "\n"))


# Called after each chunk read with (bytes read, file size): a progress report, and the place to stop a
# parse, by raising (the exception leaves parse_log_file as it is, with the file closed).
ChunkWatcher = Callable[[int, int], None]


def parse_log_file(path: str | Path, watch: ChunkWatcher | None = None) -> ParsedLog:
    """Parse PATH or raise LogReadError naming file, line and column; WATCH hears each chunk read."""
    path = Path(path)
    notes = recover_interrupted_write(path)
    try:
        stream = open_input_file(path)
    except OSError as error:
        raise LogReadError(path, error.strerror or str(error)) from None
    with stream:
        lock(stream.fileno(), exclusive=False)  # an in-place save of a hard-linked log finishes first
        info = os.fstat(stream.fileno())
        digest = hashlib.sha256()
        reader = LogReader(path)
        done = 0
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            digest.update(chunk)
            reader.feed(chunk)
            done += len(chunk)
            if watch is not None:
                watch(done, info.st_size)
        tree = reader.close()
        assert reader.encoding is not None  # close() resolved it
        _refuse_unsafe(path, tree)
        epilogue = None
        if reader.prolog is not None:
            epilogue = find_epilogue(stream, info.st_size, reader.encoding, tree.getroot())
    stamp = FileStamp(info.st_size, info.st_mtime_ns, digest.hexdigest())
    return ParsedLog(tree, reader.encoding, reader.prolog, epilogue, stamp, notes)


def unsafe_reason(tree: etree._ElementTree) -> str | None:
    """Why a parsed document must be refused (entity declarations), or None.

    Logs never get here with entity declarations (LogReader refuses them first); this is the
    second line, and the check for documents parsed some other way."""
    subset = internal_subset(tree)
    names = [entity.name for entity in entity_declarations(subset)] if subset is not None else []
    return entities_refusal(names) if names else None


def _refuse_unsafe(path: Path, tree: etree._ElementTree) -> None:
    reason = unsafe_reason(tree)
    if reason:
        raise UnsafeLogError(path, reason)
