"""How a declared pane becomes a dock of the window: the declaration (Pane, Spot, Follows), the docks built
from a table of them (dock_panes), and what they are once built (Docks). The table itself is gui/docks.py."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

Area = Qt.DockWidgetArea
View = TypeVar("View", bound=QWidget)


class Follows(enum.Flag):
    """What a pane's view is told of (panes/following.py connects it), by the method FOLLOWING_METHODS names."""

    NOTHING = 0
    TURN = enum.auto()  # show_turn(turn | None): the turn selected
    ANNOTATIONS = enum.auto()  # on_annotation_changed(change): every annotation change of the open log
    SESSION = enum.auto()  # show_session(session | None): the session shown


FOLLOWING_METHODS = {
    Follows.TURN: "show_turn",
    Follows.ANNOTATIONS: "on_annotation_changed",
    Follows.SESSION: "show_session",
}


@dataclass(frozen=True)
class Spot:
    """Where a dock goes: its AREA, and there, split from the dock named SPLIT_FROM (below it, or beside it
    with a horizontal ORIENTATION) or one more tab of the dock named TAB_OF."""

    area: Area
    tab_of: str | None = None
    split_from: str | None = None
    orientation: Qt.Orientation = Qt.Orientation.Vertical


@dataclass(frozen=True)
class PaneMaking:
    """What a pane's view is made with."""

    window: QMainWindow
    undo_stack: QUndoStack


@dataclass(frozen=True)
class Pane:
    """One dock: NAME (the dock's objectName is NAME_dock, and Docks answers to NAME), its TITLE (also its View
    menu entry), MAKE (its view), where it goes on a WIDE screen and on a NARROW one (None: as on a wide one),
    whether it is SHOWN at a first start (False: it shows when it has something to show, a corpus's sessions,
    a search's hits) and what it FOLLOWS."""

    name: str
    title: str
    make: Callable[[PaneMaking], QWidget]
    wide: Spot
    narrow: Spot | None = None
    shown: bool = True
    follows: Follows = Follows.NOTHING

    def spot(self, wide: bool) -> Spot:
        return self.wide if wide or self.narrow is None else self.narrow


class DockingWindow(Protocol):
    """What dock_panes needs of the window (gui/main_window.py's MainWindow)."""

    def add_dock(self, widget: QWidget, title: str, area: Area, name: str, on_demand: bool = False) -> QDockWidget: ...

    def splitDockWidget(self, after: QDockWidget, dock: QDockWidget, orientation: Qt.Orientation) -> None: ...

    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget) -> None: ...


class Docks:
    """The docks built from a table of panes, each by its pane's name: `docks.details` is the Details dock,
    `docks.view("details", DetailPanel)` what it holds."""

    def __init__(self, panes: Sequence[Pane], docks: dict[str, QDockWidget]):
        self.panes = tuple(panes)
        self._docks = docks

    def __getattr__(self, name: str) -> QDockWidget:
        try:
            return self.__dict__["_docks"][name]
        except KeyError:
            raise AttributeError(f"no pane is named {name!r}") from None

    def __iter__(self):
        return iter(self._docks.values())

    def view(self, name: str, kind: type[View]) -> View:
        """The view of the pane NAME, which is a KIND."""
        widget = self._docks[name].widget()
        if not isinstance(widget, kind):
            raise TypeError(f"the {name} pane holds a {type(widget).__name__}, not a {kind.__name__}")
        return widget

    def followers(self, what: Follows) -> list[Callable[..., None]]:
        """The methods (FOLLOWING_METHODS) by which the views of the panes that follow WHAT are told of it, in
        the table's order; a view without the method is an AttributeError naming it."""
        return [
            getattr(self._docks[pane.name].widget(), FOLLOWING_METHODS[what])
            for pane in self.panes
            if what in pane.follows
        ]

    def bring_forward(self, dock: QDockWidget) -> None:
        dock.show()
        dock.raise_()


def dock_panes(window: DockingWindow, panes: Sequence[Pane], making: PaneMaking, wide: bool) -> Docks:
    """Make every pane's view and dock it where its spot for this screen says; a pane not shown at start is
    hidden. Docks are added in the table's order (the View menu's), then split, then tabbed: a dock split from
    one already tabbed would become one more tab. A tab joins its group once the dock it names has joined
    its own, so a group's tabs are in the order of the chain that names them."""
    docks: dict[str, QDockWidget] = {}
    spots = {pane.name: pane.spot(wide) for pane in panes}
    for pane in panes:
        docks[pane.name] = window.add_dock(
            pane.make(making), pane.title, spots[pane.name].area, f"{pane.name}_dock", on_demand=not pane.shown
        )
    for pane in panes:
        spot = spots[pane.name]
        if spot.split_from is not None:
            window.splitDockWidget(docks[spot.split_from], docks[pane.name], spot.orientation)
    tabbed = {name for name, spot in spots.items() if spot.tab_of is None}
    waiting = [pane.name for pane in panes if pane.name not in tabbed]
    while waiting:
        ready = [name for name in waiting if spots[name].tab_of in tabbed]
        if not ready:
            raise ValueError(f"panes tabbed with a pane that is not in the table, or in a loop: {waiting}")
        for name in ready:
            window.tabifyDockWidget(docks[str(spots[name].tab_of)], docks[name])
            tabbed.add(name)
            waiting.remove(name)
    for name, spot in spots.items():
        if spot.tab_of is None:
            docks[name].raise_()  # the group's first tab is the one in front
    for pane in panes:
        if not pane.shown:
            docks[pane.name].hide()
    return Docks(panes, docks)
