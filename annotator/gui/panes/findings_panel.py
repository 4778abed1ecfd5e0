"""The findings panel: what validation found in the open log, one row per finding.

set_findings() shows a list of annotator.analysis.validation.Finding. Clicking a
row or pressing Enter on it emits finding_activated(finding), so the window
can select the element the finding is about. DTD quirks are hidden unless
"Show DTD quirks" is ticked, and greyed when shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.analysis.validation import Finding, Severity
from annotator.gui.panes.findings import Column, FindingsFilter, FindingsModel, count_text
from annotator.gui.widgets.list_tables import set_up_list_table
from annotator.gui.widgets.roles import FINDING_ROLE


class FindingsPanel(QWidget):
    finding_activated = Signal(object)  # the Finding; its .element is what it is about (None: the whole file)
    show_quirks_changed = Signal(bool)  # for the window to remember the choice

    def __init__(self, parent: QWidget | None = None, show_quirks: bool = False):
        super().__init__(parent)
        self.setObjectName("findings_panel")
        self.model = FindingsModel(self)
        self.proxy = FindingsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.set_show_quirks(show_quirks)
        self._build(show_quirks)
        self.table.clicked.connect(self._on_activated)
        self.table.activated.connect(self._on_activated)
        self.quirks_box.toggled.connect(self.set_show_quirks)
        self._update_summary()

    def _build(self, show_quirks: bool) -> None:
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("findings_summary")
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self.summary_label.setWordWrap(True)  # a long count wraps in a narrow dock instead of widening the window
        self.quirks_box = QCheckBox("Show DTD quirks", self)
        self.quirks_box.setChecked(show_quirks)
        self.quirks_box.setToolTip(
            "Places where the log breaks the standard's DTD only where that DTD "
            "contradicts the standard's own text; harmless"
        )
        self.table = QTableView(self)
        self.table.setObjectName("findings_table")
        self.table.setModel(self.proxy)
        set_up_list_table(self.table)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the validator's order (by line) until asked
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        metrics = self.table.fontMetrics()
        header.resizeSection(Column.SEVERITY, metrics.horizontalAdvance("DTD quirk") + 48)
        header.resizeSection(Column.LINE, metrics.horizontalAdvance("Line 00000") + 12)

        top = QHBoxLayout()
        top.addWidget(self.summary_label, 1)
        top.addWidget(self.quirks_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

    # --- what the window calls ----------------------------------------------
    def set_findings(self, findings: Iterable[Finding]) -> None:
        self.model.set_findings(findings)
        self._update_summary()

    @property
    def findings(self) -> list[Finding]:
        return self.model.findings

    @property
    def show_quirks(self) -> bool:
        return self.proxy.show_quirks

    def set_show_quirks(self, show: bool) -> None:
        if show == self.proxy.show_quirks:
            return
        self.proxy.set_show_quirks(show)
        self.quirks_box.blockSignals(True)
        self.quirks_box.setChecked(show)
        self.quirks_box.blockSignals(False)
        self._update_summary()
        self.show_quirks_changed.emit(show)

    def current_finding(self) -> Finding | None:
        return self.table.currentIndex().data(FINDING_ROLE)

    def step(self, step: int) -> bool:
        """Make the next (+1) or previous (-1) listed finding current and activate it; False at the end."""
        current = self.table.currentIndex()
        row = current.row() + step if current.isValid() else (0 if step > 0 else self.proxy.rowCount() - 1)
        if not 0 <= row < self.proxy.rowCount():
            return False
        index = self.proxy.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        self._on_activated(index)
        return True

    # --- internals -----------------------------------------------------------
    def _on_activated(self, index: QModelIndex) -> None:
        finding = index.data(FINDING_ROLE)
        if finding is not None:
            self.finding_activated.emit(finding)

    def _update_summary(self) -> None:
        findings = self.model.findings
        quirks = sum(finding.count for finding in findings if finding.severity is Severity.QUIRK)
        text = count_text(findings, with_quirks=self.show_quirks) or "No problems found"
        if quirks and not self.show_quirks:
            text += f" ({quirks} DTD quirk{'s' if quirks != 1 else ''} hidden)"
        self.summary_label.setText(text)
