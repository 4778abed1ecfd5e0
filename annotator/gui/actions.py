"""Every action of the main window in one table: name, menu, text, keys, status tip.

Menus, the Help > Keyboard shortcuts dialog and the test that no two actions
share a key are all generated from ACTIONS, so a key shown to the annotator is
always the key that works. Keys use QKeySequence's portable text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QMenu,
    QMenuBar,
)

from annotator.log.annotations import TASK_COMPLETED, TASK_NOT_COMPLETED
from annotator.log.flags import CROSS_TALK, INAUDIBLE, NOISE, NON_NATIVE, TRUNCATED

MENUS = ("&File", "&Edit", "&Navigate", "Anno&tate", "&Playback", "&Markers", "&View", "&Help")


@dataclass(frozen=True)
class ActionSpec:
    name: str
    handler: str  # "part.method" on the composition's handlers (gui/app.py), called when the action fires
    menu: str
    text: str
    keys: tuple[str, ...]
    tip: str
    checkable: bool = False
    separator_before: bool = False
    args: tuple = ()  # what the handler is called with; a checkable action's handler gets its new state instead
    in_panel: bool = False  # the key works only while the focus is in the panel the action is added to


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open", "controller.open_with_dialog", "&File", "&Open…", ("Ctrl+O",), "Open a log file"),
    ActionSpec(
        "save",
        "controller.save",
        "&File",
        "&Save",
        ("Ctrl+S",),
        "Save the annotations into the log (the original is kept as NAME.orig.xml)",
        separator_before=True,
    ),
    ActionSpec(
        "save_as",
        "controller.save_as",
        "&File",
        "Save &As…",
        ("Ctrl+Shift+S",),
        "Save the log with its annotations under another name",
    ),
    ActionSpec(
        "export_csv",
        "exports.export_csv",
        "&File",
        "&Export CSV…",
        ("Ctrl+E",),
        "Write sessions.csv, turns.csv, events.csv and words.csv of the open corpus, or of this log, in the background",
    ),
    ActionSpec(
        "fold_from",
        "praat_elan.fold_with_dialog",
        "&File",
        "Fo&ld annotations from…",
        (),
        "Fold a Praat TextGrid, an ELAN file or an annotations file into this log (one step to undo)",
    ),
    ActionSpec(
        "open_in_praat",
        "praat_elan.open_in_praat",
        "&File",
        "Open this session in &Praat",
        (),
        "Open the session shown in Praat, with its audio (its TextGrid and WAV go to a temporary folder)",
    ),
    ActionSpec(
        "team_mode",
        "team.set_team_mode",
        "&File",
        "&Team mode for this corpus",
        (),
        "Save each annotator's work to their own LOG-human-NAME.xml beside the log, never into the log "
        "(marks the corpus folder with .annotator-team)",
        checkable=True,
        separator_before=True,
    ),
    ActionSpec(
        "annotator_name",
        "team.ask_annotator_name",
        "&File",
        "Annotator &name…",
        (),
        "Who you are in team mode: your work is saved to LOG-human-NAME.xml (default: your login name)",
    ),
    ActionSpec(
        "compare",
        "compare.show_compare",
        "&File",
        "Co&mpare annotators",
        ("Ctrl+Shift+C",),
        "Show every annotator's LOG-human-NAME.xml beside the log side by side, their differing words "
        "highlighted, to adjudicate",
        separator_before=True,
    ),
    ActionSpec(
        "save_adjudication",
        "compare.save_adjudication",
        "&File",
        "Save a&djudication",
        (),
        "Save the adjudicated values into the log itself (team mode too) and record where each came from "
        "in LOG.adjudication.csv",
    ),
    ActionSpec(
        "close", "controller.close_document", "&File", "&Close", ("Ctrl+W",), "Close the log", separator_before=True
    ),
    ActionSpec("quit", "window.close", "&File", "&Quit", ("Ctrl+Q",), "Quit the annotator"),
    ActionSpec("undo", "navigator.undo", "&Edit", "&Undo", ("Ctrl+Z",), "Undo the last annotation"),
    ActionSpec("redo", "navigator.redo", "&Edit", "&Redo", ("Ctrl+Shift+Z",), "Redo the annotation just undone"),
    ActionSpec(
        "preferences",
        "preferences.show",
        "&Edit",
        "&Preferences…",
        ("Ctrl+,",),
        "Playback, editor, appearance, team and paths settings, and your own keys",
        separator_before=True,
    ),
    ActionSpec(
        "find",
        "find.open",
        "&Edit",
        "&Find in the session…",
        ("Ctrl+F",),
        "Find text in this session's turns (transcription, recognizer, system, concepts); hits are highlighted",
        separator_before=True,
    ),
    ActionSpec("find_next", "find.step", "&Edit", "Find &next", ("F3",), "Select the turn of the next hit", args=(+1,)),
    ActionSpec(
        "find_previous",
        "find.step",
        "&Edit",
        "Find pre&vious",
        ("Shift+F3",),
        "Select the turn of the previous hit",
        args=(-1,),
    ),
    ActionSpec(
        "corpus_search",
        "corpus_search.open",
        "&Edit",
        "Search the &corpus…",
        ("Ctrl+Shift+F",),
        "Find text in every log of the open corpus (else this log) in the background; the hits in a dock",
    ),
    ActionSpec(
        "replace_in_log",
        "replace.replace_in_log",
        "&Edit",
        "&Replace in this log…",
        ("Ctrl+H",),
        "Replace text in this log's transcriptions: a preview of every change first, then one undo step",
    ),
    ActionSpec(
        "replace_in_corpus",
        "replace.replace_in_corpus",
        "&Edit",
        "Replace in the c&orpus…",
        ("Ctrl+Shift+H",),
        "Replace text in the transcriptions of every log of the corpus, after a preview; "
        "each other log is saved, its original kept",
    ),
    ActionSpec(
        "next_turn", "navigator.step_turn", "&Navigate", "&Next turn", ("Alt+Down",), "Select the next turn", args=(+1,)
    ),
    ActionSpec(
        "previous_turn",
        "navigator.step_turn",
        "&Navigate",
        "&Previous turn",
        ("Alt+Up",),
        "Select the previous turn",
        args=(-1,),
    ),
    ActionSpec(
        "next_user_turn",
        "navigator.step_user_turn",
        "&Navigate",
        "Next &user turn",
        ("Ctrl+Down",),
        "Select the next user turn and edit its transcription",
        args=(+1,),
    ),
    ActionSpec(
        "previous_user_turn",
        "navigator.step_user_turn",
        "&Navigate",
        "Previous u&ser turn",
        ("Ctrl+Up",),
        "Select the previous user turn and edit its transcription",
        args=(-1,),
    ),
    ActionSpec(
        "next_session",
        "navigator.step_session",
        "&Navigate",
        "Next s&ession",
        ("Ctrl+PgDown",),
        "Show the next session: of this log, then of the next log in the Sessions list",
        separator_before=True,
        args=(+1,),
    ),
    ActionSpec(
        "previous_session",
        "navigator.step_session",
        "&Navigate",
        "Previous sess&ion",
        ("Ctrl+PgUp",),
        "Show the previous session: of this log, then of the previous log in the Sessions list",
        args=(-1,),
    ),
    ActionSpec(
        "next_finding",
        "validation.step_finding",
        "&Navigate",
        "Next &finding",
        ("F8",),
        "Go to the next validation finding and the turn it is about",
        separator_before=True,
        args=(+1,),
    ),
    ActionSpec(
        "previous_finding",
        "validation.step_finding",
        "&Navigate",
        "Previous findin&g",
        ("Shift+F8",),
        "Go to the previous validation finding and the turn it is about",
        args=(-1,),
    ),
    ActionSpec(
        "next_disagreement",
        "compare.step_disagreement",
        "&Navigate",
        "Next disag&reement",
        ("F6",),
        "In Compare, go to the next turn (or task completion) the annotators disagree on",
        separator_before=True,
        args=(+1,),
    ),
    ActionSpec(
        "previous_disagreement",
        "compare.step_disagreement",
        "&Navigate",
        "Previous dis&agreement",
        ("Shift+F6",),
        "In Compare, go to the previous turn (or task completion) the annotators disagree on",
        args=(-1,),
    ),
    ActionSpec(
        "doubtful_first",
        "switches.set_doubtful_first",
        "&Navigate",
        "Most &doubtful turn first",
        (),
        "Ctrl+Enter goes to the most doubtful user turn still to transcribe, not the next in log order",
        checkable=True,
        separator_before=True,
    ),
    ActionSpec(
        "commit_and_next",
        "navigator.commit_and_next",
        "Anno&tate",
        "&Commit and go to next untranscribed",
        ("Ctrl+Return", "Ctrl+Enter"),
        "Store the transcription and move to the next user turn still to transcribe",
    ),
    ActionSpec(
        "prefill",
        "editor.prefill_from_recognizer",
        "Anno&tate",
        "&Pre-fill with recognizer text",
        ("Ctrl+I",),
        "Put what the recognizer heard into the editor as a starting point",
    ),
    *(
        ActionSpec(
            f"alternative_{rank}",
            "editor.fill_with_alternative",
            "Anno&tate",
            f"N-best alternative &{rank}",
            (f"Alt+{rank}",),
            f"Put the recognizer's alternative {rank} of the turn's n-best list into the editor",
            separator_before=rank == 1,
            args=(rank,),
        )
        for rank in range(1, 10)
    ),
    ActionSpec(
        "prefill_automatically",
        "switches.set_prefill_automatically",
        "Anno&tate",
        "Pre-fill &automatically",
        (),
        "Start every untranscribed turn's editor with the recognizer text",
        checkable=True,
    ),
    ActionSpec(
        "edit_concepts",
        "concepts.edit_from_parse",
        "Anno&tate",
        "Edit the &concepts",
        ("Ctrl+K",),
        "Go into the Concepts panel's reference table; an empty one shows the parse, stored at the first edit",
        separator_before=True,
    ),
    ActionSpec(
        "accept_parse",
        "concepts.accept_parse",
        "Anno&tate",
        "Accept the parse as the &reference",
        ("Ctrl+Shift+K",),
        "Store the selected turn's parse, unchanged, as its reference concepts: you checked it is right",
    ),
    ActionSpec(
        "add_concept",
        "concepts.add_slot",
        "Anno&tate",
        "Add a concept s&lot",
        ("Insert", "Ctrl+Shift+N"),
        "Add a slot to the reference concepts (in the Concepts panel)",
        in_panel=True,
    ),
    ActionSpec(
        "remove_concept",
        "concepts.remove_slot",
        "Anno&tate",
        "Remove the concept slo&t",
        ("Delete",),
        "Remove the selected slot from the reference concepts (in the Concepts panel)",
        in_panel=True,
    ),
    ActionSpec(
        "leave_concepts",
        "concepts.leave",
        "Anno&tate",
        "Back to the transcri&ption",
        ("Escape",),
        "Leave the Concepts panel for the transcription editor (a cell being edited is given up first)",
        in_panel=True,
    ),
    ActionSpec(
        "task_completed",
        "navigator.set_task_completion",
        "Anno&tate",
        "Task c&ompleted",
        ("Ctrl+Alt+1",),
        "Mark the session's task as completed (1)",
        separator_before=True,
        args=(TASK_COMPLETED,),
    ),
    ActionSpec(
        "task_not_completed",
        "navigator.set_task_completion",
        "Anno&tate",
        "Task &not completed",
        ("Ctrl+Alt+0",),
        "Mark the session's task as not completed (0)",
        args=(TASK_NOT_COMPLETED,),
    ),
    ActionSpec(
        "task_unset",
        "navigator.set_task_completion",
        "Anno&tate",
        "Clear &task completion",
        (),
        "Remove the session's task completion",
        args=(None,),
    ),
    *(
        ActionSpec(
            f"take_annotator_{letter.lower()}",
            "compare.take",
            "Anno&tate",
            f"Take annotator {letter}'s version",
            (f"Alt+{letter}",),
            f"In Compare, take annotator {letter}'s transcription and concepts of the selected "
            "turn (or task completion) into the log",
            separator_before=index == 0,
            args=(index,),
        )
        for index, letter in enumerate("ABCD")
    ),
    ActionSpec(
        "flag_inaudible",
        "flags.toggle_flag",
        "Anno&tate",
        "Flag inaudible",
        ("Alt+Shift+I",),
        "Flag the selected turn: part of the speech cannot be made out (again: unflag)",
        separator_before=True,
        args=(INAUDIBLE,),
    ),
    ActionSpec(
        "flag_cross_talk",
        "flags.toggle_flag",
        "Anno&tate",
        "Flag cross-talk",
        ("Alt+Shift+X",),
        "Flag the selected turn: another voice speaks over the user (again: unflag)",
        args=(CROSS_TALK,),
    ),
    ActionSpec(
        "flag_truncated",
        "flags.toggle_flag",
        "Anno&tate",
        "Flag truncated",
        ("Alt+Shift+T",),
        "Flag the selected turn: the recording starts or ends inside the speech (again: unflag)",
        args=(TRUNCATED,),
    ),
    ActionSpec(
        "flag_non_native",
        "flags.toggle_flag",
        "Anno&tate",
        "Flag non-native",
        ("Alt+Shift+N",),
        "Flag the selected turn: the user is not a native speaker (again: unflag)",
        args=(NON_NATIVE,),
    ),
    ActionSpec(
        "flag_noise",
        "flags.toggle_flag",
        "Anno&tate",
        "Flag noise",
        ("Alt+Shift+Z",),
        "Flag the selected turn: background noise disturbs the speech (again: unflag)",
        args=(NOISE,),
    ),
    ActionSpec(
        "comment",
        "flags.edit_comment",
        "Anno&tate",
        "Comment on the turn…",
        ("Alt+Shift+C",),
        "Write a one-line comment on the selected turn (empty removes it)",
    ),
    ActionSpec(
        "reviewed",
        "flags.toggle_reviewed",
        "Anno&tate",
        "Session reviewed",
        ("Ctrl+Shift+R",),
        "Mark the session reviewed by you (the annotator name), or not reviewed again",
    ),
    ActionSpec(
        "play_pause",
        "playback.toggle",
        "&Playback",
        "&Play / pause",
        ("Ctrl+Space",),
        "Play or pause the selected turn's audio",
    ),
    ActionSpec(
        "replay",
        "playback.replay",
        "&Playback",
        "&Replay",
        ("Ctrl+R",),
        "Play the selected turn's audio from its start",
    ),
    ActionSpec(
        "back",
        "playback.back",
        "&Playback",
        "&Back 2 s",
        ("Ctrl+Left",),
        "Jump back two seconds in the audio (Preferences > Playback sets how far)",
    ),
    ActionSpec(
        "play_exchange",
        "playback_menu.play_exchange",
        "&Playback",
        "Play &exchange",
        ("Ctrl+Shift+Space",),
        "Play the system prompt and the user's reply that follows, back to back",
    ),
    ActionSpec(
        "other_side",
        "playback_menu.play_other_side",
        "&Playback",
        "Play the &other side",
        ("Ctrl+Shift+O",),
        "Play once the system prompt a user turn answers (or the reply to a system turn); "
        "Ctrl+Space still plays the turn's own audio",
    ),
    ActionSpec(
        "replay_slower",
        "listening.replay_slower",
        "&Playback",
        "Replay the last 2 s &slower",
        ("Ctrl+Shift+Left",),
        "Play the 2 seconds before the cursor again at 0.75x, pitch kept, then stop there",
    ),
    ActionSpec(
        "next_word",
        "words.step",
        "&Playback",
        "Play &next word",
        ("Alt+Right",),
        "Play the word after the one just played or heard, exactly, then stop (the words are placed on the audio "
        "as the turn is selected)",
        args=(+1,),
    ),
    ActionSpec(
        "previous_word",
        "words.step",
        "&Playback",
        "Play pre&vious word",
        ("Alt+Left",),
        "Play the word before the one just played or heard, exactly, then stop",
        args=(-1,),
    ),
    ActionSpec(
        "auto_play",
        "switches.set_auto_play",
        "&Playback",
        "&Auto-play next turn",
        (),
        "Start the next turn's audio after Ctrl+Enter",
        checkable=True,
        separator_before=True,
    ),
    ActionSpec(
        "loop",
        "playback_menu.set_loop",
        "&Playback",
        "&Loop turn",
        (),
        "Repeat the turn's audio until stopped",
        checkable=True,
    ),
    ActionSpec(
        "normalise_loudness",
        "listening.set_normalise_loudness",
        "&Playback",
        "&Normalise loudness",
        (),
        "Play quiet turns at a common loudness (ITU-R BS.1770, -23 LUFS by default, "
        "peaks limited); the audio files never change",
        checkable=True,
    ),
    ActionSpec(
        "pause_while_typing",
        "listening.set_pause_while_typing",
        "&Playback",
        "Pause &while typing",
        (),
        "A keystroke in the transcription editor pauses playback; it resumes (a second earlier) once you stop typing",
        checkable=True,
    ),
    ActionSpec(
        "load_markers",
        "markers.load_with_dialog",
        "&Markers",
        "&Load markers…",
        ("Ctrl+M",),
        "Load Rasa-style marker definitions (YAML): a timeline lane and a session-browser column each",
    ),
    ActionSpec(
        "load_kpis",
        "markers.load_kpis",
        "&Markers",
        "Load the shipped &KPIs",
        (),
        "Load resources/markers/communicator-kpis.yml (help requested, error then reprompt, task completed...)",
    ),
    ActionSpec(
        "clear_markers", "markers.clear", "&Markers", "&Clear markers", (), "Remove the marker lanes and columns"
    ),
    ActionSpec(
        "fit_timeline",
        "timeline.fit",
        "&View",
        "&Fit timeline",
        ("Ctrl+Shift+T",),
        "Show the whole session on the timeline",
    ),
    ActionSpec(
        "spectrogram",
        "playback_menu.set_spectrogram_shown",
        "&View",
        "&Spectrogram",
        ("Ctrl+Shift+G",),
        "Show the turn's spectrogram (0-4 kHz) in the waveform dock: below the waveform when the dock is tall "
        "enough, else instead of it",
        checkable=True,
    ),
    ActionSpec(
        "reset_layout",
        "window.reset_layout",
        "&View",
        "&Reset layout",
        ("Ctrl+Alt+R",),
        "The window's default arrangement for this screen: its size, the docks' places and sizes, the turn "
        "table's height",
    ),
    ActionSpec(
        "zoom_in",
        "appearance.zoom_in",
        "&View",
        "Zoom &in",
        ("Ctrl+=", "Ctrl++"),
        "Larger text in the turn table and the editor",
        separator_before=True,
    ),
    ActionSpec(
        "zoom_out",
        "appearance.zoom_out",
        "&View",
        "Zoom &out",
        ("Ctrl+-",),
        "Smaller text in the turn table and the editor",
    ),
    ActionSpec(
        "reset_zoom",
        "appearance.reset_zoom",
        "&View",
        "&Actual size",
        ("Ctrl+0",),
        "The text of the turn table and the editor at its own size (100%)",
    ),
    ActionSpec(
        "shortcuts",
        "preferences.show_keys",
        "&Help",
        "&Keyboard shortcuts",
        ("F1",),
        "List every key of the annotator, and give any action your own key",
    ),
    ActionSpec("about", "window.show_about", "&Help", "&About", (), "About the Communicator annotator"),
)

SPEEDS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)  # the Playback > Speed choices


def spec(name: str) -> ActionSpec:
    for action_spec in ACTIONS:
        if action_spec.name == name:
            return action_spec
    raise KeyError(name)


class Actions:
    """The window's QActions, one attribute per ActionSpec name (actions.save, actions.undo...)."""

    def __init__(self, by_name: dict[str, QAction]):
        self._by_name = by_name

    def __getattr__(self, name: str) -> QAction:
        try:
            return self.__dict__["_by_name"][name]
        except KeyError:
            raise AttributeError(f"no action named {name!r}") from None

    def __iter__(self) -> Iterator[tuple[ActionSpec, QAction]]:
        return ((action_spec, self._by_name[action_spec.name]) for action_spec in ACTIONS)


@dataclass(eq=False)
class Menus:
    """The menu bar's menus, one per MENUS title without its accelerator, File > Open Recent as `recent`
    and Playback > Speed's choices as `speeds` (each its speed as data)."""

    file: QMenu
    edit: QMenu
    navigate: QMenu
    annotate: QMenu
    playback: QMenu
    markers: QMenu
    view: QMenu
    help: QMenu
    recent: QMenu
    speeds: QActionGroup = field(init=False)  # made by build_menus once the Playback menu holds its actions


class UnhandledActionError(LookupError):
    """An action of the table names a handler the composition does not have."""


def build_actions(parent: QObject, undo_stack: QUndoStack) -> Actions:
    """One QAction per spec, with its keys, working anywhere in the window (text editors included:
    the transcription editor lets these keys through, see views.transcription_editor). Undo and redo
    come from the undo stack, so that their text names the command they would undo or redo."""
    by_name: dict[str, QAction] = {}
    for action_spec in ACTIONS:
        if action_spec.name in ("undo", "redo"):
            make = undo_stack.createUndoAction if action_spec.name == "undo" else undo_stack.createRedoAction
            action = make(parent, action_spec.text)
            action.triggered.disconnect()  # the stack's own undo()/redo(): the table's handler is bound instead
        else:
            action = QAction(action_spec.text, parent)
        action.setObjectName(f"action_{action_spec.name}")
        action.setShortcuts([QKeySequence(key) for key in action_spec.keys])
        action.setShortcutContext(
            Qt.ShortcutContext.WidgetWithChildrenShortcut if action_spec.in_panel else Qt.ShortcutContext.WindowShortcut
        )
        action.setStatusTip(action_spec.tip)
        action.setToolTip(action_spec.tip)
        action.setCheckable(action_spec.checkable)
        by_name[action_spec.name] = action
    return Actions(by_name)


def bind_actions(actions: Actions, handlers: object) -> None:
    """Connect every action to the handler its spec names ("part.method", looked up on HANDLERS):
    called with the spec's args when triggered, or with the new state when a checkable action toggles.
    Raises UnhandledActionError, naming the action, for a handler HANDLERS does not have."""
    for action_spec, action in actions:
        handler = _resolve(handlers, action_spec)
        if action_spec.checkable:
            action.toggled.connect(handler)
        else:
            action.triggered.connect(lambda _checked=False, h=handler, a=action_spec.args: h(*a))


def _resolve(handlers: object, action_spec: ActionSpec) -> Callable:
    found = handlers
    for part in action_spec.handler.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise UnhandledActionError(
                f"action {action_spec.name!r}: nothing handles it ({action_spec.handler} is not in the composition)"
            )
    if not callable(found):
        raise UnhandledActionError(f"action {action_spec.name!r}: {action_spec.handler} is not callable")
    return found


def build_menus(menu_bar: QMenuBar, actions: Actions, parent: QObject) -> Menus:
    """The menus in MENUS order with every action of the table, File > Open Recent after Open,
    and Playback > Speed (one checkable action per SPEEDS, its speed as data)."""
    menus = Menus(
        **{plain_menu_name(title).lower(): menu_bar.addMenu(title) for title in MENUS},
        recent=QMenu("Open &Recent", menu_bar),
    )
    for action_spec, action in actions:
        menu = getattr(menus, plain_menu_name(action_spec.menu).lower())
        if action_spec.separator_before:
            menu.addSeparator()
        menu.addAction(action)
        if action_spec.name == "open":
            menu.addMenu(menus.recent)
    speed_menu = menus.playback.addMenu("&Speed")
    menus.speeds = QActionGroup(parent)
    for speed in SPEEDS:
        action = speed_menu.addAction(f"{speed:g}×")
        action.setCheckable(True)
        action.setData(speed)
        menus.speeds.addAction(action)
    return menus


def all_key_sequences() -> list[QKeySequence]:
    """The keys that work anywhere in the window, which its text fields let through (a panel's own
    keys, such as Delete, stay with the field that has the focus)."""
    return [QKeySequence(key) for action_spec in ACTIONS if not action_spec.in_panel for key in action_spec.keys]


def key_text(action_spec: ActionSpec) -> str:
    """The keys as the platform writes them (e.g. "Ctrl+Return, Ctrl+Enter")."""
    return ", ".join(QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) for key in action_spec.keys)


def plain_menu_name(menu: str) -> str:
    return menu.replace("&", "")
