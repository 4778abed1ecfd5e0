"""Findings about a log: the standard's DTD, times, turn ids, audio files, load remarks.

validate_document(doc) returns Findings sorted by line; `str(finding)` is the
one-line "file:line: severity: message" that `annotator validate` prints.

Severities, worst first:
  ERROR    the log is broken: the DTD rejects it, a time is not a number, an
           element ends before it starts, a session id is used twice in a
           log or a turn id twice in a session, a task completion is not "1" or "0", an audio path is
           refused as unsafe.
  WARNING  the log is readable but suspicious: an operation, message or event
           outside its turn, a turn outside its session, a turnid naming no
           turn, a missing audio file, a remark made while loading.
  QUIRK    the log breaks the standard's DTD only where that DTD contradicts
           the standard's own prose and examples. The recognised quirks
           (NMTOKEN for values like mime_type="audio/x-wav", `type` on
           GC_FRAME, `name` on a GC_DATA holding a GC_LIST, GC_DATA without
           `key` inside GC_ANNOT) and why they are quirks are described in
           annotator.analysis.dtd_quirks. A log with only quirks is a good log.
  INFO     for remarks that need no action.

Semantic checks never repeat what the DTD says: a missing required attribute
is reported once, by the DTD (or, with dtd=False, from the DTD's declarations
without validating the rest).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from annotator.analysis.dtd_quirks import describe, iter_dtd_problems, missing_required_attributes
from annotator.log.annotations import task_completion_problem
from annotator.log.audio_refs import AudioResolver, resolver_for
from annotator.log.document import LogDocument
from annotator.log.elements import ElementView, Session, Turn
from annotator.log.times import parse_number
from annotator.log.turn_ids import strip_id
from annotator.reading.lxml_types import source_line, system_url

__all__ = ["KEEP_PER_KIND", "Finding", "Severity", "TOLERANCE", "validate_document", "validate_path", "worst"]

# Findings of one code listed where people read them (the CLI report, the app's panel); the rest
# are counted. 200k copies of one complaint say no more than 100 do.
KEEP_PER_KIND = 100

# How far (seconds) an element may stick out of its turn or session before it is reported:
# times written with millisecond precision round both ways.
TOLERANCE = 0.001

_Span = tuple[float | None, float | None]  # (start, end) in seconds

_TIME_ATTRIBUTES = {
    "GC_SESSION": ("stime", "etime"),
    "GC_TURN": ("stime", "etime"),
    "GC_OPERATION": ("stime", "etime"),
    "GC_MESSAGE": ("time",),
    "GC_EVENT": ("time",),
    "GC_DATA": ("time",),
}
_TIMES = {name for names in _TIME_ATTRIBUTES.values() for name in names}
_TURN_REFERRING_TAGS = ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT", "GC_ANNOT", "GC_DATA", "GC_FRAME", "GC_LIST")


@functools.total_ordering
class Severity(enum.Enum):
    INFO = 0
    QUIRK = 1
    WARNING = 2
    ERROR = 3

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.value < other.value

    @property
    def word(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Finding:
    file: str
    line: int | None
    severity: Severity
    message: str  # one line, plain words
    element: etree._Element | None = field(default=None, compare=False, repr=False)
    code: str = ""  # short stable id: "dtd", "bad-time", "missing-audio", ...
    omitted: int = 0  # a row standing for this many findings of its code not listed (validate_document's keep)

    @property
    def count(self) -> int:
        """How many findings this row counts for."""
        return self.omitted or 1

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.severity.word}: {self.message}"


def validate_path(path: str | Path, *, dtd: bool = True, audio: bool = True) -> list[Finding]:
    """Load PATH (LogReadError propagates) and validate it."""
    return validate_document(LogDocument.load(path), dtd=dtd, audio=audio)


def validate_document(
    doc: LogDocument, *, dtd: bool = True, audio: bool = True, keep: int | None = None
) -> list[Finding]:
    """Every finding about DOC, sorted by line (file-wide findings first).

    With KEEP, only the first KEEP findings of each code are listed; the others are counted, in
    one row per code and session (after the listed ones, `omitted` > 0, on the line of the first
    of them), so that counts by severity and session stay exact."""
    file = str(doc.path)
    findings = _Capped(doc, keep)
    findings += [Finding(file, None, Severity.WARNING, _one_line(note), None, "load-note") for note in doc.notes]
    named_dtd = system_url(doc.tree.docinfo) or doc.tree.docinfo.public_id
    if named_dtd:
        findings += [
            Finding(
                file,
                None,
                Severity.INFO,
                _one_line(
                    f"the DOCTYPE names the DTD {named_dtd!r}; it is never read: the log is checked against the "
                    "shipped DTD of the standard"
                ),
                None,
                "named-dtd",
            )
        ]
    judged: set[tuple[etree._Element, str | None]] = set()  # times the DTD already complained about
    for problem in iter_dtd_problems(doc.tree) if dtd else missing_required_attributes(doc.tree):
        if problem.element is not None and problem.attribute in _TIMES:
            judged.add((problem.element, problem.attribute))
        findings += [
            Finding(
                file,
                problem.line,
                Severity.QUIRK if problem.is_quirk else Severity.ERROR,
                _one_line(problem.message),
                problem.element,
                problem.code,
            )
        ]
    checks = _SessionChecks(file, resolver_for(doc.path) if audio else None, judged)
    for session in doc.sessions:
        findings += checks.run(session)
    findings += _duplicate_sessions(file, doc.sessions)
    return findings.result()


class _Capped:
    """Findings as they come, each code's beyond the first KEEP counted per session instead."""

    def __init__(self, doc: LogDocument, keep: int | None):
        self.file = str(doc.path)
        self.keep = keep
        self.listed: list[Finding] = []
        self.per_code: Counter[str] = Counter()
        self.left_out: dict[tuple[str, Severity, int | None], tuple[Finding, int]] = {}
        self.sessions = {session.el: session for session in doc.sessions}

    def __iadd__(self, findings: Iterable[Finding]) -> _Capped:
        for finding in findings:
            self.per_code[finding.code] += 1
            if self.keep is None or self.per_code[finding.code] <= self.keep:
                self.listed.append(finding)
                continue
            session = self._session_of(finding.element)
            key = (finding.code, finding.severity, None if session is None else session.index)
            first, count = self.left_out.get(key, (finding, 0))
            self.left_out[key] = (first, count + 1)
        return self

    def result(self) -> list[Finding]:
        self.listed.sort(key=lambda finding: finding.line or 0)
        return self.listed + [self._summary(first, count, key[2]) for key, (first, count) in self.left_out.items()]

    def _summary(self, first: Finding, count: int, session_index: int | None) -> Finding:
        where = "in the file" if session_index is None else f"in {describe(self._sessions_by_index[session_index].el)}"
        return dataclasses.replace(
            first,
            omitted=count,
            message=f"{count:,} more findings like this ({first.code}) {where} not listed, the first here",
        )

    @functools.cached_property
    def _sessions_by_index(self) -> dict[int, Session]:
        return {session.index: session for session in self.sessions.values()}

    def _session_of(self, el: etree._Element | None) -> Session | None:
        while el is not None:
            if el in self.sessions:
                return self.sessions[el]
            el = el.getparent()
        return None


def worst(findings: Iterable[Finding]) -> Severity | None:
    return max((finding.severity for finding in findings), default=None)


class _SessionChecks:
    """The checks the DTD cannot make, one session at a time."""

    def __init__(self, file: str, resolver: AudioResolver | None, judged: set[tuple[etree._Element, str | None]]):
        self.file = file
        self.resolver = resolver
        self.judged = judged  # (element, time attribute) the DTD already complained about

    def _finding(self, el: etree._Element, severity: Severity, code: str, message: str) -> Finding:
        return Finding(self.file, source_line(el), severity, _one_line(message), el, code)

    def run(self, session: Session) -> list[Finding]:
        findings = list(self._bad_times(session))
        session_span = _span_of(session)
        findings += self._reversed(session, session_span)
        findings += self._duplicate_turns(session)
        for turn in session.turns:
            turn_span = _span_of(turn)
            findings += self._reversed(turn, turn_span)
            if _outside(turn_span, session_span):
                findings.append(
                    self._finding(
                        turn.el,
                        Severity.WARNING,
                        "outside-session",
                        f"{describe(turn.el)} ({_span(turn_span)}) lies outside "
                        f"{describe(session.el)} ({_span(session_span)})",
                    )
                )
            findings += self._activities(turn, turn_span)
            if self.resolver is not None:
                findings += self._audio(turn)
        findings += self._unknown_turnids(session)
        findings += self._task_completion(session)
        return findings

    def _bad_times(self, session: Session) -> Iterator[Finding]:
        for el in session.el.iter(*_TIME_ATTRIBUTES):
            for name in _TIME_ATTRIBUTES[el.tag]:
                raw = el.get(name)
                if raw is not None and parse_number(raw) is None and (el, name) not in self.judged:
                    yield self._finding(
                        el, Severity.ERROR, "bad-time", f"{describe(el)}: {name} {_quoted(raw)} is not a number"
                    )

    def _reversed(self, view: ElementView, span: _Span) -> Iterator[Finding]:
        start, end = span
        if start is not None and end is not None and end < start:
            yield self._finding(
                view.el,
                Severity.ERROR,
                "etime-before-stime",
                f"{describe(view.el)} ends before it starts: etime {_seconds(end)} < stime {_seconds(start)}",
            )

    def _activities(self, turn: Turn, turn_span: _Span) -> Iterator[Finding]:
        for activity in turn.activities:
            span = _span_of(activity)
            if activity.tag == "GC_OPERATION":
                yield from self._reversed(activity, span)
            if not _outside(span, turn_span):
                continue
            start, end = span
            assert start is not None and end is not None  # _outside is False while a time is unknown
            when = f"at {_seconds(start)}" if start == end else f"from {_seconds(start)} to {_seconds(end)}"
            yield self._finding(
                activity.el,
                Severity.WARNING,
                "outside-turn",
                f"{describe(activity.el)} {when} lies outside its turn ({_span(turn_span)})",
            )

    def _duplicate_turns(self, session: Session) -> Iterator[Finding]:
        first: dict[object, Turn] = {}
        for turn in session.turns:
            if turn.key is None:
                continue
            if turn.key in first:
                earlier = first[turn.key]
                spelled = f" (id {_quoted(earlier.id)})" if earlier.id != turn.id else ""
                yield self._finding(
                    turn.el,
                    Severity.ERROR,
                    "duplicate-turn-id",
                    f"GC_TURN id {_quoted(turn.id)} is already used in session {session.id} by the "
                    f"GC_TURN on line {earlier.line}{spelled}",
                )
            else:
                first[turn.key] = turn

    def _unknown_turnids(self, session: Session) -> Iterator[Finding]:
        for el in session.el.iter(*_TURN_REFERRING_TAGS):
            raw = el.get("turnid")
            if raw is None or not raw.strip():
                continue  # absent or empty: the DTD's business
            if session.turn(raw) is None:
                yield self._finding(
                    el,
                    Severity.WARNING,
                    "unknown-turnid",
                    f"{describe(el, with_turn=False)}: turnid {raw.strip()} names no GC_TURN of session {session.id}",
                )

    def _task_completion(self, session: Session) -> Iterator[Finding]:
        for el in session.el.iterchildren("GC_ANNOT"):  # where task completion is read from
            for name in ("type_task_completion", "task_completion"):
                value = el.get(name)
                problem = None if value is None else task_completion_problem(value)
                if problem is not None:
                    yield self._finding(el, Severity.ERROR, "bad-task-completion", f"GC_ANNOT: {name} {problem}")

    def _audio(self, turn: Turn) -> Iterator[Finding]:
        assert self.resolver is not None, "run() asks for audio findings only with a resolver"
        for activity in turn.activities:
            for data in activity.iter_all_data():
                for direction in ("input", "output"):
                    if not data.has_type(f"audio_{direction}"):
                        continue
                    located = self.resolver.locate(data.text)
                    if located.path is not None:
                        continue
                    where = f"{describe(turn.el)} {direction} audio"
                    if located.refused:
                        yield self._finding(data.el, Severity.ERROR, "unsafe-audio-path", f"{where}: {located.problem}")
                    else:
                        yield self._finding(data.el, Severity.WARNING, "missing-audio", f"{where}: {located.problem}")


def _duplicate_sessions(file: str, sessions: list[Session]) -> Iterator[Finding]:
    """A session id used again (fold and extract tell such sessions apart only by their occurrence)."""
    first: dict[str, Session] = {}
    for session in sessions:
        session_id = strip_id(session.id)
        if not session_id:
            continue  # no id: the DTD's business
        if session_id in first:
            yield Finding(
                file,
                session.line,
                Severity.ERROR,
                f"GC_SESSION id {_quoted(session.id)} is already used by the GC_SESSION on line "
                f"{first[session_id].line}",
                session.el,
                "duplicate-session-id",
            )
        else:
            first[session_id] = session


def _span_of(view) -> _Span:
    """(stime, etime) of a timed view, (time, time) of a message or event."""
    return view.stime, view.etime


def _outside(inner: _Span, outer: _Span) -> bool:
    """True when INNER sticks out of OUTER by more than TOLERANCE (never when a time is unknown)."""
    (start, end), (outer_start, outer_end) = inner, outer
    if start is None or end is None or outer_start is None or outer_end is None:
        return False
    return min(start, end) < outer_start - TOLERANCE or max(start, end) > outer_end + TOLERANCE


def _seconds(value: float) -> str:
    """12.4 -> '12.40 s', 12.123 -> '12.123 s' (milliseconds kept, two decimals at least)."""
    text = f"{value:.3f}"
    return f"{text[:-1] if text.endswith('0') else text} s"


def _span(span: _Span) -> str:
    start, end = span
    assert start is not None and end is not None, "only a span with both times lies outside another"
    return f"{_seconds(start)} to {_seconds(end)}"


def _quoted(value: str) -> str:
    text = re.sub(r"\s+", " ", value)
    return repr(text) if not text.isprintable() else f"'{text}'"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def findings_with_paths(path: str | Path) -> list[tuple[Finding, str | None]]:
    """Validate the log at PATH; each finding comes without its element but with the element's
    XPath (tag-indexed, so GC_ANNOT added to the tree later does not move it), for a caller that
    holds its own parse of the same file (the GUI validates in a worker thread)."""
    doc = LogDocument.load(path)
    result = []
    for finding in validate_document(doc, keep=KEEP_PER_KIND):
        where = doc.tree.getpath(finding.element) if finding.element is not None else None
        result.append((dataclasses.replace(finding, element=None), where))
    return result


def findings_with_paths_in_subprocess(path: str | Path) -> list[tuple[Finding, str | None]]:
    """findings_with_paths in a child process: lxml holds the GIL while it validates against
    the DTD (seconds on a 100 MB log), which would stall a GUI thread sharing the interpreter.
    The child ends with this process, even when it is killed (annotator.analysis.child_processes)."""
    from annotator.analysis.child_processes import in_child_process

    return in_child_process(path, "validated", findings_with_paths, str(path))
