"""The Findings dock's source: each opened or saved log validated in a child process after the first paint,
its findings listed, F8 / Shift+F8 stepping through them, a finding's element selected on click."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from lxml import etree
from PySide6.QtCore import QObject, Signal

from annotator.analysis.validation import Finding, Severity, findings_with_paths_in_subprocess
from annotator.gui.actions import key_text, spec
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.panes.docking import Docks
from annotator.gui.panes.findings import count_text
from annotator.gui.panes.findings_panel import FindingsPanel
from annotator.gui.runtime.after_paint import AfterPaint
from annotator.gui.runtime.worker import BackgroundTask
from annotator.log.document import LogDocument
from annotator.log.elements import ElementView, view_of


class Validation(QObject):
    findings_shown = Signal()  # the open log's validation came back and is shown

    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        findings: FindingsPanel,
        docks: Docks,
        show_element: Callable[[ElementView, bool], None],
    ):
        super().__init__(window)
        self.window, self.navigator, self.controller = window, navigator, controller
        self.findings, self.docks, self.show_element = findings, docks, show_element
        self._validation: BackgroundTask | None = None
        self._validation_start: AfterPaint | None = None  # an opened log's validation, waiting for the first paint
        self._finding_paths: dict[int, str | None] = {}
        controller.document_opened.connect(self._document_opened)
        controller.document_closed.connect(lambda: findings.set_findings([]))
        controller.document_saved.connect(lambda _path: self._document_saved())
        findings.finding_activated.connect(self._finding_activated)

    def _document_opened(self, document: LogDocument) -> None:
        self.findings.set_findings([])
        if self._validation_start is not None:
            self._validation_start.cancel()
        opened = weakref.ref(document)  # a log replaced before the paint is not validated, nor kept alive
        self._validation_start = AfterPaint(self.navigator.table.viewport(), lambda: self._validate_opened(opened()))

    def _validate_opened(self, document: LogDocument | None) -> None:
        self._validation_start = None
        if document is not None and document is self.navigator.document:
            # Not before the open's last pass either (gui/opening/hand_over_passes.py): the timeline's first paint comes then.
            self.controller.after_hand_over.later("validation", lambda: self.validate(document))

    def validate(self, document: LogDocument) -> None:
        """Validate the file as saved in a worker (its own parse: the GUI's tree is never shared
        across threads); a finding keeps its element's path, resolved in the open tree on click."""
        self.findings.set_findings([])
        if self._validation is not None:
            self._validation.cancel()
        path, validated = document.path, weakref.ref(document)  # the task does not keep a closed log alive
        task = BackgroundTask(lambda _context: findings_with_paths_in_subprocess(path), self)
        task.succeeded.connect(lambda result: self._show_findings(validated(), result))
        task.failed.connect(lambda text: self.window.show_status(f"Validation failed: {text}"))
        self._validation = task
        task.start()

    def _document_saved(self) -> None:
        if self.navigator.document is not None:
            self.validate(self.navigator.document)

    def _show_findings(self, document: LogDocument | None, result: list[tuple[Finding, str | None]]) -> None:
        if document is None or document is not self.navigator.document:
            return
        self._finding_paths = {id(finding): path for finding, path in result}
        self.findings.set_findings([finding for finding, _ in result])
        counted = count_text(
            [finding for finding, _ in result if finding.severity in (Severity.ERROR, Severity.WARNING)]
        )
        if counted:
            key = key_text(spec("next_finding"))
            self.window.show_status(f"{document.path.name} has {counted}: see Findings ({key}: the next one)")
        self.findings_shown.emit()

    def _finding_activated(self, finding: Finding) -> None:
        document = self.navigator.document
        path = self._finding_paths.get(id(finding))
        if document is None or not path:
            return
        found = document.tree.xpath(path)
        element = found[0] if isinstance(found, list) and found else None
        if not isinstance(element, etree._Element):  # the finding's element is gone from the tree since
            return
        turn = document.turn_containing(element)
        if turn is not None:
            self.navigator.select_turn(turn)
        self.show_element(view_of(element, document.unit), False)

    def step_finding(self, step: int) -> None:
        """F8 / Shift+F8: the next or previous finding, its turn selected, the Findings tab in front."""
        if not self.findings.step(step):
            self.window.show_status(
                "No further finding that way" if self.findings.findings else "No findings in this log"
            )
            return
        self.docks.bring_forward(self.docks.findings)
