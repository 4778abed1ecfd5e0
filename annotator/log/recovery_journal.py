"""Unsaved annotation edits kept on disk until they are saved, so that a crash loses nothing.

    journal = RecoveryJournal.for_document(doc)   # right after opening
    entry = journal.pending()                     # work a crashed session left? entry.summary says how much
    journal.restore(doc) / journal.discard()
    journal.record(doc)                           # within 2 s of every edit (the GUI's timer)
    journal.discard()                             # after every successful save

A journal holds the net value of every transcription and task completion
that differs from the file as read (None: removed), each placed by session and
turn position and checked by id, so duplicate ids cannot misplace it. It is
one JSON file per log in DATA/journals (DATA: $ANNOTATOR_DATA_DIR, else
platformdirs' user data folder), named after the log and a hash of its
resolved path, and it records the SHA-256 of the file the edits apply to.
Writes are atomic and fsynced, so a kill leaves the previous journal or the new one.

A journal made against other bytes than the file now holds (the log was
changed on disk after the crash) is still offered, never dropped silently:
its entry has matches_file False and a `warning` saying so and how many edits
the other program also changed. Restoring it sets the journalled values on
top of the changed file, all or nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from annotator.errors import AnnotationFileError, WriteError
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.atomic import write_atomic
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.views import Session, Turn

APP_NAME = "communicator-annotator"
DATA_DIR_VARIABLE = "ANNOTATOR_DATA_DIR"
_FORMAT = 1


def data_dir() -> Path:
    """The user's data folder for the annotator ($ANNOTATOR_DATA_DIR overrides it)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def journal_dir() -> Path:
    return data_dir() / "journals"


@dataclass(frozen=True)
class TranscriptionEdit:
    session: int  # position of the GC_SESSION in the log
    session_id: str
    turn: int  # position of the GC_TURN in its session
    turn_id: str
    text: str | None  # the unsaved value; None: removed
    was: str | None  # the value in the file the edit was made against


@dataclass(frozen=True)
class TaskCompletionEdit:
    session: int
    session_id: str
    value: str | None
    was: str | None


@dataclass(frozen=True)
class AnnotationEdits:
    transcriptions: tuple[TranscriptionEdit, ...] = ()
    task_completion: tuple[TaskCompletionEdit, ...] = ()

    def __len__(self) -> int:
        return len(self.transcriptions) + len(self.task_completion)

    def describe(self) -> str:
        """'5 transcriptions, 1 removed transcription and 1 task completion'."""
        written = sum(edit.text is not None for edit in self.transcriptions)
        parts = [_count(written, "transcription"),
                 _count(len(self.transcriptions) - written, "removed transcription"),
                 _count(len(self.task_completion), "task completion")]
        parts = [part for part in parts if part]
        return " and ".join(parts) if len(parts) < 3 else f"{parts[0]}, {parts[1]} and {parts[2]}"


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
        return f"{self.edits.describe()} from {self.written.astimezone():%Y-%m-%d %H:%M}"

    @property
    def warning(self) -> str | None:
        if self.matches_file:
            return None
        text = "the log was changed on disk after these edits were made; restoring sets them on top of the changed file"
        if self.conflicts:
            text += f" ({_count(self.conflicts, 'annotation')} also changed there would be overwritten)"
        return text


class RecoveryJournal:
    """The journal of one open log (see the module's docstring)."""

    def __init__(self, doc: LogDocument, folder: Path | None = None):
        self.folder = folder if folder is not None else journal_dir()
        self._touched: set[tuple[int, int | None]] | None = None  # None: not watching, compare everything
        self._rebase(doc)

    def watch(self, doc: LogDocument) -> None:
        """Follow DOC's annotation changes so that record() compares only the touched turns and
        sessions with the file (a full comparison takes 0.2 s on a 100 MB log, on the GUI thread)."""
        self._touched = set()
        doc.add_listener(self._note)

    def unwatch(self, doc: LogDocument) -> None:
        if self._touched is not None:
            doc.remove_listener(self._note)
            self._touched = None

    def _note(self, change: AnnotationChange) -> None:
        self._touched.add((change.session.index, None if change.turn is None else change.turn.index))

    @classmethod
    def for_document(cls, doc: LogDocument, folder: Path | None = None) -> RecoveryJournal:
        return cls(doc, folder)

    @property
    def file(self) -> Path:
        return self.folder / journal_name(self.log_path)

    def _rebase(self, doc: LogDocument) -> None:
        """Take the file as it is on disk (the document itself when it holds no unsaved edit) as the baseline."""
        self.log_path = doc.path.resolve()
        self.sha256 = doc.stamp.sha256
        self._baseline = _snapshot(doc.reload() if doc.is_modified else doc)
        self._recorded_revision: int | None = None

    def unsaved_edits(self, doc: LogDocument) -> AnnotationEdits:
        """The annotations of DOC that differ from its file."""
        if doc.path.resolve() != self.log_path or doc.stamp.sha256 != self.sha256:
            self.discard()  # saved, or saved elsewhere, since: that file holds the journalled edits
            self._rebase(doc)
        return _difference(self._baseline, _snapshot(doc, self._touched))

    def record(self, doc: LogDocument) -> bool:
        """Write DOC's unsaved edits to the journal (atomically, fsynced); remove it when there are none.

        True when a journal now exists. Cheap when nothing changed since the last call. Raises WriteError.
        """
        if self._recorded_revision == doc.revision and doc.path.resolve() == self.log_path \
                and doc.stamp.sha256 == self.sha256:
            return self.file.exists()
        edits = self.unsaved_edits(doc)
        if not edits:
            self.discard()
        else:
            self._write(edits)
        self._recorded_revision = doc.revision
        return bool(edits)

    def _write(self, edits: AnnotationEdits) -> None:
        content = {
            "format": _FORMAT,
            "log": str(self.log_path),
            "sha256": self.sha256,
            "written": datetime.now().astimezone().isoformat(timespec="seconds"),
            "transcriptions": [edit.__dict__ for edit in edits.transcriptions],
            "task_completion": [edit.__dict__ for edit in edits.task_completion],
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise WriteError(f"{self.folder}: cannot create the recovery journal folder: {error.strerror or error}") from None
        write_atomic(self.file, json.dumps(content, ensure_ascii=False, indent=1).encode("utf-8"))

    def pending(self) -> JournalEntry | None:
        """The unsaved work a previous session left for this log, or None.

        A journal that cannot be read is renamed *.unreadable (kept for a human,
        never offered again); one whose edits the file already holds is removed.
        """
        try:
            raw = self.file.read_bytes()
        except FileNotFoundError:
            return None
        except OSError:
            return None
        try:
            entry = _parse_entry(self.file, raw, self.sha256, self._baseline)
        except (ValueError, TypeError, KeyError, AttributeError):
            self._set_aside()
            return None
        if not _difference_from(self._baseline, entry.edits):
            self.discard()
            return None
        return entry

    def restore(self, doc: LogDocument) -> int:
        """Apply the pending edits to DOC, all or nothing; the number of values changed.

        Raises AnnotationFileError (DOC unchanged) when an edit names a turn or session DOC lacks.
        """
        entry = self.pending()
        if entry is None:
            return 0
        plan: list[tuple[Turn | Session, str | None]] = []
        missing: list[str] = []
        for edit in entry.edits.task_completion:
            session = _find_session(doc, edit.session, edit.session_id)
            if session is None:
                missing.append(f"session {edit.session_id}")
            else:
                plan.append((session, edit.value))
        for edit in entry.edits.transcriptions:
            turn = _find_turn(doc, edit)
            if turn is None:
                missing.append(f"{edit.session_id} turn {edit.turn_id}")
            else:
                plan.append((turn, edit.text))
        if missing:
            raise AnnotationFileError(f"{self.file}: the log has no {', '.join(missing[:5])}"
                                      f"{' and more' if len(missing) > 5 else ''}; nothing was restored")
        changed = 0
        for target, value in plan:
            if isinstance(target, Session):
                changed += set_task_completion(target, value)
            else:
                changed += set_transcription(target, value)
        return changed

    def discard(self) -> None:
        """Remove the journal (declined, or saved). Raises WriteError if it cannot be removed."""
        try:
            self.file.unlink(missing_ok=True)
        except OSError as error:
            raise WriteError(f"{self.file}: cannot remove the recovery journal: {error.strerror or error}") from None
        self._recorded_revision = None

    def _set_aside(self) -> None:
        try:
            os.replace(self.file, self.file.with_suffix(".unreadable"))
        except OSError:
            pass


def journal_name(log_path: Path) -> str:
    """'travel-001-hublog.xml-3f2a....json': readable, and unique per resolved path."""
    digest = hashlib.sha256(str(log_path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", log_path.name)[:60]
    return f"{readable}-{digest}.json"


# --- snapshots and differences ---------------------------------------------------------

@dataclass(frozen=True)
class _Snapshot:
    task_completion: dict[int, tuple[str, str | None]]  # session position -> (id, value)
    transcriptions: dict[tuple[int, int], tuple[str, str, str | None]]  # (session, turn) -> (ids, text)


def _snapshot(doc: LogDocument, only: set[tuple[int, int | None]] | None = None) -> _Snapshot:
    """The annotations of DOC; with ONLY, just those sessions ((s, None)) and turns ((s, t))."""
    task: dict[int, tuple[str, str | None]] = {}
    texts: dict[tuple[int, int], tuple[str, str, str | None]] = {}
    if only is not None:
        for s, t in only:
            session = doc.sessions[s]
            if t is None:
                task[s] = (session.id, session.task_completion)
            else:
                turn = session.turns[t]
                texts[(s, t)] = (session.id, turn.id, turn.transcription)
        return _Snapshot(task, texts)
    for s, session in enumerate(doc.sessions):
        task[s] = (session.id, session.task_completion)
        for t, turn in enumerate(session.turns):
            texts[(s, t)] = (session.id, turn.id, turn.transcription)
    return _Snapshot(task, texts)


def _difference(before: _Snapshot, after: _Snapshot) -> AnnotationEdits:
    tasks = tuple(TaskCompletionEdit(s, session_id, value, before.task_completion.get(s, (None, None))[1])
                  for s, (session_id, value) in after.task_completion.items()
                  if before.task_completion.get(s, (None, None))[1] != value)
    texts = tuple(TranscriptionEdit(s, session_id, t, turn_id, text, before.transcriptions.get((s, t), (0, 0, None))[2])
                  for (s, t), (session_id, turn_id, text) in after.transcriptions.items()
                  if before.transcriptions.get((s, t), (0, 0, None))[2] != text)
    return AnnotationEdits(texts, tasks)


def _difference_from(baseline: _Snapshot, edits: AnnotationEdits) -> int:
    """How many EDITS would change the file as BASELINE describes it."""
    tasks = sum(baseline.task_completion.get(e.session, (None, None))[1] != e.value for e in edits.task_completion)
    return tasks + sum(baseline.transcriptions.get((e.session, e.turn), (0, 0, None))[2] != e.text
                       for e in edits.transcriptions)


def _parse_entry(file: Path, raw: bytes, sha256: str, baseline: _Snapshot) -> JournalEntry:
    """Raises ValueError / TypeError / KeyError on anything but a journal this module wrote."""
    content = json.loads(raw.decode("utf-8"))
    if content["format"] != _FORMAT:
        raise ValueError("unknown journal format")
    texts = tuple(TranscriptionEdit(int(e["session"]), _text(e["session_id"]), int(e["turn"]), _text(e["turn_id"]),
                                    _optional(e["text"]), _optional(e["was"])) for e in content["transcriptions"])
    tasks = tuple(TaskCompletionEdit(int(e["session"]), _text(e["session_id"]), _optional(e["value"]),
                                     _optional(e["was"])) for e in content["task_completion"])
    edits = AnnotationEdits(texts, tasks)
    matches = _text(content["sha256"]) == sha256
    conflicts = 0
    if not matches:  # the file moved on: count edits whose file value is no longer what they were made against
        conflicts = sum(baseline.task_completion.get(e.session, (None, None))[1] not in (e.was, e.value) for e in tasks)
        conflicts += sum(baseline.transcriptions.get((e.session, e.turn), (0, 0, None))[2] not in (e.was, e.text)
                         for e in texts)
    written = datetime.fromisoformat(_text(content["written"]))
    return JournalEntry(file, _text(content["log"]), content["sha256"], written, edits, matches, conflicts)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("a string was expected")
    return value


def _optional(value: object) -> str | None:
    return None if value is None else _text(value)


def _find_session(doc: LogDocument, position: int, session_id: str) -> Session | None:
    """The session at POSITION if it has SESSION_ID, else the first with that id."""
    if 0 <= position < len(doc.sessions) and doc.sessions[position].id == session_id:
        return doc.sessions[position]
    return doc.session(session_id)


def _find_turn(doc: LogDocument, edit: TranscriptionEdit) -> Turn | None:
    session = _find_session(doc, edit.session, edit.session_id)
    if session is None:
        return None
    if 0 <= edit.turn < len(session.turns) and session.turns[edit.turn].id == edit.turn_id:
        return session.turns[edit.turn]
    return session.turn(edit.turn_id)


def _count(number: int, noun: str) -> str:
    return "" if not number else f"{number} {noun}{'' if number == 1 else 's'}"
