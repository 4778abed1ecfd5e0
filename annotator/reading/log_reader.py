"""Feeding a log's bytes to libxml2, chunk by chunk: encoding first, then the prolog, then the rest.

LogReader decides the encoding from the first bytes (xml_encoding.resolve),
holds back what it reads until PrologScanner has found where the root element
starts, refuses entity declarations and parameter-entity references, checks
and blanks the internal subset, and only then lets libxml2 read; from there
on each chunk goes straight through (transcoded to UTF-8 where Python decodes).
Every problem is a LogReadError naming the file and, where known, line and
column.
"""

from __future__ import annotations

import codecs
import functools
import re
from pathlib import Path
from typing import Literal

from lxml import etree

from annotator.errors import LogReadError, UnsafeLogError
from annotator.input_files import open_input_file
from annotator.reading.prolog import PrologScanner, blank
from annotator.reading.xml_encoding import (
    DecodeProblem,
    EncodingMismatchError,
    LogEncoding,
    Transcoder,
    UnknownEncodingError,
    declared_name,
    resolve,
    sniff,
)

_CHUNK = 1 << 20
_LONGEST_DECLARATION = 1 << 16  # past this, whatever the file starts with is not a declaration we wait for
_MISMATCH_HINT = "(a file saved in another encoding, e.g. Latin-1, without saying so?)"

# What an XMLPullParser can report.
ParseEvent = Literal["start", "end", "start-ns", "end-ns", "comment", "pi"]


def make_parser(
    encoding: str | None = None, events: tuple[ParseEvent, ...] | None = None, tag: tuple[str, ...] | None = None
) -> etree.XMLParser:
    """The one parser configuration for logs and annotation files; ENCODING overrides the declared one.

    With EVENTS, an XMLPullParser of the same configuration reporting those events (for TAG)."""
    parser_class = etree.XMLParser if events is None else functools.partial(etree.XMLPullParser, events, tag=tag)
    return parser_class(
        encoding=encoding,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        attribute_defaults=False,
        huge_tree=True,
        strip_cdata=False,
        remove_blank_text=False,
        remove_comments=False,
        remove_pis=False,
    )


def entities_refusal(names: list[str]) -> str:
    return (
        f"refused: the DOCTYPE declares entities ({', '.join(names[:5])}); "
        "entity declarations can read files or explode in memory"
    )


class LogReader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.head: bytearray | None = bytearray()  # raw bytes, until the encoding is known
        self.first = b""  # the first bytes, to tell an empty file from broken XML
        self.encoding: LogEncoding | None = None
        self.parser: etree.XMLParser | None = None
        self.transcoder: Transcoder | None = None
        self.scanner: PrologScanner | None = PrologScanner()
        self.raw_start = bytearray()  # raw bytes while the prolog is scanned (transcoded logs only)
        self.prolog: bytes | None = None

    def feed(self, chunk: bytes) -> None:
        if not self.first:
            self.first = chunk[:4096]
        if self.head is not None:
            self.head += chunk
            if not self._resolve(final=False):
                return
            chunk, self.head = bytes(self.head), None
            assert self.encoding is not None  # _resolve found it
            chunk = chunk if self.encoding.native else chunk[len(self.encoding.bom) :]
        self._pass_on(chunk, final=False)

    def close(self) -> etree._ElementTree:
        if not self.first.strip():
            raise LogReadError(self.path, "is empty" if not self.first else "holds only whitespace, no XML")
        if self.head is not None:
            self._resolve(final=True)
            chunk, self.head = bytes(self.head), None
            assert self.encoding is not None  # a final _resolve finds it or raises
            self._pass_on(chunk if self.encoding.native else chunk[len(self.encoding.bom) :], final=False)
        self._pass_on(b"", final=True)
        assert self.parser is not None  # made with the encoding
        try:
            root = self.parser.close()
        except etree.XMLSyntaxError as error:
            raise self._syntax_error(error) from None
        return root.getroottree()

    # --- the encoding ----------------------------------------------------------------------------------
    def _resolve(self, final: bool) -> bool:
        assert self.head is not None, "the encoding is resolved once, from the first bytes"
        head = bytes(self.head)
        bom, family = sniff(head)
        name, complete = declared_name(head, bom, family)
        if not (complete or final or len(head) >= _LONGEST_DECLARATION):
            return False
        try:
            self.encoding = resolve(head)
        except UnknownEncodingError as error:
            raise LogReadError(self.path, str(error)) from None
        except EncodingMismatchError as error:
            raise LogReadError(self.path, f"the bytes do not match the declared encoding {name}: {error}") from None
        self.parser = self._new_parser(None if self.encoding.native else "UTF-8")
        if not self.encoding.native:
            self.transcoder = Transcoder(self.encoding)
            self.raw_start += self.encoding.bom  # the transcoder starts after it
        return True

    def _new_parser(self, encoding: str | None) -> etree.XMLParser:
        """The parser libxml2 reads the log with (a streaming reader asks for a pull parser here)."""
        return make_parser(encoding)

    def _pass_on(self, raw: bytes, final: bool) -> None:
        fed = raw if self.transcoder is None else self._transcode(raw, final)
        if self.scanner is None:
            self._parse(fed)
            return
        if self.transcoder is not None:
            self.raw_start += raw
        if final:
            self.scanner.data += fed
            self.scanner.finish()
        elif not self.scanner.feed(fed):
            return
        self._end_of_prolog()

    def _transcode(self, raw: bytes, final: bool) -> bytes:
        assert self.transcoder is not None and self.encoding is not None
        try:
            return self.transcoder.decode(raw, final)
        except DecodeProblem as problem:
            raise LogReadError(
                self.path, _mismatch(self.encoding.name, problem.offset, declared=True), problem.line, problem.column
            ) from None

    # --- the prolog ------------------------------------------------------------------------------------
    def _end_of_prolog(self) -> None:
        scanner, self.scanner = self.scanner, None
        assert scanner is not None, "the prolog ends once"
        data, found = scanner.data, scanner.result
        if found is not None:
            if found.entities:
                raise UnsafeLogError(self.path, entities_refusal(found.entities))
            if found.pe_references:
                raise UnsafeLogError(
                    self.path,
                    f"refused: the DOCTYPE refers to parameter entities "
                    f"({', '.join(found.pe_references[:5])}); they could read files",
                )
            self.prolog = self._raw_prolog(bytes(data[: found.root_start]))
            if found.subset is not None:
                self._check_subset(bytes(data[: found.subset[1]]))
                blank(data, *found.subset)
        self.raw_start = bytearray()
        self._parse(bytes(data))

    def _raw_prolog(self, fed: bytes) -> bytes | None:
        """The file's own bytes before the root (FED is them as libxml2 reads them)."""
        if self.transcoder is None:
            return fed
        assert self.encoding is not None and self.encoding.codec is not None  # a transcoded log's
        try:
            candidate = self.encoding.bom + fed.decode("utf-8").encode(self.encoding.codec)
        except UnicodeError:
            return None
        # A codec with two byte sequences for one character may not give the same bytes back: keep none then.
        return candidate if self.raw_start.startswith(candidate) else None

    def _check_subset(self, up_to_subset_end: bytes) -> None:
        """The internal subset must be well-formed, although libxml2 will not see it in the log."""
        assert self.encoding is not None
        parser = make_parser(None if self.encoding.native else "UTF-8")
        try:
            parser.feed(up_to_subset_end + b"]><x/>")
            parser.close()
        except etree.XMLSyntaxError as error:
            raise self._syntax_error(error, where=" in the DOCTYPE") from None

    # --- libxml2 -------------------------------------------------------------------------------------
    def _parse(self, fed: bytes) -> None:
        assert self.parser is not None, "libxml2 reads once the encoding is known"
        try:
            self.parser.feed(fed)
        except etree.XMLSyntaxError as error:
            raise self._syntax_error(error) from None

    def _syntax_error(self, error: etree.XMLSyntaxError, where: str = "") -> LogReadError:
        line, column = error.position if error.position else (None, None)
        message = clean_parser_message(error)
        lowered = message.lower()
        if "amplification" in lowered or "entity" in lowered and "loop" in lowered:
            return UnsafeLogError(self.path, f"refused: entity expansion blow-up ({message})", line, column)
        if self.encoding is not None and self.encoding.native and ("utf-8" in lowered or "encoding" in lowered):
            offset = _first_undecodable_byte(self.path, self.encoding.codec)
            return LogReadError(
                self.path, _mismatch(self.encoding.name, offset, self.encoding.declared is not None), line, column
            )
        return LogReadError(self.path, f"not well-formed XML{where}: {message}", line, column)


def clean_parser_message(error: etree.XMLSyntaxError) -> str:
    """libxml2's message without the location lxml appends and the advice meant for programmers."""
    message = error.msg or str(error)
    message = re.sub(r",? line \d+, column \d+$", "", message)
    message = re.sub(r"\s*\(<string>, line \d+\)$", "", message)
    message = re.sub(r",? *(see xmlCtxtSetMaxAmplification|use XML_PARSE_HUGE option)[^.]*", "", message)
    return message.rstrip(" .,") + "."


def _mismatch(name: str, offset: int | None, declared: bool) -> str:
    where = f" at byte offset {offset}" if offset is not None else ""
    if declared:
        return f"the bytes do not match the declared encoding {name}{where} {_MISMATCH_HINT}"
    return (
        f"the bytes do not match UTF-8{where}, the encoding of a log that declares none "
        '(if it is Latin-1, say so: <?xml version="1.0" encoding="ISO-8859-1"?>)'
    )


def _first_undecodable_byte(path: Path, codec: str | None) -> int | None:
    """Offset of the first byte that is not valid in CODEC (None if all decode)."""
    if codec is None:
        return None
    decoder = codecs.getincrementaldecoder(codec)()
    offset = 0
    with open_input_file(path) as stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as error:
                return offset + error.start
            offset += len(chunk)
    return None
