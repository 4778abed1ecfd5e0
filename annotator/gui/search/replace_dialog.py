"""The replace dialog: what to find and what replaces it, and a preview of every change (before ->
after, per turn) that the annotator can untick before applying. gui/search/replace_controller.py plans the
changes and applies the ticked ones."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.analysis.replace import PlannedChange
from annotator.analysis.search import Query
from annotator.log.text import shorten

CHANGE_ROLE = Qt.ItemDataRole.UserRole + 1
SHOWN_CHARS = 200  # of a before or an after: the columns fit their contents, and no text may widen the dialog
COLUMNS = ("File", "Session", "Turn", "Before", "After")
REMOVED = "(removed)"


class ReplaceDialog(QDialog):
    preview_requested = Signal()
    stop_requested = Signal()  # stop the preview being planned
    # The find field's name shadows QWidget.find (a widget by its window id, never asked of a dialog); the tests
    # type into the field by this name.
    find: QLineEdit  # type: ignore[assignment]

    def __init__(self, title: str, scope: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("replace_dialog")
        self.setWindowTitle(title)
        self.find = QLineEdit(self)
        self.find.setObjectName("replace_find")
        self.replacement = QLineEdit(self)
        self.replacement.setObjectName("replace_with")
        self.regex = QCheckBox("Regex (\\1 names a group in the replacement)", self)
        self.case = QCheckBox("Match case", self)
        preview = QPushButton("Preview", self)
        preview.setAutoDefault(False)
        self.stop = QPushButton("Stop", self)
        self.stop.setObjectName("replace_stop")
        self.stop.setAutoDefault(False)
        self.stop.setToolTip("Stop planning the preview")
        self.stop.hide()
        form = QFormLayout()
        form.addRow("Find in transcriptions:", self.find)
        form.addRow("Replace with:", self.replacement)
        toggles = QHBoxLayout()
        for widget in (self.regex, self.case):
            toggles.addWidget(widget)
        toggles.addStretch(1)
        toggles.addWidget(preview)
        toggles.addWidget(self.stop)
        self.changes = QTreeWidget(self)
        self.changes.setObjectName("replace_preview")
        self.changes.setHeaderLabels(list(COLUMNS))
        self.changes.setRootIsDecorated(False)
        self.changes.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.changes.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.summary = QLabel(self)
        self.summary.setObjectName("replace_summary")
        self.summary.setWordWrap(True)
        self.notes: list[str] = []  # logs the plan leaves alone, and why
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.apply = self.buttons.addButton("Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(scope, self))
        layout.addLayout(form)
        layout.addLayout(toggles)
        layout.addWidget(self.changes, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.resize(900, 480)
        preview.clicked.connect(self.preview_requested)
        self.stop.clicked.connect(self.stop_requested)
        self.find.returnPressed.connect(self.preview_requested)
        self.replacement.returnPressed.connect(self.preview_requested)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.changes.itemChanged.connect(lambda _item, _column: self._count())

    def query(self) -> Query:
        return Query(self.find.text(), regex=self.regex.isChecked(), case_sensitive=self.case.isChecked())

    def set_busy(self, text: str, stoppable: bool = False) -> None:
        self.stop.setVisible(stoppable)
        self.changes.clear()
        self.summary.setText(text)
        self.apply.setEnabled(False)

    def set_plan(self, changes: list[PlannedChange], names: dict[PlannedChange, str], notes: list[str]) -> None:
        """List CHANGES, ticked (NAMES: the file as shown), and below them NOTES (logs left alone, and why)."""
        self.stop.hide()
        self.changes.blockSignals(True)
        self.changes.clear()
        for change in changes:
            item = QTreeWidgetItem(
                [
                    names.get(change, change.file.name),
                    change.session_id,
                    change.turn_id,
                    shorten(change.before, SHOWN_CHARS),
                    REMOVED if change.after is None else shorten(change.after, SHOWN_CHARS),
                ]
            )
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Checked)
            item.setData(0, CHANGE_ROLE, change)
            item.setToolTip(3, shorten(change.before))
            item.setToolTip(4, shorten(change.after or REMOVED))
            self.changes.addTopLevelItem(item)
        self.changes.blockSignals(False)
        self.notes = notes
        self._count()

    def chosen(self) -> list[PlannedChange]:
        return [item.data(0, CHANGE_ROLE) for item in self._items() if item.checkState(0) == Qt.CheckState.Checked]

    def _items(self) -> list[QTreeWidgetItem]:
        count = self.changes.topLevelItemCount()
        return [item for row in range(count) if (item := self.changes.topLevelItem(row)) is not None]  # all are

    def _count(self) -> None:
        chosen = self.chosen()
        files = {change.file for change in chosen}
        text = (
            f"{len(chosen)} of {len(self._items())} change(s) ticked, in {len(files)} log(s)"
            if self._items()
            else "Nothing to replace"
        )
        self.summary.setText("\n".join([text, *self.notes]))
        self.apply.setEnabled(bool(chosen))
