"""Every attribute and the GC_DATA tree (frames and lists included) of the selected turn or element."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from annotator.gui.plain_text import plain_tooltip
from annotator.gui.theme import theme_changes, theme_colour
from annotator.log.document import AnnotationChange
from annotator.log.elements import DataView, ElementView, Turn
from annotator.log.text import shorten


class DetailPanel(QTreeWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("detail_panel")
        self.setColumnCount(2)
        self.setHeaderLabels(["Element / attribute", "Value"])
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.header().setStretchLastSection(True)
        self.setColumnWidth(0, 190)
        self.setIndentation(14)
        self._bold = QFont(self.font())
        self._bold.setBold(True)
        self._element: ElementView | None = None
        theme_changes().changed.connect(self.restyle)

    @property
    def element(self) -> ElementView | None:
        return self._element

    def show_element(self, view: ElementView | None) -> None:
        """Show VIEW (a Turn, an operation, a GC_DATA...) with everything below it."""
        self._element = view
        self.setUpdatesEnabled(False)
        self.clear()
        if view is not None:
            top = self._add_element(self.invisibleRootItem(), view)
            top.setExpanded(True)
            for index in range(top.childCount()):
                child = top.child(index)
                child.setExpanded(child.childCount() <= 12)
        self.setUpdatesEnabled(True)

    def restyle(self) -> None:
        """The theme changed: the attribute names in its colour."""
        self.show_element(self._element)

    def show_turn(self, turn: Turn | None) -> None:
        self.show_element(turn)

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        """The turn shown got a new annotation: show it again with its GC_ANNOT."""
        if change.turn is not None and change.turn == self._element:
            self.show_turn(change.turn)

    def _add_element(self, parent: QTreeWidgetItem, view: ElementView) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [shorten(_title(view)), shorten(_summary(view))])
        item.setFont(0, self._bold)
        line = view.line
        item.setToolTip(0, f"{view.tag} at line {line}" if line else view.tag)
        if isinstance(view, DataView) and view.text:
            item.setToolTip(1, plain_tooltip(view.text))
        attribute_brush = QBrush(theme_colour("attribute_text"))
        for name, value in view.attributes.items():
            attribute = QTreeWidgetItem(item, [shorten(name), shorten(value)])
            attribute.setForeground(0, attribute_brush)
            attribute.setToolTip(1, plain_tooltip(value))
        for child in _children(view):
            self._add_element(item, child)
        return item


def _children(view: ElementView) -> list[ElementView]:
    if isinstance(view, Turn):
        return view.annotations + view.activities
    if isinstance(view, DataView):
        return view.children
    return view.data


def _title(view: ElementView) -> str:
    """Short enough for a narrow dock: the tag for elements, the key alone for GC_DATA (its tag in the tooltip)."""
    if isinstance(view, Turn):
        return f"{view.tag} {view.id}"
    if isinstance(view, DataView):
        return view.key or view.tag
    return view.tag or "element"


def _summary(view: ElementView) -> str:
    if isinstance(view, DataView):
        return view.text
    parts = [view.get(name) for name in ("name", "server", "etype") if view.get(name)]
    duration = getattr(view, "duration", None)
    if isinstance(duration, float):
        parts.append(f"{duration:.3f} s")
    return " · ".join(parts)
