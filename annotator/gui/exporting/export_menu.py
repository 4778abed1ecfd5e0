"""File > Export to: every format of annotator.export.formats, run off the GUI thread with a
progress dialog; File > Export CSV (Ctrl+E) is its CSV entry. It exports the open corpus when there
is one, else the open log, as saved. As on the command line, the output guard refuses to write over
an input log or a human-annotation file; here the annotator is asked whether to write anyway."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QProgressDialog

from annotator.errors import AnnotatorError
from annotator.export.formats import EXPORT_FORMATS, ExportFormat, progress_from_callback
from annotator.gui.main_window import MainWindow
from annotator.gui.message_box import Button, Icon, ask
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.outputs.guard import OutputGuard, OutputRefusedError


class ExportCancelled(AnnotatorError):
    """The user cancelled an export; nothing was replaced (every writer is atomic)."""


class ExportMenu(QObject):
    def __init__(
        self, window: MainWindow, controller: DocumentController, corpus_of, menu: QMenu, before: QAction
    ) -> None:
        """Export &to, a submenu of MENU (File) placed before the action BEFORE (Close)."""
        super().__init__(window)
        self.window, self.controller = window, controller
        self._corpus_of = corpus_of  # () -> Path | None: the corpus folder open in the browser
        self.task: BackgroundTask | None = None
        self.progress: QProgressDialog | None = None
        submenu = menu.addMenu("Export &to")
        menu.insertMenu(before, submenu)
        for fmt in EXPORT_FORMATS.values():
            action = submenu.addAction(fmt.title)
            action.setObjectName(f"action_export_{fmt.name}")
            action.triggered.connect(lambda _checked=False, f=fmt: self.export_with_dialog(f))

    def export_csv(self) -> bool:
        """Ctrl+E: the CSV tables, as File > Export to > CSV."""
        return self.export_with_dialog(EXPORT_FORMATS["csv"])

    def sources(self) -> list[Path]:
        corpus = self._corpus_of()
        document = self.controller.document
        return [corpus] if corpus is not None else ([document.path] if document is not None else [])

    def export_with_dialog(self, fmt: ExportFormat) -> bool:
        controller = self.controller
        controller.flush_pending_edits()
        if controller.has_unsaved_work and not controller.save_before_export():
            return False
        output = self._ask_output(fmt)
        return self.export(fmt, output) if output is not None else False

    def _ask_output(self, fmt: ExportFormat) -> Path | None:
        document = self.controller.document
        start = str(document.folder) if document is not None else ""
        if fmt.output_is_folder:
            chosen = QFileDialog.getExistingDirectory(self.window, f"Export to {fmt.title}: choose a folder", start)
        else:
            chosen, _ = QFileDialog.getSaveFileName(
                self.window, f"Export to {fmt.title}", str(Path(start) / f"export{fmt.file_suffix}")
            )
        return Path(chosen) if chosen else None

    def export(self, fmt: ExportFormat, output: Path, force: bool = False) -> bool:
        """Export the sources to OUTPUT in the background; the result lands in the status bar. Unless
        FORCE, an output the guard refuses is written only once the annotator agrees."""
        sources = self.sources()
        if not sources:
            return False
        guard = OutputGuard(logs=sources, force=force)
        self.progress = QProgressDialog(f"Exporting to {fmt.title}…", "Cancel", 0, 0, self.window)
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(300)
        task = BackgroundTask(lambda context: _run(fmt, sources, output, guard, context), self)
        task.progressed.connect(self._progressed)
        task.succeeded.connect(lambda result: self._succeeded(fmt, output, result))
        task.failed.connect(lambda text: self._finished(f"Export failed: {text}"))
        self.progress.canceled.connect(task.cancel)
        self.task = task
        task.start()
        return True

    def _progressed(self, done: int, total: int, _label: str) -> None:
        if self.progress is not None:
            self.progress.setMaximum(total)
            self.progress.setValue(done)

    def _succeeded(self, fmt: ExportFormat, output: Path, result) -> None:
        if not isinstance(result, OutputRefusedError):
            self._finished(str(result).splitlines()[0])
            return
        self._finished(str(result))
        answer = ask(
            self.window,
            Icon.Warning,
            f"Export to {fmt.title}",
            f"{result}\n\nWrite anyway?",
            Button.Yes | Button.Cancel,
            default=Button.Cancel,
        )
        if answer == Button.Yes:
            self.export(fmt, output, force=True)

    def _finished(self, text: str) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.deleteLater()
            self.progress = None
        self.window.statusBar().showMessage(text, 12000)


def _run(fmt: ExportFormat, sources: list[Path], output: Path, guard: OutputGuard, context: TaskContext):
    """The export's report, or the guard's refusal (nothing was written) for the annotator to answer."""

    def report(done: int, total: int) -> None:
        if context.cancelled():
            raise ExportCancelled("export cancelled; nothing was replaced")
        context.progress(done, total, "")

    try:
        if not fmt.output_is_folder:  # a folder is checked by the format, in the folder it writes
            guard.check_file(output)
        return fmt.run(sources, output, progress=progress_from_callback(report), guard=guard)
    except OutputRefusedError as refusal:
        return refusal
