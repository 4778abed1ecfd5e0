"""The session's metrics (annotator.analysis.metrics), kept up to date as annotations change.

A value that cannot be computed is shown greyed with the reason; notes on
estimated values are their tooltips. The session is walked once when it is
shown; each change then moves only the changed turn's share of the sums
(annotator.analysis.metrics_live), and redrawing the rows is coalesced: a burst
of changes (an undo macro, a paste) redraws once the GUI is idle.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from annotator.analysis.metrics import SESSION_METRIC_COLUMNS, SessionMetrics
from annotator.analysis.metrics_live import LiveMetrics
from annotator.gui.theme import theme_changes, theme_colour
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session

PERCENT_COLUMNS = (
    "word_error_rate",
    "parse_success_rate",
    "concept_error_rate",
    "concept_accuracy",
    "concept_sentence_accuracy",
)
SECONDS_SUFFIX = "_s"
LABELS = {  # where the column name does not read well as words
    "word_error_rate": "Word error rate",
    "concept_sentence_accuracy": "Sentence concept accuracy",
    "time_to_completion": "Time to completion (s)",
    "response_latency": "Response latency (s)",
    "task_completion": "Task completion",
    "time_to_completion_kind": "Time to completion measured as",
    "n_turns": "Turns",
    "n_user_turns": "User turns",
    "n_system_turns": "System turns",
}
NOT_COMPUTABLE = "n/a"


class MetricsPanel(QTreeWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("metrics_panel")
        self.setColumnCount(2)
        self.setHeaderLabels(["Metric", "Value"])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self._live: LiveMetrics | None = None
        self._rows: dict[str, QTreeWidgetItem] = {}
        for name in SESSION_METRIC_COLUMNS:
            item = QTreeWidgetItem(self, [label(name), ""])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self._rows[name] = item
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        theme_changes().changed.connect(self.refresh)

    @property
    def metrics(self) -> SessionMetrics | None:
        return self._live.metrics if self._live is not None else None

    def set_session(self, session: Session | None, live: LiveMetrics | None = None) -> None:
        """Show SESSION's metrics; LIVE, if given, are its metrics already computed (off the GUI thread)."""
        self._live = None if session is None else live if live is not None else LiveMetrics(session)
        self.refresh()

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        if self._live is not None and self._live.on_change(change):
            self._refresh_timer.start()

    def refresh(self) -> None:
        """Show the metrics as they are now."""
        self._refresh_timer.stop()
        greyed = QBrush(theme_colour("greyed_text"))  # readable, yet clearly not a number
        italic = QFont(self.font())
        italic.setItalic(True)
        for name, item in self._rows.items():
            if self.metrics is None:
                item.setText(1, "")
                item.setToolTip(1, "")
                continue
            value = self.metrics.values.get(name)
            reason = self.metrics.reasons.get(name, "")
            item.setText(1, format_value(name, value))
            item.setToolTip(0, reason or name)
            item.setToolTip(1, reason or name)
            item.setForeground(1, greyed if value is None else QBrush())
            item.setFont(1, italic if value is None else self.font())


def label(name: str) -> str:
    if name in LABELS:
        return LABELS[name]
    if name.endswith(SECONDS_SUFFIX):
        return name[: -len(SECONDS_SUFFIX)].replace("_", " ").capitalize() + " (s)"
    return name.replace("_", " ").capitalize()


def format_value(name: str, value) -> str:
    if value is None:
        return NOT_COMPUTABLE
    if isinstance(value, float):
        if name in PERCENT_COLUMNS:
            return f"{value * 100:.1f} %"
        return f"{value:.3f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:.1f}"
    return str(value)
