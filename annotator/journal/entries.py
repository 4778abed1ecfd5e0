"""What a recovery journal holds, and reading it back without trusting a byte of it.

A journal is JSON: the log's path and the SHA-256 of the bytes the edits were
made against, when it was written, and the net value of every transcription,
task completion and reference concept frame (in its compact form, annotator.log.concepts)
that differs from that file (None: removed), each placed by session and turn position and
checked by id. A journal written before concepts existed has no "concepts" list and reads as none; likewise
the turns' flags, comments and time spent ("notes", with their kind) and the sessions' reviews ("reviewed"); "typing"
places the transcription that was typing in the editor, not yet stored (none in an older journal). parse_journal accepts exactly what
encode_journal writes and refuses anything else (bad JSON, a number like 1e400,
nesting 100,000 deep, a value XML cannot hold) with UnreadableJournal, whose
message is one line; it never raises anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import cast

from annotator.errors import AnnotationError
from annotator.file_name_text import name_from_text, name_text
from annotator.log.annotations import task_completion_problem
from annotator.log.concepts import parse_compact
from annotator.log.flags import TURN_NOTES, parse_flags, parse_seconds
from annotator.log.text import first_not_xml

FORMAT = 1


class UnreadableJournal(ValueError):
    """The bytes are not a journal this program wrote; the message says why, in one line."""


@dataclass(frozen=True)
class TranscriptionEdit:
    session: int  # position of the GC_SESSION in the log
    session_id: str
    turn: int  # position of the GC_TURN in its session
    turn_id: str
    text: str | None  # the unsaved value; None: removed
    was: str | None  # the value in the file the edit was made against


@dataclass(frozen=True)
class ConceptsEdit(TranscriptionEdit):
    """A turn's reference concepts: TEXT and WAS are compact forms (None: no reference concepts)."""


@dataclass(frozen=True)
class NoteEdit(TranscriptionEdit):
    """A turn's flags, comment or time spent (KIND, annotator.log.flags.TURN_NOTES), as stored."""

    kind: str = "flags"


@dataclass(frozen=True)
class TaskCompletionEdit:
    session: int
    session_id: str
    value: str | None
    was: str | None


@dataclass(frozen=True)
class ReviewedEdit(TaskCompletionEdit):
    """A session's review: VALUE and WAS name the reviewer (None: not reviewed)."""


@dataclass(frozen=True)
class AnnotationEdits:
    transcriptions: tuple[TranscriptionEdit, ...] = ()
    task_completion: tuple[TaskCompletionEdit, ...] = ()
    concepts: tuple[ConceptsEdit, ...] = ()
    notes: tuple[NoteEdit, ...] = ()
    reviewed: tuple[ReviewedEdit, ...] = ()
    # (session position, turn position) of the transcription edit that was typing in the editor, not yet stored:
    # restored as a draft in that turn's editor, not as a stored transcription
    typing: tuple[int, int] | None = None

    def __len__(self) -> int:
        return (
            len(self.transcriptions)
            + len(self.task_completion)
            + len(self.concepts)
            + len(self.notes)
            + len(self.reviewed)
        )

    def describe(self) -> str:
        """'5 transcriptions, 1 removed transcription, 1 task completion and 2 concept frames'."""
        written = sum(edit.text is not None for edit in self.transcriptions)
        framed = sum(edit.text is not None for edit in self.concepts)
        parts = [
            count(written, "transcription"),
            count(len(self.transcriptions) - written, "removed transcription"),
            count(len(self.task_completion), "task completion"),
            count(framed, "concept frame"),
            count(len(self.concepts) - framed, "removed concept frame"),
            *(count(sum(edit.kind == kind for edit in self.notes), noun) for kind, noun in _NOTE_NOUNS.items()),
            count(len(self.reviewed), "review"),
        ]
        parts = [part for part in parts if part]
        return " and ".join(parts) if len(parts) < 3 else f"{', '.join(parts[:-1])} and {parts[-1]}"


_NOTE_NOUNS = {"flags": "flag change", "comment": "comment", "time_spent": "time spent"}


@dataclass(frozen=True)
class JournalEntry:
    """What a journal on disk holds, for the 'restore unsaved work?' question."""

    file: Path  # the journal file
    log_path: str
    sha256: str  # the log's content hash the edits were made against
    written: datetime
    edits: AnnotationEdits
    matches_file: bool  # False: the log changed on disk since (see warning)
    conflicts: int  # edits whose value the other program changed too (only when not matches_file)

    @property
    def summary(self) -> str:
        """'5 transcriptions and 1 task completion from 2026-11-21 14:02'."""
        return f"{self.edits.describe()} from {self.written:%Y-%m-%d %H:%M}"

    @property
    def warning(self) -> str | None:
        if self.matches_file:
            return None
        text = "the log was changed on disk after these edits were made; restoring sets them on top of the changed file"
        if self.conflicts:
            text += f" ({count(self.conflicts, 'annotation')} also changed there would be overwritten)"
        return text


def encode_journal(log_path: Path, sha256: str, edits: AnnotationEdits) -> bytes:
    content = {
        "format": FORMAT,
        "log": name_text(log_path),  # reversibly, whatever bytes the name has
        "sha256": sha256,
        "written": datetime.now().astimezone().isoformat(timespec="milliseconds"),  # orders journals of one second
        "transcriptions": [edit.__dict__ for edit in edits.transcriptions],
        "task_completion": [edit.__dict__ for edit in edits.task_completion],
        "concepts": [edit.__dict__ for edit in edits.concepts],
        "notes": [edit.__dict__ for edit in edits.notes],
        "reviewed": [edit.__dict__ for edit in edits.reviewed],
        "typing": list(edits.typing) if edits.typing is not None else None,
    }
    return json.dumps(content, ensure_ascii=False, indent=1).encode("utf-8")


def parse_journal(raw: bytes) -> tuple[str, str, datetime, AnnotationEdits]:
    """(log path, sha256, written, edits) of RAW; raises UnreadableJournal and nothing else."""
    try:
        content = json.loads(raw.decode("utf-8"))
        if not isinstance(content, dict) or content.get("format") != FORMAT:
            raise UnreadableJournal("not a recovery journal of this program (no format 1)")
        texts = tuple(
            TranscriptionEdit(
                _position(e["session"]),
                _text(e["session_id"]),
                _position(e["turn"]),
                _text(e["turn_id"]),
                _value(e["text"]),
                _value(e["was"]),
            )
            for e in _entries(content["transcriptions"])
        )
        tasks = tuple(
            TaskCompletionEdit(
                _position(e["session"]), _text(e["session_id"]), _task_value(e["value"]), _value(e["was"])
            )
            for e in _entries(content["task_completion"])
        )
        frames = tuple(
            ConceptsEdit(
                _position(e["session"]),
                _text(e["session_id"]),
                _position(e["turn"]),
                _text(e["turn_id"]),
                _compact(e["text"]),
                _compact(e["was"]),
            )
            for e in _entries(content.get("concepts", []))
        )  # none in a journal older than concepts
        notes = tuple(
            NoteEdit(
                _position(e["session"]),
                _text(e["session_id"]),
                _position(e["turn"]),
                _text(e["turn_id"]),
                _note(e["kind"], e["text"]),
                _value(e["was"]),
                cast(str, e["kind"]),  # _note has just checked it is a kind of TURN_NOTES
            )
            for e in _entries(content.get("notes", []))
        )  # none in a journal older than notes
        reviews = tuple(
            ReviewedEdit(_position(e["session"]), _text(e["session_id"]), _value(e["value"]), _value(e["was"]))
            for e in _entries(content.get("reviewed", []))
        )
        written = datetime.fromisoformat(_text(content["written"])).astimezone()
        typing = _typing(content.get("typing"), texts)  # none in a journal older than drafts
        edits = AnnotationEdits(texts, tasks, frames, notes, reviews, typing)
        return name_from_text(_text(content["log"])), _text(content["sha256"]), written, edits
    except UnreadableJournal:
        raise
    except RecursionError:
        raise UnreadableJournal("nested too deeply to be a recovery journal") from None
    except KeyError as error:
        raise UnreadableJournal(f"the field {error} is missing") from None
    except (ValueError, TypeError, OverflowError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise UnreadableJournal(" ".join(str(error).split())[:200] or type(error).__name__) from None


def _entries(value: object) -> list[dict[str, object]]:
    if not isinstance(value, list) or not all(isinstance(entry, dict) for entry in value):
        raise TypeError("a list of edits was expected")
    return value


def _typing(value: object, texts: tuple[TranscriptionEdit, ...]) -> tuple[int, int] | None:
    """The place of the typing not yet stored: one of the transcription edits of the journal."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise TypeError("the typing's place was expected as [session, turn]")
    place = (_position(value[0]), _position(value[1]))
    if not any((edit.session, edit.turn) == place for edit in texts):
        raise UnreadableJournal("the typing names no transcription of the journal")
    return place


def _position(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(f"a position was expected, not {str(value)[:40]}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a string was expected, not {type(value).__name__}")
    return value


def _value(value: object) -> str | None:
    """An annotation value: None, or a string XML can hold (checked now, so that a restore never fails half way)."""
    if value is None:
        return None
    text = _text(value)
    bad = first_not_xml(text)
    if bad is not None:
        raise UnreadableJournal(f"a value holds the character U+{ord(bad):04X}, which a log cannot hold")
    return text


def _compact(value: object) -> str | None:
    """Reference concepts in their compact form: None, or a form that reads back (so a restore cannot fail on it)."""
    text = _value(value)
    if text is None:
        return None
    try:
        parse_compact(text)
    except AnnotationError as error:
        raise UnreadableJournal(str(error)) from None
    return text


def _note(kind: object, value: object) -> str | None:
    """A turn note of KIND as the writer stores it: None, or a text that reads back (flags, seconds)."""
    if kind not in TURN_NOTES:
        raise UnreadableJournal(f"{str(kind)[:40]!r} is no kind of turn note")
    text = _value(value)
    try:
        if kind == "flags":
            parse_flags(text)
        elif kind == "time_spent":
            parse_seconds(text)
    except AnnotationError as error:
        raise UnreadableJournal(str(error)) from None
    return text


def _task_value(value: object) -> str | None:
    """A task completion the app can set: None, "1" or "0" (a journal only records what the app set)."""
    text = _value(value)
    problem = None if text is None else task_completion_problem(text)
    if problem is not None:
        raise UnreadableJournal(f"a task completion {problem}")
    return text


def count(number: int, noun: str) -> str:
    return "" if not number else f"{number} {noun}{'' if number == 1 else 's'}"
