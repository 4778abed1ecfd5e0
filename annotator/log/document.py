"""A loaded log: its lxml tree (the single source of truth), its sessions, and saving.

Load with LogDocument.load(path). Read through the views in `sessions`;
change annotations only through annotator.log.annotations, which announce
each change to the listeners registered here (how every consumer hears a
change: docs/events.md). A document read for a moment is used in a `with`
block, which releases it at the end: it is freed then, not whenever the cycle
collector next walks (a command reading logs one after the other would
otherwise hold the last one's tree while it reads the next).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from annotator.errors import LogChangedOnDiskError, LogReadError
from annotator.log.elements import Session, Turn
from annotator.log.facts_cache import FactsCache
from annotator.log.times import detect_unit
from annotator.reading.disk_changes import changed_since, remove_stale_temp_files, write_locked
from annotator.reading.loading import FileStamp, ParsedLog, parse_log_file
from annotator.reading.lxml_types import source_line
from annotator.writes.atomic import refuse_unwritable
from annotator.writes.durable import Written
from annotator.writes.original_copy import keep_original as keep_original_copy
from annotator.writes.original_copy import original_copy_path
from annotator.writes.save_lock import holding_save_lock

_UNIT_SAMPLE = 200


@dataclass(frozen=True)
class AnnotationChange:
    """Announced after an annotation changed: which session/turn, what kind, old and new value."""

    session: Session
    turn: Turn | None
    # "transcription", "concepts" (old and new in their compact form), "task_completion", or the notes of
    # annotator.log.flags: "flags", "comment", "time_spent" (seconds as stored) and "reviewed" (the reviewer)
    kind: str
    old: str | None
    new: str | None


Listener = Callable[[AnnotationChange], None]


class LogDocument:
    def __init__(self, path: Path, parsed: ParsedLog):
        self.path = path
        self.parsed = parsed
        self.tree = parsed.tree
        self.root = self.tree.getroot()
        self.notes: list[str] = list(parsed.notes)  # non-fatal remarks from loading, shown as findings
        self.save_notices: tuple[str, ...] = ()  # what the last save has to tell (a file written in place...)
        self.kept_original: Path | None = None  # the NAME.orig.xml the last save made, if it made one
        self.facts_cache = FactsCache()  # the first listener: every other one reads facts already up to date
        self._listeners: list[Listener] = [self.facts_cache.on_change]
        self.revision = 0  # bumped by every annotation change: a key for caches, never an unsaved flag
        self._file_values: dict[tuple[int, int | None], str | None] = {}  # what the file holds where it differs
        self._stamped_path = path.resolve()  # the file doc.stamp describes (save-as moves doc.path away from it)
        self.sessions: list[Session] = []
        self._data_marks: dict[str, bool] = {}
        self._index_sessions()

    @classmethod
    def load(cls, path: str | Path) -> LogDocument:
        path = Path(path)
        return cls(path, parse_log_file(path))

    def data_carries(self, attribute: str) -> bool:
        """Whether any GC_DATA of the log carries ATTRIBUTE (type_error_msg, type_help_msg: whether the log marks
        such messages at all). Read once: the annotation writer never adds such attributes."""
        if attribute not in self._data_marks:
            self._data_marks[attribute] = any(el.get(attribute) is not None for el in self.root.iter("GC_DATA"))
        return self._data_marks[attribute]

    def __enter__(self) -> LogDocument:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.release()

    def release(self) -> None:
        """Drop the sessions, turns and facts of a document nobody shows any more. They refer to each
        other (a turn to its session, a session to its document), so without this only a walk of the
        cycle collector over all of them frees them; with it, reference counting does, at once."""
        for session in self.sessions:
            session.turns, session._turns_by_key = [], {}
        self.sessions = []
        self.facts_cache.clear()

    def _index_sessions(self) -> None:
        root = self.root
        if root.tag == "GC_LOG":
            elements = list(root.iterchildren("GC_SESSION"))
        elif root.tag == "GC_SESSION":
            elements = [root]
            note = "the root element is GC_SESSION without the enclosing GC_LOG; read as a log of one session"
            self.notes.append(note)
        else:
            raise LogReadError(
                self.path,
                f"not a Communicator log: the root element is <{root.tag}>, expected <GC_LOG>",
                source_line(root),
            )
        self.unit = detect_unit(sample_times(elements))
        self.sessions = [Session(el, self.unit, self, i) for i, el in enumerate(elements)]

    @property
    def folder(self) -> Path:
        """The real file's folder (symlinks followed): where its audio is looked up, before and after a save."""
        return self.path.resolve().parent

    @property
    def encoding(self) -> str:
        return self.parsed.encoding

    @property
    def stamp(self) -> FileStamp:
        return self.parsed.stamp

    @property
    def is_modified(self) -> bool:
        """True while an annotation differs from what the file holds: an edit undone, or set back by
        hand, is no modification. (The GUI's unsaved mark is its undo stack's clean state, which
        agrees: a stack back at its clean index holds the file's values.)"""
        return bool(self._file_values)

    def session(self, session_id: str) -> Session | None:
        for session in self.sessions:
            if session.id == session_id:
                return session
        return None

    def turn_containing(self, element: etree._Element) -> Turn | None:
        """The turn an element (an operation, a GC_DATA deep inside one, the GC_TURN itself) belongs to."""
        turn_el = element if element.tag == "GC_TURN" else next(element.iterancestors("GC_TURN"), None)
        if turn_el is None:
            return None
        for session in self.sessions:
            if session.el is turn_el.getparent():
                return next((turn for turn in session.turns if turn.el is turn_el), None)
        return None

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def announce(self, change: AnnotationChange) -> None:
        self.revision += 1
        where = (change.session.index, None if change.turn is None else change.turn.index)
        if self._file_values.setdefault(where, change.old) == change.new:
            del self._file_values[where]
        for listener in list(self._listeners):
            listener(change)

    def settle(self) -> None:
        """The annotations as they are now count as saved (team mode saves them to the annotator's own
        file, never to this log: annotator.team.work), so is_modified is False until the next change."""
        self._file_values.clear()

    def serialize(self) -> bytes:
        """The document as bytes (see ParsedLog.serialize)."""
        return self.parsed.serialize()

    def changed_on_disk(self) -> bool:
        """True when another program changed, replaced or removed the file since it was read or last saved."""
        return changed_since(self._stamped_path, self.stamp)

    def save(self, path: str | Path | None = None, *, overwrite: bool = False, keep_original: bool = False) -> Path:
        """Write atomically to PATH (default: where it was read) and remember the new file stamp.

        A symlink is saved through: its target gets the content (see annotator.writes.atomic); a
        file with other hard links is written in place, and save_notices says so. Saving over
        the file this document was read from raises LogChangedOnDiskError if another program
        changed it meanwhile, unless OVERWRITE; reload() is the other way out. Saves of one folder
        exclude each other from that check to the rename (annotator.writes.save_lock). Leftovers of
        saves killed half way are removed afterwards (see annotator.reading.disk_changes). With
        KEEP_ORIGINAL, a save over the file this document was read from first keeps that file
        as NAME.orig.xml when no such copy exists yet (see annotator.writes.original_copy).
        """
        target = Path(path) if path is not None else self.path
        with holding_save_lock(target):  # from the check to the rename: another save waits, then sees the change
            resolved = target.resolve()
            if not overwrite and resolved == self._stamped_path and self.changed_on_disk():
                raise LogChangedOnDiskError(target, removed=not target.exists())
            refuse_unwritable(target)  # before NAME.orig.xml is made for a save that cannot happen
            self.kept_original = None
            if keep_original and resolved == self.path.resolve():
                self.kept_original = keep_original_copy(self.path)
            written = write_locked(target, self.parsed.write_to)
        self.saved_as(written, over_own_file=resolved == self.path.resolve())
        return target

    def saved_as(self, written: Written, over_own_file: bool) -> None:
        """WRITTEN (a save's result) holds this document now; OVER_OWN_FILE: it is the file it was read from,
        so its annotations count as saved and its stamp is the new file's. Leftovers of saves killed half way
        beside it (and its NAME.orig.xml) go."""
        self.save_notices = written.notices
        if over_own_file:
            self._file_values.clear()
            self.parsed.stamp = FileStamp.of(written.path)
            self._stamped_path = written.path.resolve()
        remove_stale_temp_files(written.path)
        remove_stale_temp_files(original_copy_path(written.path))  # a copy written in a run killed before its rename

    def reload(self) -> LogDocument:
        """A fresh document read from this one's file as it is now; this one keeps its edits untouched."""
        return type(self).load(self.path)


def sample_times(sessions: list[etree._Element]) -> list[str | None]:
    values: list[str | None] = []
    for session in sessions[:_UNIT_SAMPLE]:
        values += [session.get("stime"), session.get("etime")]
        for turn in session.iterchildren("GC_TURN"):
            values.append(turn.get("stime"))
            if len(values) > _UNIT_SAMPLE:
                break
    return values
