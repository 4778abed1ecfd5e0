"""The main window's size and place: never larger than the available area of the screen it is on
(its frame included), on a first start and after restoring a geometry saved on another screen.

The docks are arranged for the screen's size class (see is_wide_screen): a layout saved on a
screen of the other class is not restored, since its dock sizes would not fit this one. Nor is a
layout saved by a window with other docks (an older version of the app): Qt would restore the docks
it knows and leave a new one wherever it was added, squeezed or floating; the window's own arrangement
is the better start.
"""

from __future__ import annotations

import struct
import zlib

from PySide6.QtCore import QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QTabBar, QWidget

from annotator.gui.settings import AppSettings

WIDE_SCREEN_WIDTH = 1600  # from this many pixels of available width the docks sit side by side
LARGEST_FIRST_SIZE = QSize(1920, 1200)  # a first start on a bigger screen opens this big, centred
MOST_TAB_GROUP_SHARE = 0.4  # a group of tabbed docks is widened to show its titles up to this share of the window
GEOMETRY_MAGIC, GEOMETRY_SCREEN_WIDTH = (
    0x1D9D0CB,
    46,
)  # QWidget.saveGeometry's format 3: its mark, where the screen width is


def available_area(widget: QWidget) -> QRect:
    """What the screen WIDGET is on leaves for windows (no panels, docks or menu bars of the desktop)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def is_wide_screen(widget: QWidget) -> bool:
    return available_area(widget).width() >= WIDE_SCREEN_WIDTH


def layout_version(window: QMainWindow) -> int:
    """QMainWindow.saveState's version: the size class and the names of the window's docks, so that a
    layout saved on a screen of the other class, or by a window with other docks, is not restored."""
    docks = sorted(dock.objectName() for dock in window.findChildren(QDockWidget))
    kind = "wide" if is_wide_screen(window) else "narrow"
    return zlib.crc32(" ".join([kind, *docks]).encode("utf-8")) & 0x7FFFFFFF


def frame_margins(window: QWidget) -> QMargins:
    """The window system's frame around WINDOW: none until it has framed the shown window (so
    fit_on_screen runs again once the window is shown)."""
    frame, inner = window.frameGeometry(), window.geometry()
    return QMargins(
        inner.left() - frame.left(),
        inner.top() - frame.top(),
        frame.right() - inner.right(),
        frame.bottom() - inner.bottom(),
    )


def room_for(window: QWidget) -> QRect:
    """Where WINDOW's inside may lie so that its frame stays on the available area."""
    return available_area(window).marginsRemoved(frame_margins(window))


def size_for_first_start(window: QWidget) -> None:
    """Fill the screen (maximized, the window system then fits the frame), up to LARGEST_FIRST_SIZE."""
    room = room_for(window)
    size = room.size().boundedTo(LARGEST_FIRST_SIZE)
    rect = QRect(QPoint(0, 0), size)
    rect.moveCenter(room.center())
    window.setGeometry(rect)
    if size == room.size():
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def fit_on_screen(window: QWidget, maximized_too: bool = False) -> None:
    """Shrink and move WINDOW, if need be, so that all of it (frame included) is on its screen; a maximized
    window is the window system's to place, unless MAXIMIZED_TOO (a pane's least size grew it past the screen)."""
    if not maximized_too and window.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
        return
    room = room_for(window)
    size = window.size().boundedTo(room.size())
    left = min(max(window.geometry().left(), room.left()), room.right() + 1 - size.width())
    top = min(max(window.geometry().top(), room.top()), room.bottom() + 1 - size.height())
    fitted = QRect(QPoint(left, top), size)
    if fitted != window.geometry():
        window.setGeometry(fitted)


class KeptOnScreen(QObject):
    """Watches a window that a pane's least size (a zoom, a dock shown) can grow past the screen: it is fitted back
    as soon as the panes allow, at its next layout. (An event filter, not an override of the window's event(): the
    window's deletion must not run inside a Python call.)"""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize)
            and isinstance(watched, QWidget)
            and watched.isVisible()
            and not room_for(watched).contains(watched.geometry())
        ):
            QTimer.singleShot(0, watched, lambda: fit_on_screen(watched, maximized_too=True))
        return False


def saved_screen(settings: AppSettings) -> QSize | None:
    """The size of the screen area the layout was saved on: as stored beside it, else (a layout saved by an older
    version) the screen width QWidget.saveGeometry writes in its format 3 (offset 46), the height unknown (0)."""
    width, _, height = settings.window_screen.partition("x")
    if width.isdigit() and height.isdigit():
        return QSize(int(width), int(height))
    data = settings.window_geometry.data()
    if len(data) >= GEOMETRY_SCREEN_WIDTH + 4 and struct.unpack(">IH", data[:6]) == (GEOMETRY_MAGIC, 3):
        return QSize(struct.unpack(">i", data[GEOMETRY_SCREEN_WIDTH : GEOMETRY_SCREEN_WIDTH + 4])[0], 0)
    return None


def restore_layout(window: QMainWindow, splitter: QSplitter, settings: AppSettings) -> None:
    """The geometry saved (fitted to this screen; the size of a first start when it was saved on a smaller screen);
    docks and splitter only if saved on a screen of this size class."""
    if not settings.window_geometry.isEmpty():
        window.restoreGeometry(settings.window_geometry)  # False, and nothing done, for a much bigger screen
        saved, here = saved_screen(settings), available_area(window).size()
        if saved is not None and (saved.width() < here.width() or 0 < saved.height() < here.height()):
            size_for_first_start(
                window
            )  # a window kept at a smaller screen's size would leave this one's margins empty
    fit_on_screen(window)
    state = settings.window_state
    if not state.isEmpty() and window.restoreState(state, layout_version(window)):
        if not settings.splitter_state.isEmpty():
            splitter.restoreState(settings.splitter_state)


def widen_cut_tab_groups(window: QMainWindow) -> None:
    """Widen each group of tabbed docks whose tab titles are cut ("De… Me…", a stored layout dragged narrow),
    up to MOST_TAB_GROUP_SHARE of the window: the titles are how the annotator finds a dock. Call once the
    window is laid out (shown)."""
    docks = {dock.windowTitle(): dock for dock in window.findChildren(QDockWidget)}
    for bar in window.findChildren(QTabBar):
        titled = [docks[bar.tabText(index)] for index in range(bar.count()) if bar.tabText(index) in docks]
        if not bar.isVisible() or not titled:
            continue  # a tab bar inside a pane, not a group of docks
        needed = sum(bar.tabSizeHint(index).width() for index in range(bar.count()))
        if bar.width() >= needed:
            continue
        widest = round(window.width() * MOST_TAB_GROUP_SHARE)
        target = min(titled[0].width() + needed - bar.width(), widest)
        if target > titled[0].width():
            window.resizeDocks([titled[0]], [target], Qt.Orientation.Horizontal)


def save_layout(window: QMainWindow, splitter: QSplitter, settings: AppSettings) -> None:
    settings.window_geometry = window.saveGeometry()
    here = available_area(window)
    settings.window_screen = f"{here.width()}x{here.height()}"
    settings.window_state = window.saveState(layout_version(window))
    settings.splitter_state = splitter.saveState()
