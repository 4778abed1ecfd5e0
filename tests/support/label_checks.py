"""Whether the window's labels show all their text: the layout tests (tests/gui/appearance) and the window texts'
tests walk every label in view."""

from __future__ import annotations

from PySide6.QtGui import Qt, QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from annotator.gui.main_window import MainWindow


def shown(widget: QWidget) -> bool:
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def cut_labels(window: MainWindow) -> list[str]:
    """The labels in view that show less than their text: one line wider than the label, or wrapped lines
    taller than it; a label whose tooltip holds its whole text is not counted."""
    cut = []
    for label in window.findChildren(QLabel):
        if not shown(label) or not label.text():
            continue
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        if is_rich(label):
            document.setHtml(label.text())
        else:
            document.setPlainText(label.text())
        if says_it_all(label.toolTip(), document.toPlainText()):
            continue
        width, height = label.contentsRect().width(), label.contentsRect().height()
        if label.wordWrap():
            if label.heightForWidth(label.width()) > label.height() + 1:
                cut.append(f"{label.objectName() or label.text()!r}: wrapped, {label.height()} px high")
            continue
        needed = document.idealWidth() - 1
        if needed > width + label.indent() and needed > 0:
            cut.append(f"{label.text()!r}: {needed:.0f} px in {width} px")
        if document.size().height() - 2 > height:
            cut.append(f"{label.text()!r}: {document.size().height():.0f} px high in {height} px")
    return cut


def says_it_all(tooltip: str, text: str) -> bool:
    """TOOLTIP (plain or rich) holds every word of TEXT (a table's cells may be laid out in other words)."""
    if not tooltip:
        return False
    if Qt.mightBeRichText(tooltip):
        document = QTextDocument()
        document.setHtml(tooltip)
        tooltip = document.toPlainText()
    return words(text) <= words(tooltip)


def words(text: str) -> set[str]:
    return {word.strip(PUNCTUATION) for word in text.split()} - {""}


PUNCTUATION = ".,:;()[]…"


def is_rich(label: QLabel) -> bool:
    kind = label.textFormat()
    return kind == Qt.TextFormat.RichText or (kind == Qt.TextFormat.AutoText and Qt.mightBeRichText(label.text()))
