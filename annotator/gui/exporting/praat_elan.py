"""File > Fold annotations from… and File > Open this session in Praat: the window's side of
docs/praat-elan.md.

The fold reads a TextGrid or EAF (annotator.export.tier_fold), or any annotation file `annotator
fold` reads, against the open log, and applies what it finds as one undoable step: the same check
as the command (nothing changes when one interval does not fit) and the same values, through the
window's own undo commands. A fold that would replace work not yet saved asks first, naming each
turn (and session) whose unsaved value it replaces. Opening in Praat writes the shown session's TextGrid and WAV, as the
log is in the window (unsaved edits included), to a new temporary folder and starts Praat on them,
detached: closing the annotator leaves Praat open.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from annotator.annotation_files.fold_plan import plan_fold
from annotator.errors import AnnotatorError
from annotator.export.praat_elan import annotation_bytes, session_pair, unique_name
from annotator.export.tier_fold import read_annotations_for
from annotator.gui.annotating.undo_commands import SetConcepts, SetTaskCompletion, SetValue, TranscribeTurn
from annotator.gui.main_window import MainWindow
from annotator.gui.message_box import Button, Icon, ask
from annotator.gui.opening.document_controller import DocumentController
from annotator.journal.entries import AnnotationEdits
from annotator.log.elements import Session

# The first filter shows every file a fold takes: a TextGrid, an ELAN file, an annotations file (CSV, MITRE XML).
FILE_FILTER = (
    "Praat, ELAN or annotation files (*.TextGrid *.textgrid *.eaf *.csv *.xml);;"
    "Praat or ELAN (*.TextGrid *.textgrid *.eaf);;Annotation files (*.csv *.xml);;All files (*)"
)
NO_PRAAT = "Praat is not on the PATH (Debian: apt-get install praat)"


class PraatElan(QObject):
    def __init__(
        self,
        window: MainWindow,
        controller: DocumentController,
        navigator,
        open_in_praat: QAction,
        unsaved_edits: Callable[[], AnnotationEdits] = AnnotationEdits,
    ) -> None:
        super().__init__(window)
        self.window, self.controller, self.navigator = window, controller, navigator
        self.unsaved_edits = unsaved_edits  # the open log's values that differ from its file
        self.praat = shutil.which("praat")
        self.started: subprocess.Popen | None = None  # the last Praat started (it is not waited for)
        if self.praat is None:
            open_in_praat.setEnabled(False)
            open_in_praat.setStatusTip(NO_PRAAT)

    # --- folding ---------------------------------------------------------------------------------
    def fold_with_dialog(self) -> bool:
        if self.controller.document is None:
            self.window.show_status("Open a log to fold annotations into")
            return False
        start = str(self.controller.document.folder)
        chosen, _ = QFileDialog.getOpenFileName(self.window, "Fold annotations from", start, FILE_FILTER)
        return self.fold_file(Path(chosen)) if chosen else False

    def fold_file(self, path: Path) -> bool:
        """Fold PATH into the open log as one undoable step; False (and why, in the status bar) when
        it does not fit, changing nothing."""
        document = self.controller.document
        if document is None:
            return False
        self.controller.flush_pending_edits()
        try:
            plan = plan_fold([document], read_annotations_for(path, [document]))
        except AnnotatorError as error:
            self.window.show_status(f"Not folded: {' '.join(str(error).split())}")
            return False
        if plan.notes or plan.reviewed:
            self.window.show_status(
                f"Not folded: {path.name} holds flags, comments or reviews; fold it with `annotator fold`"
            )
            return False
        commands: list[SetValue[Any]] = [
            *(TranscribeTurn(turn, text) for turn, text in plan.transcriptions.items()),
            *(SetConcepts(turn, concepts, "Fold concepts") for turn, concepts in plan.concepts.items()),
            *(SetTaskCompletion(session, value) for session, value in plan.task_completion.items()),
        ]
        commands = [command for command in commands if command.changes_anything]
        if not commands:
            self.window.show_status(f"{path.name}: nothing that the log does not already say")
            return False
        stack = self.controller.undo_stack
        if stack.read_only:  # the stack says why; a macro begun here would stay behind, empty
            stack.refused.emit()
            return False
        replaced = replaced_work(commands, self.unsaved_edits())
        if replaced and not self._fold_over(path, replaced):
            self.window.show_status(f"Not folded: {path.name} would replace unsaved work in {', '.join(replaced)}")
            return False
        stack.beginMacro(f"Fold annotations from {path.name}")
        for command in commands:
            stack.push(command)
        stack.endMacro()
        over = f", replacing unsaved work in {', '.join(replaced)}" if replaced else ""
        self.window.show_status(f"Folded {len(commands)} annotation(s) from {path.name}{over}")
        return True

    def _fold_over(self, path: Path, replaced: list[str]) -> bool:
        """Whether the annotator folds PATH over the unsaved work it would replace (REPLACED names where)."""
        answer = ask(
            self.window,
            Icon.Warning,
            "Fold over unsaved work?",
            f"Folding {path.name} replaces what you have not saved in {', '.join(replaced)}.",
            Button.Yes | Button.Cancel,
            default=Button.Cancel,
            labels={Button.Yes: "&Fold"},
            informative="Fold replaces those values (Ctrl+Z then brings them back), Cancel changes nothing.",
        )
        return answer == Button.Yes

    # --- Praat -----------------------------------------------------------------------------------
    def open_in_praat(self) -> Path | None:
        """Write the shown session's TextGrid and WAV to a new temporary folder and open Praat on them;
        the TextGrid's path, or None (and why, in the status bar)."""
        session = self.navigator.session
        if self.praat is None or session is None:
            self.window.show_status(NO_PRAAT if self.praat is None else "Open a log to open a session in Praat")
            return None
        self.controller.flush_pending_edits()
        try:
            pair = session_pair(session, session.document.path.name)
        except AnnotatorError as error:  # a session whose times span days: no WAV of it
            self.window.show_status(f"Praat was not opened: {' '.join(str(error).split())}")
            return None
        folder = Path(tempfile.mkdtemp(prefix="annotator-praat-"))
        name = unique_name(pair.stem, set())
        wav, grid = folder / f"{name}.wav", folder / f"{name}.TextGrid"
        try:
            with open(wav, "wb") as stream:
                pair.audio.write(stream)
            grid.write_bytes(annotation_bytes("textgrid", pair, wav))
            self.started = subprocess.Popen(
                [self.praat, "--open", str(grid), str(wav)],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            self.window.show_status(f"Praat was not opened: {error.strerror or error}")
            return None
        said = f" ({len(pair.warnings)} clip(s) missing, silence there)" if pair.warnings else ""
        self.window.show_status(f"Opened session {session.id} in Praat from {folder}{said}")
        return grid


def replaced_work(commands: list[SetValue[Any]], unsaved: AnnotationEdits) -> list[str]:
    """Where COMMANDS (each changing something) would replace a value of UNSAVED: 'turn 4 (transcription)', in
    the order of the commands, the session named too when the log has more than one."""
    kinds: dict[tuple[str, str | None], set[str]] = {}
    for edit in unsaved.transcriptions:
        kinds.setdefault((edit.session_id, edit.turn_id), set()).add("transcription")
    for edit in unsaved.concepts:
        kinds.setdefault((edit.session_id, edit.turn_id), set()).add("concepts")
    for task in unsaved.task_completion:
        kinds.setdefault((task.session_id, None), set()).add("task completion")
    places = []
    for command in commands:
        if isinstance(command, SetTaskCompletion):
            session, turn_id, kind = command.session, None, "task completion"
        elif isinstance(command, (TranscribeTurn, SetConcepts)):
            session, turn_id = command.turn.session, command.turn.id
            kind = "concepts" if isinstance(command, SetConcepts) else "transcription"
        else:
            continue
        if kind in kinds.get((session.id, turn_id), ()):
            places.append(_place(session, turn_id, kind))
    return places


def _place(session: Session, turn_id: str | None, kind: str) -> str:
    where = f"session {session.id}" if turn_id is None else f"turn {turn_id}"
    if turn_id is not None and len(session.document.sessions) > 1:
        where += f" of session {session.id}"
    return f"{where} ({kind})"
