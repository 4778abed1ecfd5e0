"""Unsaved annotation edits kept on disk until they are saved, so that a crash loses nothing.

    journal = RecoveryJournal(doc, instance=window_id)  # right after opening (or deferred_baseline=True, and
                                                     # read_baseline_in_steps() later: journal_baseline.py)
    journal.hold()                                   # this window edits the log: write its lock
    journal.others()                                 # other windows holding the log (live or unknown)
    found = journal.leftovers()                      # work of dead windows, now ours to offer
    journal.restore(doc, found.entries) / journal.drop(found.entries)
    journal.watch(doc); journal.start_writing(report) # each edit journalled within WRITE_DELAY (+ the write)
    journal.set_typing(turn, text)                   # text typed but not yet stored counts too (kind=CONCEPTS:
                                                     # a concept cell's, as the compact concepts it would store)
    journal.flush()                                  # write now (before a reload, close or replacement)
    journal.saved(doc)                               # after every successful save
    journal.close()                                  # the window lets go of the log

Every window (an instance) has its own journal per log and its own lock file
beside it, in DATA/journals (DATA: $ANNOTATOR_DATA_DIR, else platformdirs'
user data folder): NAME-HASH.INSTANCE.json and NAME-HASH.INSTANCE.lock, NAME-HASH
naming the log by its resolved path. So two windows never share a file, a
window never offers another live window's work, and the work of a window that
died (its lock is stale, see annotator.journal.instance_lock) is claimed by exactly
one later window, by renaming it to NAME-HASH.INSTANCE.from-XXXX.json, and
offered once. Writes are atomic and fsynced; what a journal holds, and how it is
read back, is annotator.journal.entries.

A journal made against other bytes than the file now holds (the log was changed
on disk after the crash, or reloaded) is still offered, never dropped silently:
its entry has matches_file False and a warning saying how many edits the other
program also changed. A restore sets every journalled value, or none.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from annotator.errors import WriteError
from annotator.input_files import read_input_bytes
from annotator.journal import instance_lock
from annotator.journal.baseline import JournalBaseline
from annotator.journal.entries import (
    AnnotationEdits,
    JournalEntry,
    UnreadableJournal,
    encode_journal,
    parse_journal,
)
from annotator.journal.files import journal_dir, journal_stem, new_instance, others_holding, owner_of
from annotator.journal.values import (
    Key,
    RestoredValue,
    Value,
    annotation_values,
    apply_entries,
    change_key,
    changed_since,
    difference,
    stored_value,
    typing_key,
    with_typing,
    would_change,
)
from annotator.journal.writer import BackgroundWriter
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Turn
from annotator.log.gc_pause import kept_out_of_collection
from annotator.reading.disk_changes import remove_stale_temp_files, write_locked

WRITE_DELAY_SECONDS = 1.0  # + the write itself: well within the promised 2 s


@dataclass
class Leftovers:
    """Work of windows that died, claimed by this one: offer it, then restore() or drop() it."""

    entries: list[JournalEntry] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)  # one line per journal that could not be read


class RecoveryJournal:
    """The journal of one window on one log (see the module's docstring)."""

    def __init__(
        self, doc: LogDocument, folder: Path | None = None, instance: str | None = None, deferred_baseline: bool = False
    ):
        self.folder = folder if folder is not None else journal_dir()
        self.instance = instance or new_instance()
        self._lock = threading.Lock()  # guards what the writer thread reads: baseline, changes, typing
        self._changes: dict[Key, Value] | None = None  # None: not watching, compare the whole document
        self._typing: tuple[Key, Value] | None = None
        self._typing_turn: tuple[Turn, str | None] | None = None  # and its kind; read on the GUI thread only
        self._writer: BackgroundWriter[AnnotationEdits] | None = None
        self._rebase(doc, deferred_baseline)

    @property
    def stem(self) -> str:
        return journal_stem(self.log_path)

    @property
    def file(self) -> Path:
        return self.folder / f"{self.stem}.{self.instance}.json"

    @property
    def lock_file(self) -> Path:
        return self.folder / f"{self.stem}.{self.instance}.lock"

    def _rebase(self, doc: LogDocument, deferred: bool = False) -> None:
        """Take the file as it is on disk (the document itself when it holds no unsaved edit) as the baseline."""
        self.log_path = doc.path.resolve()
        self.sha256 = doc.stamp.sha256
        self.baseline = JournalBaseline(doc.reload() if doc.is_modified else doc, deferred and not doc.is_modified)
        if self._changes is not None:
            self._changes = {}

    def read_baseline_in_steps(self) -> Iterator[None]:
        """Read a deferred baseline a few turns a step, on the thread that edits the document.

        The reading makes every turn's facts (on a log of many sessions, most of them for the first time): kept
        out of the collector's walks from the first step on (a collection between two steps walked them, young:
        160 ms at 100 MB). A reading abandoned half way (the generator closed) ends the pause too."""
        baseline = self.baseline
        if baseline.ready:
            return
        with kept_out_of_collection():
            for read in baseline.steps():
                if read is not None:
                    with self._lock:
                        baseline.take(read)
                yield

    def _file_values(self) -> dict[Key, Value]:
        with self._lock:
            return self.baseline.read_now()

    # --- who else has the log open ------------------------------------------------------
    def hold(self) -> None:
        """Write this window's lock: the log is open here for editing. Raises WriteError."""
        self._make_folder()
        instance_lock.write_lock(self.lock_file, instance_lock.InstanceLock.of_this_process())

    def others(self) -> dict[str, instance_lock.InstanceLock]:
        """The other windows holding this log whose owner runs (LIVE) or cannot be checked (UNKNOWN)."""
        return others_holding(self.log_path, self.instance, self.folder)

    # --- leftovers of windows that died ---------------------------------------------------
    def leftovers(self, taken_over: AbstractSet[str] = frozenset()) -> Leftovers:
        """Claim and read the journals of this log no live window owns (owners in TAKEN_OVER count
        as dead: the annotator said so), and this window's own from a document it replaced."""
        alive = set(self.others()) - set(taken_over)
        found = Leftovers()
        for path in sorted(self.folder.glob(f"{self.stem}.*.json")) + [self.folder / f"{self.stem}.json"]:
            owner = owner_of(self.stem, path)
            if owner in alive or not path.exists():
                continue
            claimed: Path | None = path
            if owner != self.instance or path == self.file:  # a dead window's, or this one's from a replaced document
                claimed = self._claim(path)  # (else claimed by this window before: read where it is)
            if claimed is not None:
                self._read_leftover(claimed, found)
        for lock in self.folder.glob(f"{self.stem}.*.lock"):
            owner = owner_of(self.stem, lock)
            if owner not in alive | {self.instance}:
                remove_stale_temp_files(self.folder / f"{self.stem}.{owner}.json")  # of writes it was killed in
                _forget(lock)  # a dead window's
        found.entries.sort(key=lambda entry: entry.written)
        return found

    def _claim(self, path: Path) -> Path | None:
        """Rename PATH to one of ours (atomic: of two windows claiming it one wins); None if gone."""
        claimed = self.folder / f"{self.stem}.{self.instance}.from-{new_instance()}.json"
        try:
            os.rename(path, claimed)
        except FileNotFoundError:
            return None
        except OSError:
            return path  # a read-only folder: offer it where it is
        return claimed

    def _read_leftover(self, path: Path, found: Leftovers) -> None:
        try:
            raw = read_input_bytes(path)  # a FIFO named like a journal would block the window's start
        except OSError:
            return
        try:
            entry = self.entry_of(path, *parse_journal(raw))
        except UnreadableJournal as error:
            kept = path.with_suffix(".unreadable")
            try:
                os.replace(path, kept)
            except OSError:
                kept = path
            found.set_aside.append(
                f"The recovery journal {kept.name} could not be read ({error}); "
                f"it is kept in {self.folder} and nothing was restored from it."
            )
            return
        if not would_change(self._file_values(), entry.edits):
            _forget(path)  # the file already holds it (killed between a save and the cleanup)
            return
        found.entries.append(entry)

    def entry_of(
        self, path: Path, log_path: str, sha256: str, written: datetime, edits: AnnotationEdits
    ) -> JournalEntry:
        """EDITS made against the file whose hash is SHA256 (a journal's, or edits a window kept in memory), to offer
        here; when the file moved on, counting the edits whose file value is no longer what they were made against."""
        matches = sha256 == self.sha256
        conflicts = 0 if matches else changed_since(self._file_values(), edits)
        return JournalEntry(path, log_path, sha256, written, edits, matches, conflicts)

    def restore(self, doc: LogDocument, entries: list[JournalEntry]) -> list[RestoredValue]:
        """Apply ENTRIES to DOC (oldest first), all or nothing; the values changed (to undo them as one).

        Raises AnnotationFileError (DOC unchanged) when an edit names a turn or session DOC lacks.
        """
        where = entries[0].file if len(entries) == 1 else self.folder
        return apply_entries(doc, entries, where)

    def drop(self, entries: list[JournalEntry]) -> None:
        """Remove the claimed journals of ENTRIES (restored and journalled again, or declined). Raises WriteError."""
        for entry in entries:
            _remove(entry.file)

    # --- this window's own journal --------------------------------------------------------
    def watch(self, doc: LogDocument) -> None:
        """Note DOC's annotation changes as they happen, so that a write copies only what was touched."""
        with self._lock:
            self._changes = {}
        doc.add_listener(self._note)

    def unwatch(self, doc: LogDocument) -> None:
        if self._changes is not None:
            doc.remove_listener(self._note)

    def _note(self, change: AnnotationChange) -> None:
        turn = change.turn
        key = change_key(change)
        with self._lock:
            assert self._changes is not None, "a change is heard only while watching"
            self._changes[key] = (change.session.id, None if turn is None else turn.id, change.new)
            self.baseline.changed(key, (change.session.id, None if turn is None else turn.id, change.old))
        if self._writer is not None:
            self._writer.changed()

    def set_typing(self, turn: Turn | None, text: str | None = None, kind: str | None = None) -> None:
        """TEXT is typed for TURN and not yet stored (TURN None: no such typing); it is journalled as TURN's value
        of KIND (values.typing_key: None the transcription, CONCEPTS the reference concepts in compact form).

        Typing ends by being stored or by going back to the stored text; either way the turn's value
        in the document is then right, and it is taken at once: the change the store announces may
        reach this journal only after the editor has said that its typing ended.
        """
        typing = None if turn is None else (typing_key(turn, kind), (turn.session.id, turn.id, text))
        with self._lock:
            if typing == self._typing:
                return
            self.baseline.typing_in(turn, kind)
            ended = self._typing_turn
            if ended is not None and (ended[0] is not turn or ended[1] != kind) and self._changes is not None:
                self._changes[typing_key(*ended)] = stored_value(*ended)
            self._typing, self._typing_turn = typing, None if turn is None else (turn, kind)
        if self._writer is not None:
            self._writer.changed()

    def start_writing(self, report: Callable[[Exception | None], None], delay: float = WRITE_DELAY_SECONDS) -> None:
        """Journal each change on a thread of its own within DELAY (annotator.journal.writer)."""
        self._writer = BackgroundWriter(self._take, self._write_or_remove, report, delay)

    def flush(self) -> None:
        """Write the unsaved edits of the watched document now, on this thread. Raises WriteError."""
        if self._writer is not None:
            self._writer.flush()
        else:
            self._write_or_remove(self._take())

    def record(self, doc: LogDocument) -> bool:
        """Write DOC's unsaved edits now (atomically, fsynced); remove the journal when there are none.

        True when a journal now exists. Raises WriteError.
        """
        if doc.path.resolve() != self.log_path or doc.stamp.sha256 != self.sha256:
            self.saved(doc)  # saved, or saved elsewhere, since: that file holds the journalled edits
        edits = self.unsaved_edits(doc)
        self._write_or_remove(edits)
        return bool(edits)

    def unsaved_edits(self, doc: LogDocument) -> AnnotationEdits:
        """The annotations of DOC (with the typing not yet stored) that differ from its file."""
        if self._changes is None:
            return difference(self._file_values(), annotation_values(doc))
        with self._lock:
            return self._edits_locked()

    def saved(self, doc: LogDocument) -> None:
        """DOC was saved (in place or elsewhere): its file holds the edits; the journal goes, the file is
        the baseline. After a save as, the lock moves to the new file. Raises WriteError."""
        held = self.lock_file if self.lock_file.exists() else None
        with self._paused():
            _remove(self.file)
            with self._lock:
                self._rebase(doc)
        if held is not None and held != self.lock_file:
            _forget(held)
            self.hold()

    def discard(self) -> None:
        """Remove this window's journal and forget its edits (the annotator declined them). Raises WriteError."""
        with self._paused():
            with self._lock:
                if self._changes is not None:
                    self._changes = {}
                self._typing = self._typing_turn = None
            _remove(self.file)

    def close(self, release: bool = True) -> None:
        """No more writes; with RELEASE, remove the lock (the journal stays if it holds unsaved work)."""
        if self._writer is not None:
            self._writer.stop()
        if release:
            _forget(self.lock_file)

    def _paused(self) -> AbstractContextManager[None]:
        return self._writer.paused() if self._writer is not None else nullcontext()

    def _take(self) -> AnnotationEdits:
        """The unsaved edits, for the writer (on its thread, or on the caller's for a flush)."""
        with self._lock:
            return self._edits_locked()

    def _edits_locked(self) -> AnnotationEdits:
        values = dict(self._changes or {})
        if self._typing is not None:
            values[self._typing[0]] = self._typing[1]
        return with_typing(difference(self.baseline.known(), values), self._typing[0] if self._typing else None)

    def _write_or_remove(self, edits: AnnotationEdits) -> None:
        if not edits:
            _remove(self.file)
            return
        self._make_folder()
        write_locked(
            self.file, encode_journal(self.log_path, self.sha256, edits)
        )  # a kill leaves a .tmp: see leftovers

    def _make_folder(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise WriteError(
                f"{self.folder}: cannot create the recovery journal folder: {error.strerror or error}"
            ) from None


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        raise WriteError(f"{path}: cannot remove the recovery journal: {error.strerror or error}") from None


def _forget(path: Path) -> None:
    """Remove PATH if possible: what is left is harmless (a dead window's lock, a journal the file holds)."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass
