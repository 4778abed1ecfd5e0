"""Every action of the main window in one table: name, menu, text, keys, status tip.

Menus, the Help > Keyboard shortcuts dialog and the test that no two actions
share a key are all generated from ACTIONS, so a key shown to the annotator is
always the key that works. Keys use QKeySequence's portable text.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMenuBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

MENUS = ("&File", "&Edit", "&Navigate", "&Annotate", "&Playback", "&Markers", "&View", "&Help")


@dataclass(frozen=True)
class ActionSpec:
    name: str
    menu: str
    text: str
    keys: tuple[str, ...]
    tip: str
    checkable: bool = False
    separator_before: bool = False


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open", "&File", "&Open…", ("Ctrl+O",), "Open a log file"),
    ActionSpec("save", "&File", "&Save", ("Ctrl+S",), "Save the annotations into the log (the original is kept as NAME.orig.xml)", separator_before=True),
    ActionSpec("save_as", "&File", "Save &As…", ("Ctrl+Shift+S",), "Save the log with its annotations under another name"),
    ActionSpec("export_csv", "&File", "&Export CSV…", ("Ctrl+E",), "Write sessions.csv, turns.csv and events.csv of this log"),
    ActionSpec("close", "&File", "&Close", ("Ctrl+W",), "Close the log", separator_before=True),
    ActionSpec("quit", "&File", "&Quit", ("Ctrl+Q",), "Quit the annotator"),
    ActionSpec("undo", "&Edit", "&Undo", ("Ctrl+Z",), "Undo the last annotation"),
    ActionSpec("redo", "&Edit", "&Redo", ("Ctrl+Shift+Z",), "Redo the annotation just undone"),
    ActionSpec("next_turn", "&Navigate", "&Next turn", ("Alt+Down",), "Select the next turn"),
    ActionSpec("previous_turn", "&Navigate", "&Previous turn", ("Alt+Up",), "Select the previous turn"),
    ActionSpec("next_user_turn", "&Navigate", "Next &user turn", ("Ctrl+Down",), "Select the next user turn and edit its transcription"),
    ActionSpec("previous_user_turn", "&Navigate", "Previous u&ser turn", ("Ctrl+Up",), "Select the previous user turn and edit its transcription"),
    ActionSpec("next_session", "&Navigate", "Next s&ession", ("Ctrl+PgDown",),
               "Show the next session: of this log, then of the next log in the Sessions list", separator_before=True),
    ActionSpec("previous_session", "&Navigate", "Previous sess&ion", ("Ctrl+PgUp",),
               "Show the previous session: of this log, then of the previous log in the Sessions list"),
    ActionSpec("next_finding", "&Navigate", "Next &finding", ("F8",),
               "Go to the next validation finding and the turn it is about", separator_before=True),
    ActionSpec("previous_finding", "&Navigate", "Previous findin&g", ("Shift+F8",),
               "Go to the previous validation finding and the turn it is about"),
    ActionSpec("commit_and_next", "&Annotate", "&Commit and go to next untranscribed", ("Ctrl+Return", "Ctrl+Enter"),
               "Store the transcription and move to the next user turn still to transcribe"),
    ActionSpec("prefill", "&Annotate", "&Pre-fill with recognizer text", ("Ctrl+I",),
               "Put what the recognizer heard into the editor as a starting point"),
    ActionSpec("prefill_automatically", "&Annotate", "Pre-fill &automatically", (),
               "Start every untranscribed turn's editor with the recognizer text", checkable=True),
    ActionSpec("task_completed", "&Annotate", "Task c&ompleted", ("Ctrl+1",), "Mark the session's task as completed (1)", separator_before=True),
    ActionSpec("task_not_completed", "&Annotate", "Task &not completed", ("Ctrl+0",), "Mark the session's task as not completed (0)"),
    ActionSpec("task_unset", "&Annotate", "Clear &task completion", (), "Remove the session's task completion"),
    ActionSpec("play_pause", "&Playback", "&Play / pause", ("Ctrl+Space",), "Play or pause the selected turn's audio"),
    ActionSpec("replay", "&Playback", "&Replay", ("Ctrl+R",), "Play the selected turn's audio from its start"),
    ActionSpec("back", "&Playback", "&Back 2 s", ("Ctrl+Left",), "Jump back two seconds in the audio"),
    ActionSpec("play_exchange", "&Playback", "Play &exchange", ("Ctrl+Shift+Space",),
               "Play the system prompt and the user's reply that follows, back to back"),
    ActionSpec("other_side", "&Playback", "Play the &other side", ("Ctrl+Shift+O",),
               "Play once the system prompt a user turn answers (or the reply to a system turn); "
               "Ctrl+Space still plays the turn's own audio"),
    ActionSpec("auto_play", "&Playback", "&Auto-play next turn", (), "Start the next turn's audio after Ctrl+Enter", checkable=True, separator_before=True),
    ActionSpec("loop", "&Playback", "&Loop turn", (), "Repeat the turn's audio until stopped", checkable=True),
    ActionSpec("load_markers", "&Markers", "&Load markers…", ("Ctrl+M",),
               "Load Rasa-style marker definitions (YAML): a timeline lane and a session-browser column each"),
    ActionSpec("load_kpis", "&Markers", "Load the shipped &KPIs", (),
               "Load resources/markers/communicator-kpis.yml (help requested, error then reprompt, task completed...)"),
    ActionSpec("clear_markers", "&Markers", "&Clear markers", (), "Remove the marker lanes and columns"),
    ActionSpec("fit_timeline", "&View", "&Fit timeline", ("Ctrl+Shift+F",), "Show the whole session on the timeline"),
    ActionSpec("shortcuts", "&Help", "&Keyboard shortcuts", ("F1",), "List every key of the annotator"),
    ActionSpec("about", "&Help", "&About", (), "About the Communicator annotator"),
)

SPEEDS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)  # the Playback > Speed choices


def spec(name: str) -> ActionSpec:
    for action_spec in ACTIONS:
        if action_spec.name == name:
            return action_spec
    raise KeyError(name)


def build_actions(parent: QObject) -> dict[str, QAction]:
    """One QAction per spec, with its keys, working anywhere in the window (text editors included:
    the transcription editor lets these keys through, see views.transcription_editor)."""
    actions: dict[str, QAction] = {}
    for action_spec in ACTIONS:
        action = QAction(action_spec.text, parent)
        action.setObjectName(f"action_{action_spec.name}")
        action.setShortcuts([QKeySequence(key) for key in action_spec.keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setStatusTip(action_spec.tip)
        action.setToolTip(action_spec.tip)
        action.setCheckable(action_spec.checkable)
        actions[action_spec.name] = action
    return actions


def build_menus(menu_bar: QMenuBar, actions: dict[str, QAction], parent: QObject
                ) -> tuple[dict[str, QMenu], QMenu, QActionGroup]:
    """The menus in MENUS order with every action of the table, File > Open Recent after Open,
    and Playback > Speed (one checkable action per SPEEDS, its speed as data)."""
    menus = {title: menu_bar.addMenu(title) for title in MENUS}
    recent = QMenu("Open &Recent", menu_bar)
    for action_spec in ACTIONS:
        menu = menus[action_spec.menu]
        if action_spec.separator_before:
            menu.addSeparator()
        menu.addAction(actions[action_spec.name])
        if action_spec.name == "open":
            menu.addMenu(recent)
    speed_menu = menus["&Playback"].addMenu("&Speed")
    speeds = QActionGroup(parent)
    for speed in SPEEDS:
        action = speed_menu.addAction(f"{speed:g}×")
        action.setCheckable(True)
        action.setData(speed)
        speeds.addAction(action)
    return menus, recent, speeds


def all_key_sequences() -> list[QKeySequence]:
    return [QKeySequence(key) for action_spec in ACTIONS for key in action_spec.keys]


def key_text(action_spec: ActionSpec) -> str:
    """The keys as the platform writes them (e.g. "Ctrl+Return, Ctrl+Enter")."""
    return ", ".join(QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) for key in action_spec.keys)


def plain_menu_name(menu: str) -> str:
    return menu.replace("&", "")


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts: every action that has a key, generated from ACTIONS."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        with_keys = [s for s in ACTIONS if s.keys]
        self.table = QTableWidget(len(with_keys), 3, self)
        self.table.setHorizontalHeaderLabels(["Keys", "Action", "Menu"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        for row, action_spec in enumerate(with_keys):
            for column, text in enumerate((key_text(action_spec), action_spec.text.replace("&", ""),
                                           plain_menu_name(action_spec.menu))):
                item = QTableWidgetItem(text)
                item.setToolTip(action_spec.tip)
                self.table.setItem(row, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(600, 40 + (len(with_keys) + 3) * (self.table.fontMetrics().height() + 8))

    def listed_keys(self) -> list[str]:
        return [self.table.item(row, 0).text() for row in range(self.table.rowCount())]
