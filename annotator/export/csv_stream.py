"""The CSV rows of one log file, made while the file streams through the parser.

    rows = file_rows(Path("log.xml"), root=Path("."))   # FileRows, or None for an annotation file

The whole tree is never built: the log is read by the same LogReader as
LogDocument.load (encodings, the prolog's checks, one-line errors), with a
pull parser reporting where sessions start and turns end. Each session is
walked by the same SessionPass and turned into rows by the same code as a
loaded document (annotator.export.csv_rows.add_session_rows), its children
handed over as the parser completes them. Once the pass is done with a turn,
the turn is emptied (its attributes stay for turns.csv) and the few GC_DATA
its facts still name are moved aside, so one session of 70,000 turns never
holds more than one turn's content; a session is dropped once its rows are made.

Two things a loaded document decides from the whole file are guessed before
the first rows and checked at the end; a wrong guess (logs that never occur in
practice) makes the file be read again with the answer:
- the time unit (LogDocument's sample of the first 200 sessions): guessed from
  what the parser has read when the first session starts;
- whether any GC_DATA of the log carries type_error_msg / type_help_msg (the
  error and help message metrics are None when none does): a log whose bytes
  do not contain the name carries none; otherwise it is taken to, and the
  GC_DATA are checked as they go by until one does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import cast

from lxml import etree

from annotator.analysis.metrics_scan import SessionPass
from annotator.corpus.paths import ANNOTATION_ROOT, root_tag
from annotator.errors import LogReadError, UnsafeLogError
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_cells import text_cell
from annotator.export.csv_rows import FileRows, add_session_rows
from annotator.file_name_text import name_text
from annotator.input_files import open_input_file
from annotator.log.document import LogDocument, sample_times
from annotator.log.elements import Session, Turn
from annotator.log.gc_pause import gc_paused
from annotator.log.times import TimeUnit, detect_unit
from annotator.log.turn_facts import TurnFacts
from annotator.reading.loading import FileStamp, ParsedLog, unsafe_reason
from annotator.reading.log_reader import LogReader, make_parser
from annotator.writes.inplace import lock, recover_interrupted_write

_CHUNK = 1 << 20
MARK_ATTRIBUTES = ("type_error_msg", "type_help_msg")  # what annotator.analysis.metrics_values asks of the whole log
_SAMPLED_SESSIONS = 200  # LogDocument's unit sample reads no more sessions, nor more than 201 turns of one
_SAMPLED_TURNS = 201
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def file_rows(path: Path, root: Path, cache_file: Path | None = None) -> FileRows | None:
    """The rows of the log at PATH (None for a human-annotation file, which is no log), its file
    cell relative to ROOT, its words those the alignment cache at CACHE_FILE holds. A FileMap's work:
    module-level, picklable arguments and result."""
    if root_tag(path) == ANNOTATION_ROOT:
        return None
    rows = stream_rows(path, file_cell(path, root), AudioCells(path.resolve().parent))
    rows.find_words(cache_file)
    return rows


def file_cell(path: Path, root: Path) -> str:
    """The log's path relative to the common root of the given paths, with / separators, as name_text writes it."""
    resolved = path.resolve()
    try:
        relative = resolved.relative_to(root)
    except ValueError:
        relative = resolved
    return text_cell(name_text(relative.as_posix()))


def stream_rows(path: Path, cell: str, audio: AudioCells) -> FileRows:
    """The rows of the log at PATH, its file cell CELL, read as a stream (see the module's docstring)."""
    marks = _marks_in_bytes(path)
    stream = _StreamedLog(path, cell, audio, None, {name: True for name in marks})
    rows = stream.rows()
    if stream.unit_seen is stream.unit and stream.marks_seen == stream.marks:
        return rows
    again = _StreamedLog(path, cell, audio, stream.unit_seen, stream.marks_seen)
    return again.rows()


def _marks_in_bytes(path: Path) -> set[str]:
    """The MARK_ATTRIBUTES a GC_DATA of the file may carry: those whose name is in the file's bytes
    (every one for UTF-16 and UTF-32 files, which do not spell names in ASCII bytes)."""
    found: set[str] = set()
    overlap = max(map(len, MARK_ATTRIBUTES))
    tail = b""
    try:
        stream = open_input_file(path)
    except OSError:
        return set(MARK_ATTRIBUTES)  # the read that follows says what is wrong with the file
    with stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            if not tail and (chunk.startswith(_WIDE_BOMS) or b"\x00" in chunk[:4]):
                return set(MARK_ATTRIBUTES)
            window = tail + chunk
            found.update(name for name in MARK_ATTRIBUTES if name.encode("ascii") in window)
            if len(found) == len(MARK_ATTRIBUTES):
                break
            tail = window[-overlap:]
    return found


class _PullReader(LogReader):
    """LogReader with a pull parser that reports where sessions start and end and turns end."""

    def _new_parser(self, encoding: str | None) -> etree.XMLParser:
        return make_parser(encoding, events=("start", "end"), tag=("GC_SESSION", "GC_TURN"))

    def events(self) -> Iterator[tuple[str, etree._Element]]:
        return iter(()) if self.parser is None else self.parser.read_events()


class _LogMarks:
    """The document of a streamed session, for what SessionPass's metrics ask of the whole log: whether
    its GC_DATA mark error and help messages (LogDocument.data_carries), taken from the bytes beforehand
    and checked as the sessions go by."""

    revision = 0
    facts_cache = None  # the turns are emptied as the pass goes: their facts are kept by the pass only

    def __init__(self, marks: dict[str, bool]):
        self.marks = marks

    def data_carries(self, attribute: str) -> bool:
        return self.marks.get(attribute, False)


class _StreamedLog:
    """One read of a log: its rows, with the unit and marks assumed and what the file really says."""

    def __init__(self, path: Path, cell: str, audio: AudioCells, unit: TimeUnit | None, marks: dict[str, bool]):
        self.path, self.cell, self.audio = path, cell, audio
        self.unit = unit  # assumed (None: guess it from the first session)
        self.marks = {name: marks.get(name, False) for name in MARK_ATTRIBUTES}  # assumed
        self.marks_seen = {name: False for name in MARK_ATTRIBUTES}
        self._unchecked = [name for name in MARK_ATTRIBUTES if self.marks[name]]  # carried, none seen yet
        self._log = _LogMarks(self.marks)
        self._samples: list[etree._Element] = []  # the unit sample's attributes of the first sessions
        self.unit_seen: TimeUnit | None = None
        self._tree: etree._ElementTree | None = None

    def rows(self) -> FileRows:
        rows = FileRows()
        reader = _PullReader(self.path)
        recover_interrupted_write(self.path)  # as LogDocument.load: a save killed half way is finished first
        try:
            stream = open_input_file(self.path)
        except OSError as error:
            raise LogReadError(self.path, error.strerror or str(error)) from None
        with stream, gc_paused():
            lock(stream.fileno(), exclusive=False)  # an in-place save of a hard-linked log finishes first
            events = self._events(reader, stream)
            index = 0
            for action, el in events:
                if action == "start" and el.tag == "GC_SESSION" and _is_session(el):
                    self._session(rows, el, index, events)
                    index += 1
            info = os.fstat(stream.fileno())
        self._end(reader, info)
        return rows

    def _events(self, reader: _PullReader, stream) -> Iterator[tuple[str, etree._Element]]:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            reader.feed(chunk)
            yield from reader.events()
        self._tree = reader.close()
        yield from reader.events()

    def _session(self, rows: FileRows, el: etree._Element, index: int, events) -> None:
        if self.unit is None:
            root = el.getroottree().getroot()
            visible = [root] if el is root else list(root.iterchildren("GC_SESSION"))
            self.unit = detect_unit(sample_times(visible))
        # _LogMarks stands in for the document: it has what the pass asks of one (see its docstring).
        session = Session(el, self.unit, cast(LogDocument, self._log), index)
        session.turns = []  # the parser may be ahead; the turns are appended as the pass gets them
        walk = SessionPass(session)
        walk.children = self._children(walk, events)
        add_session_rows(rows, self.cell, session, walk, self.audio)
        if len(self._samples) < _SAMPLED_SESSIONS:
            self._samples.append(_sample_of(session))
        self._check_marks(el)
        parent = el.getparent()
        if parent is not None:
            for earlier in list(el.itersiblings(preceding=True)):  # what came before, kept until here
                self._check_marks(earlier)
                parent.remove(earlier)
        el.clear()

    def _children(self, walk: SessionPass, events) -> Iterator[etree._Element]:
        """The session's children in document order, each once the parser has completed it (the rest
        at the session's end); each GC_TURN is appended to session.turns first and emptied after."""
        el = walk.session.el
        held = etree.Element("held")  # the GC_DATA the facts of emptied turns name, for the session's rows
        last: etree._Element | None = None
        for action, node in events:
            if action == "end" and node is el:
                break
            if action == "end" and node.tag == "GC_TURN" and node.getparent() is el:
                yield from self._hand_over(walk, held, last, node)
                last = node
        yield from self._hand_over(walk, held, last, None)

    def _hand_over(
        self, walk: SessionPass, held: etree._Element, last: etree._Element | None, up_to: etree._Element | None
    ) -> Iterator[etree._Element]:
        """The children after LAST up to UP_TO (all of them for None)."""
        session = walk.session
        child: etree._Element | None = next(session.el.iterchildren(), None) if last is None else last.getnext()
        while child is not None:
            if child.tag == "GC_TURN":
                session.turns.append(Turn(child, session.unit, session, len(session.turns)))
                yield child
                self._release(child, walk.facts[-1], held)
            else:
                yield child
            if child is up_to:
                return
            child = child.getnext()

    def _release(self, turn: etree._Element, facts: TurnFacts, held: etree._Element) -> None:
        """Empty a turn the pass is done with (it has taken the turn's facts and rows). The GC_DATA
        the facts name are moved into HELD first: an element still referred to would keep its
        whole operation alive."""
        self._check_marks(turn)
        named = facts.asr_data + facts.system_data + facts.parse_data + facts.hypothesis_data + facts.score_data
        kept = set(named)
        for data in named:
            # One named inside another (a :rec_scores frame nested in a score's GC_DATA, seen in damaged logs)
            # stays where it is: moved out, it would vanish from the outer one, which the facts read whole.
            if not any(ancestor in kept for ancestor in data.iterancestors("GC_DATA")):
                held.append(data)
        for audio in (facts.audio_input, facts.audio_output):
            if audio is not None:
                held.append(audio)
        del turn[:]

    def _check_marks(self, el: etree._Element) -> None:
        for name in list(self._unchecked):
            if el.xpath(f"boolean(descendant-or-self::GC_DATA[@{name}])"):
                self.marks_seen[name] = True
                self._unchecked.remove(name)

    def _end(self, reader: _PullReader, info: os.stat_result) -> None:
        tree = self._tree
        assert tree is not None and reader.encoding is not None  # _events read the whole file first
        reason = unsafe_reason(tree)
        if reason:
            raise UnsafeLogError(self.path, reason)
        self._check_marks(tree.getroot())
        # The root's checks, as LogDocument makes them (what is left of the tree: the sessions are gone).
        LogDocument(self.path, ParsedLog(tree, reader.encoding, None, None, FileStamp(info.st_size, 0, "")))
        self.unit_seen = detect_unit(sample_times(self._samples)) if self._samples else self.unit


def _is_session(el: etree._Element) -> bool:
    """Whether EL is one of the log's sessions (LogDocument's: the root's GC_SESSION children, or the root)."""
    parent = el.getparent()
    return parent is None or (parent.getparent() is None and parent.tag == "GC_LOG")


def _sample_of(session: Session) -> etree._Element:
    """A stand-in for SESSION carrying what LogDocument's unit sample reads: its times, its turns' starts."""
    sample = etree.Element("GC_SESSION", _times_of(session.el, ("stime", "etime")))
    for turn in session.turns[:_SAMPLED_TURNS]:
        etree.SubElement(sample, "GC_TURN", _times_of(turn.el, ("stime",)))
    return sample


def _times_of(el: etree._Element, names: tuple[str, ...]) -> dict[str, str]:
    return {name: value for name in names if (value := el.get(name)) is not None}
