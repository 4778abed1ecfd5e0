"""The find bar over the turn table: the search text, regex and case toggles, and "k of n".

It only collects the query and shows where the search stands; gui/search/find_controller.py searches and
moves the selection. Enter steps to the next hit, Escape closes the bar.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from annotator.analysis.search import Query

SEARCHING_TEXT = "searching…"  # while a long session's turns are read on a worker
PLACEHOLDER = "Find in this session: transcription, recognizer, system, concepts"


class FindBar(QWidget):
    query_changed = Signal()  # the text or a toggle changed
    step_requested = Signal(int)  # +1 next hit, -1 previous
    close_requested = Signal()
    cancel_requested = Signal()  # stop a search running in the background

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("find_bar")
        self.text = QLineEdit(self)
        self.text.setObjectName("find_text")
        self.text.setPlaceholderText(PLACEHOLDER)
        self.text.setClearButtonEnabled(True)
        self.regex = QCheckBox("Regex", self)
        self.regex.setToolTip("The text is a Python regular expression")
        self.case = QCheckBox("Match case", self)
        self.case.setToolTip("Upper and lower case differ (they do not by default)")
        self.count = QLabel(self)
        self.count.setObjectName("find_count")
        self.count.setMinimumWidth(self.fontMetrics().horizontalAdvance("9999 of 9999"))
        self.cancel = QToolButton(self)
        self.cancel.setObjectName("find_cancel")
        self.cancel.setText("Cancel")
        self.cancel.setToolTip("Stop this search")
        self.cancel.hide()
        previous, following, close = (QToolButton(self) for _ in range(3))
        previous.setText("Previous")
        following.setText("Next")
        close.setText("✕")
        previous.setToolTip("The previous hit (Shift+F3)")
        following.setToolTip("The next hit (F3, or Enter in the find box)")
        close.setToolTip("Close the find bar (Escape)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(QLabel("Find:", self))
        layout.addWidget(self.text, 1)
        for widget in (self.regex, self.case, self.count, self.cancel, previous, following, close):
            layout.addWidget(widget)
        self.text.textChanged.connect(self.query_changed)
        self.regex.toggled.connect(self.query_changed)
        self.case.toggled.connect(self.query_changed)
        self.text.returnPressed.connect(lambda: self.step_requested.emit(+1))
        previous.clicked.connect(lambda: self.step_requested.emit(-1))
        following.clicked.connect(lambda: self.step_requested.emit(+1))
        close.clicked.connect(self.close_requested)
        self.cancel.clicked.connect(self.cancel_requested)

    def query(self) -> Query:
        return Query(self.text.text(), regex=self.regex.isChecked(), case_sensitive=self.case.isChecked())

    def show_count(self, at: int | None, total: int) -> None:
        """'k of n' (AT counts from 0; None before a hit is chosen), 'no hits', or nothing without a query."""
        self.count.setToolTip("")
        self.cancel.hide()
        if not self.text.text():
            self.count.setText("")
        elif total == 0:
            self.count.setText("no hits")
        else:
            self.count.setText(f"{at + 1} of {total}" if at is not None else f"{total} hit{'s' if total != 1 else ''}")

    def show_searching(self, cancellable: bool = False) -> None:
        """The search waits for the session's turns to be read (a long session, just shown), or, CANCELLABLE,
        runs in the background."""
        self.count.setToolTip("")
        self.count.setText(SEARCHING_TEXT)
        self.cancel.setVisible(cancellable)

    def show_error(self, message: str) -> None:
        self.cancel.hide()
        self.count.setText("bad pattern")
        self.count.setToolTip(message)

    def open(self) -> None:
        self.show()
        self.text.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.text.selectAll()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_requested.emit()
            return
        super().keyPressEvent(event)
