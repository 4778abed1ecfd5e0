"""Every attribute and the GC_DATA tree (frames and lists included) of the selected turn or element."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from annotator.gui.theme import theme_changes, theme_colour
from annotator.gui.widgets.plain_text import plain_tooltip
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
        """Show VIEW (a Turn, an operation, a GC_DATA...) with everything below it, as a tree built afresh
        would show it: the rows already there are rewritten in place (a move between turns of the same shape
        changes a few texts, so only those rows repaint), the ones missing added, the rest removed."""
        self._element = view
        if view is None:
            self.clear()
            return
        top = self.topLevelItem(0) if self.topLevelItemCount() == 1 else None
        if top is None:
            self.clear()
            top = QTreeWidgetItem(self.invisibleRootItem())
        self._fill_element(top, view, depth=0)
        if self.currentIndex().isValid() or self.selectionModel().hasSelection():
            self.selectionModel().clear()
        self.scrollToTop()
        # The rows changed lay themselves out on a 0 ms timer, after the window has painted: laid out now,
        # the tree is painted once per move instead of twice.
        self.executeDelayedItemsLayout()

    def restyle(self) -> None:
        """The theme changed: the attribute names in its colour."""
        self.show_element(self._element)

    def show_turn(self, turn: Turn | None) -> None:
        self.show_element(turn)

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        """The turn shown got a new annotation: show it again with its GC_ANNOT."""
        if change.turn is not None and change.turn == self._element:
            self.show_turn(change.turn)

    def _fill_element(self, top: QTreeWidgetItem, view: ElementView, depth: int) -> None:
        """TOP shows VIEW: its title and summary in bold, then a row per attribute, then its children's rows.
        Open: the element itself, and below it each element of at most 12 rows; deeper ones closed.
        Walked with a stack of rows still to fill, not by recursion: a legal frame nests 2,048 deep."""
        attribute_brush = QBrush(theme_colour("attribute_text"))
        pending = [(top, view, depth)]
        while pending:
            item, view, depth = pending.pop()
            text = (
                view.text if isinstance(view, DataView) else None
            )  # cleaned once: a megabyte takes a tenth of a second
            _set_row(
                item,
                [shorten(_title(view)), shorten(text if text is not None else _summary(view))],
                [f"{view.tag} at line {view.line}" if view.line else view.tag, plain_tooltip(text) or None],
                self._bold,
                None,
            )
            row = 0
            for name, value in view.attributes.items():
                attribute = _child_row(item, row)
                _remove_children(attribute)
                _set_row(
                    attribute, [shorten(name), shorten(value)], [None, plain_tooltip(value)], None, attribute_brush
                )
                row += 1
            children = [
                (_child_row(item, row + number), child, depth + 1) for number, child in enumerate(_children(view))
            ]
            pending.extend(reversed(children))  # filled in document order
            row += len(children)
            while item.childCount() > row:
                item.takeChild(item.childCount() - 1)
            item.setExpanded(depth == 0 or (depth == 1 and item.childCount() <= 12))


def _child_row(parent: QTreeWidgetItem, row: int) -> QTreeWidgetItem:
    """The ROWth child of PARENT, made if PARENT has fewer rows."""
    child = parent.child(row) if row < parent.childCount() else None
    return child if child is not None else QTreeWidgetItem(parent)


def _remove_children(item: QTreeWidgetItem) -> None:
    """An element's row reused for an attribute: its rows gone, and closed, as a new row is."""
    if item.childCount():
        item.takeChildren()
    item.setExpanded(False)


def _set_row(
    item: QTreeWidgetItem, texts: list[str], tooltips: list[str | None], font: QFont | None, name_brush: QBrush | None
) -> None:
    """Each cell of ITEM as given (None: the default); Qt repaints only a cell whose value changed."""
    for column, (text, tooltip) in enumerate(zip(texts, tooltips)):
        item.setText(column, text)
        item.setData(column, Qt.ItemDataRole.ToolTipRole, tooltip)
    item.setData(0, Qt.ItemDataRole.FontRole, font)
    item.setData(0, Qt.ItemDataRole.ForegroundRole, name_brush)


def _children(view: ElementView) -> Sequence[ElementView]:
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
    """What an element other than a GC_DATA (shown by its text) is about."""
    parts = [value for name in ("name", "server", "etype") if (value := view.get(name))]
    duration = getattr(view, "duration", None)
    if isinstance(duration, float):
        parts.append(f"{duration:.3f} s")
    return " · ".join(parts)
