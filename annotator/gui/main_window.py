"""The main window as a shell: the central splitter, docks, the menus built from the action table,
the title, the status bar, drag and drop, and the layout kept between runs.

The shell knows none of the parts it holds: gui/app.py composes them (the document controller,
navigation, the panels, playback), connects them and keeps them (Annotator); the shell is given the
actions it lists, the widgets it lays out and what to ask before closing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QVBoxLayout, QWidget

from annotator.file_name_text import name_from_text
from annotator.gui.about import APP_NAME, show_about
from annotator.gui.actions import Actions, Menus, build_actions, build_menus
from annotator.gui.appearance.window_geometry import (
    KeptOnScreen,
    fit_on_screen,
    restore_layout,
    save_layout,
    size_for_first_start,
    widen_cut_tab_groups,
)
from annotator.gui.help_links import add_help_links
from annotator.gui.settings import AppSettings

STATUS_SECONDS = 8
Area = Qt.DockWidgetArea


class MainWindow(QMainWindow):
    open_requested = Signal(object)  # Path: dropped on the window or chosen in File > Open Recent
    closing = Signal()  # the window accepted to close: release what it holds

    def __init__(self, settings: AppSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("main_window")
        self.settings = settings
        self._may_close: Callable[[], bool] = lambda: True  # asked before closing (unsaved work)
        self.on_demand_docks: list[QDockWidget] = []  # shown when they have something to show
        self._size_docks: Callable[[], None] = lambda: None  # the docks' default sizes for the window's size
        self._shown_once = False
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("table_editor_splitter")
        self.setAcceptDrops(True)
        self.statusBar()
        size_for_first_start(self)
        self.installEventFilter(KeptOnScreen(self))

    # --- composition -------------------------------------------------------
    def install_menus(self, undo_stack: QUndoStack) -> tuple[Actions, Menus]:
        """The actions of the table (undo and redo from UNDO_STACK) and the menus that list them."""
        self.action_table = build_actions(self, undo_stack)
        self.menus = build_menus(self.menuBar(), self.action_table, self)
        self.menus.recent.aboutToShow.connect(self._fill_recent_menu)
        add_help_links(self.menus.help, self)
        return self.action_table, self.menus

    def set_central(self, top: QWidget, table: QWidget, editor: QWidget) -> None:
        """TOP (the session bar) over the splitter of the turn TABLE and the transcription EDITOR."""
        self.session_bar, self.table, self.editor = top, table, editor
        self.splitter.addWidget(table)
        self.splitter.addWidget(editor)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)  # the editor keeps its lines; the table takes what the window gains
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([1_000_000, 1])  # weights: the editor starts at its minimum height
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(top)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

    def add_dock(self, widget: QWidget, title: str, area: Area, name: str, on_demand: bool = False) -> QDockWidget:
        """Dock WIDGET and list it in the View menu. NAME (an objectName) lets the dock's place be saved
        with the window layout; restore_layout hides an ON_DEMAND dock: it is shown when it has something to show."""
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.menus.view.addAction(dock.toggleViewAction())
        if on_demand:
            self.on_demand_docks.append(dock)
        return dock

    # --- what the window says --------------------------------------------------
    def show_title(self, name: str, unsaved: bool) -> None:
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")
        self.setWindowModified(unsaved)

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_SECONDS * 1000)

    def show_about(self) -> None:
        show_about(self)

    # --- files ---------------------------------------------------------------------
    def _fill_recent_menu(self) -> None:
        recent = self.menus.recent
        recent.clear()
        for path in self.settings.recent_files:
            action = recent.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: self._open_recent(p))
        recent.setEnabled(True)
        if not self.settings.recent_files:
            recent.addAction("(none yet)").setEnabled(False)

    def _open_recent(self, stored: str) -> None:
        path = Path(name_from_text(stored))
        if not path.exists():
            self.settings.remove_recent_file(path)
        self.open_requested.emit(path)

    def dragEnterEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        # Open after the drop returns: a message box inside a drop handler blocks the drag source.
        QTimer.singleShot(0, lambda: self.open_requested.emit(Path(paths[0])))

    # --- layout and closing ----------------------------------------------------------
    def restore_layout(self) -> None:
        """Restore size, docks and splitter as the annotator left them, fitted to this screen (call after every add_dock);
        the arrangement the window had before is what View > Reset layout comes back to."""
        self.default_state = self.saveState()
        restore_layout(self, self.splitter, self.settings)
        for dock in self.on_demand_docks:
            dock.hide()

    def reset_layout(self) -> None:
        """View > Reset layout: the size of a first start on this screen, the docks where the window first put them,
        sized for it (the dock sizer), the editor at its least height; the on-demand docks shown stay shown."""
        shown = [dock for dock in self.on_demand_docks if dock.isVisible()]
        size_for_first_start(self)
        self.restoreState(self.default_state)
        for dock in self.on_demand_docks:
            dock.setVisible(dock in shown)
        self.splitter.setSizes([1_000_000, 1])
        self._size_docks()
        self.show_status("The window's layout is back to its default for this screen")

    def save_layout(self) -> None:
        save_layout(self, self.splitter, self.settings)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, lambda: fit_on_screen(self))  # once the window system has framed the window
        if not self._shown_once:  # the stored layout laid out: its dock tabs can be measured
            self._shown_once = True
            QTimer.singleShot(0, self, lambda: widen_cut_tab_groups(self))

    def set_dock_sizer(self, size_docks: Callable[[], None]) -> None:
        """SIZE_DOCKS gives the docks their default shares of the window (View > Reset layout)."""
        self._size_docks = size_docks

    def set_close_guard(self, may_close: Callable[[], bool]) -> None:
        """MAY_CLOSE is asked before the window closes (unsaved work): False keeps it open."""
        self._may_close = may_close

    def closeEvent(self, event) -> None:
        if not self._may_close():
            event.ignore()
            return
        self.closing.emit()
        self.save_layout()
        self.settings.sync()
        event.accept()
