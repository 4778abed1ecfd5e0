"""Start the desktop application: `annotator gui [PATH]` and `annotator [PATH]` land here."""

from __future__ import annotations

import logging
import os
import signal
import sys
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from annotator import __version__
from annotator.analysis.child_processes import stop_children
from annotator.gui.about import APP_NAME, app_icon
from annotator.gui.actions import Actions, Menus, bind_actions
from annotator.gui.annotating.concepts_panel import ConceptsPanel
from annotator.gui.annotating.flags_controller import FlagsController
from annotator.gui.annotating.menu_switches import MenuSwitches
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.annotating.transcription_editor import TranscriptionEditor
from annotator.gui.annotating.word_marks_in_editor import WordMarksInEditor
from annotator.gui.appearance.appearance import Appearance
from annotator.gui.compare.browser_entry import add_compare_entry
from annotator.gui.compare.controller import CompareController
from annotator.gui.compare.view import CompareView
from annotator.gui.corpus.browsing import CorpusBrowsing
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.corpus.team_switch import TeamSwitch
from annotator.gui.docks import arrange_docks, size_docks
from annotator.gui.exporting.export_menu import ExportMenu
from annotator.gui.exporting.praat_elan import PraatElan
from annotator.gui.keyboard import show_active
from annotator.gui.listening.audio_panel import AudioPanel
from annotator.gui.listening.cursor import PlaybackCursor
from annotator.gui.listening.listening_kit import ListeningKit
from annotator.gui.listening.playback import Playback
from annotator.gui.listening.playback_menu import PlaybackMenu
from annotator.gui.listening.turn_words import TurnWords
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.listening.word_playing import WordPlaying
from annotator.gui.main_window import MainWindow
from annotator.gui.markers.controller import MarkersController
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.panes.detail_panel import DetailPanel
from annotator.gui.panes.docking import Docks
from annotator.gui.panes.findings_panel import FindingsPanel
from annotator.gui.panes.following import PanesFollowing
from annotator.gui.panes.metrics_panel import MetricsPanel
from annotator.gui.panes.session_panes import SessionPanes
from annotator.gui.panes.validation import Validation
from annotator.gui.preferences.controller import Preferences
from annotator.gui.recovery.draft import RestoredDraft
from annotator.gui.recovery.watcher import RecoveryWatcher
from annotator.gui.runtime.collector import GuiThreadCollector
from annotator.gui.runtime.crash_traces import forget_crash_trace, record_crash_traces
from annotator.gui.runtime.stop_signals import StopSignals
from annotator.gui.search.corpus_search import CorpusSearch
from annotator.gui.search.find_controller import FindController
from annotator.gui.search.replace_controller import ReplaceController
from annotator.gui.search.search_results import SearchResults
from annotator.gui.settings import DOUBT_ORDER, AppSettings
from annotator.gui.timeline.view import TimelineView
from annotator.log.elements import Turn
from annotator.resources import sample_session_path

APPLICATION = "annotator"


def sample_session() -> Path | None:
    """The bundled sample session (annotator.resources), or None if this install lacks it."""
    try:
        return sample_session_path()
    except FileNotFoundError:
        return None


def make_application(argv: list[str] | None = None) -> QApplication:
    existing = QApplication.instance()
    if existing is None:
        QApplication.setOrganizationName(APP_NAME)
        QApplication.setApplicationName(APPLICATION)
        app = QApplication(argv if argv is not None else sys.argv[:1])
    elif isinstance(existing, QApplication):
        app = existing
    else:
        raise RuntimeError("the window needs a QApplication; this process made a QCoreApplication")
    if app.findChild(GuiThreadCollector) is None:
        GuiThreadCollector(app)  # Qt objects in reference cycles are freed on the GUI thread only
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    QGuiApplication.setDesktopFileName("io.github.communicator_annotator")  # Wayland matches the menu entry
    return app


@dataclass(eq=False)
class Annotator:
    """The window and every part build_annotator composed. The action table's handlers ("part.method")
    are looked up here; the shell (MainWindow) holds none of them."""

    window: MainWindow
    settings: AppSettings
    actions: Actions
    menus: Menus
    controller: DocumentController
    recovery: RecoveryWatcher
    playback: Playback
    navigator: Navigator
    detail: DetailPanel
    concepts: ConceptsPanel
    metrics: MetricsPanel
    timeline: TimelineView
    waveform: WaveformView
    audio_panel: AudioPanel
    browser: SessionBrowser
    findings: FindingsPanel
    docks: Docks
    panes: SessionPanes
    cursor: PlaybackCursor
    following: PanesFollowing
    validation: Validation
    browsing: CorpusBrowsing
    playback_menu: PlaybackMenu
    listening: ListeningKit
    words: WordPlaying
    markers: MarkersController
    exports: ExportMenu
    appearance: Appearance
    find: FindController
    corpus_search: CorpusSearch
    replace: ReplaceController
    team: TeamSwitch
    compare: CompareController
    flags: FlagsController
    praat_elan: PraatElan
    switches: MenuSwitches
    preferences: Preferences = field(init=False)

    @property
    def editor(self) -> TranscriptionEditor:
        return self.navigator.editor


_COMPOSED: weakref.WeakKeyDictionary[MainWindow, Annotator] = weakref.WeakKeyDictionary()


def parts_of(window: MainWindow) -> Annotator:
    """The parts build_annotator composed around WINDOW, for code that holds only the window (the smoke test,
    the tests that drive a window)."""
    return _COMPOSED[window]


def build_window(settings: AppSettings | None = None) -> MainWindow:
    """The composed window (build_annotator), for callers that need the widget only."""
    return build_annotator(settings).window


def build_annotator(settings: AppSettings | None = None) -> Annotator:
    """The composition root: the settings, the document controller, playback, navigation, every panel
    and controller, connected, every action bound to its handler, in the shell; its layout restored."""
    settings = settings if settings is not None else AppSettings()
    window = MainWindow(settings)
    controller = DocumentController(window, settings)
    recovery = RecoveryWatcher(controller, window)
    actions, menus = window.install_menus(controller.undo_stack)
    playback = Playback(window)
    navigator = Navigator(window, controller, settings, actions, playback)
    window.set_close_guard(controller.may_close)
    window.closing.connect(recovery.release)
    window.closing.connect(stop_children)  # a validation still running must not keep the quitting process alive
    window.open_requested.connect(navigator.open_path)

    docks = arrange_docks(window, controller.undo_stack)
    detail, concepts, metrics = (
        docks.view("details", DetailPanel),
        docks.view("concepts", ConceptsPanel),
        docks.view("metrics", MetricsPanel),
    )
    timeline, audio_panel = docks.view("timeline", TimelineView), docks.view("waveform", AudioPanel)
    waveform, browser, findings = (
        audio_panel.waveform,
        docks.view("sessions", SessionBrowser),
        docks.view("findings", FindingsPanel),
    )
    window.set_dock_sizer(lambda: size_docks(window, docks))
    panes = SessionPanes(controller, metrics, timeline, lambda: _turn_index(navigator.current_turn()))
    cursor = PlaybackCursor(window, playback, audio_panel, timeline)
    following = PanesFollowing(window, navigator, controller, playback, docks, panes, cursor)
    controller.opener.audio_indexed.connect(playback.use_resolver)
    validation = Validation(window, navigator, controller, findings, docks, following.show_element)
    browsing = CorpusBrowsing(
        window, navigator, controller, browser, settings, lambda: docks.bring_forward(docks.sessions)
    )
    playback_menu = PlaybackMenu(playback, settings, audio_panel, navigator.current_turn)
    listening = ListeningKit(playback, settings, waveform, navigator.editor, actions, window)
    words = _word_playing(window, controller, playback, audio_panel, navigator.editor)
    corpus = lambda: browsing.folder  # noqa: E731  the corpus open now, read when it is needed
    markers = MarkersController(window, navigator, controller, timeline, browser)
    exports = ExportMenu(window, controller, corpus, menus.file, actions.close)
    find = FindController(window, navigator, controller)
    compare = CompareController(window, navigator, controller, docks.view("compare", CompareView), docks.compare)
    add_compare_entry(browser, lambda file, index: browsing.open_session(file, index) and compare.show_compare())
    # A long session's facts are made on the panes' worker; the journal's reading would make them again meanwhile.
    panes.pending_changed.connect(recovery.hold_baseline_reading)
    panes.facts_made.connect(lambda _session: recovery.hold_baseline_reading(False))
    annotator = Annotator(
        window,
        settings,
        actions,
        menus,
        controller,
        recovery,
        playback,
        navigator,
        detail,
        concepts,
        metrics,
        timeline,
        waveform,
        audio_panel,
        browser,
        findings,
        docks,
        panes,
        cursor,
        following,
        validation,
        browsing,
        playback_menu,
        listening,
        words,
        markers,
        exports,
        appearance=Appearance(settings, menus.view, navigator.table, navigator.editor),
        find=find,
        corpus_search=CorpusSearch(
            window, navigator, browsing, find, docks.view("search_results", SearchResults), docks.search_results
        ),
        replace=ReplaceController(window, navigator, controller, browsing, browser, recovery, find),
        team=TeamSwitch(controller, actions.team_mode, corpus),
        compare=compare,
        flags=FlagsController(window, navigator, controller, settings, playback),
        praat_elan=PraatElan(window, controller, navigator, actions.open_in_praat, recovery.unsaved_edits),
        switches=MenuSwitches(navigator, settings),
    )
    annotator.preferences = Preferences(window, settings, annotator)
    _COMPOSED[window] = annotator
    _show_settings(settings, actions, menus, playback_menu)
    bind_actions(actions, annotator)
    RestoredDraft(recovery, navigator)  # after every other view's document_opened: the log is shown by then
    annotator.preferences.start()  # the user's own keys, and the text fields let them through
    navigator.show_document(None)
    if annotator.preferences.keys.ignored:
        window.show_status(annotator.preferences.keys.ignored_text())  # once, at start
    window.restore_layout()
    return annotator


def _word_playing(
    window: MainWindow,
    controller: DocumentController,
    playback: Playback,
    audio_panel: AudioPanel,
    editor: TranscriptionEditor,
) -> WordPlaying:
    """The shown turn's words placed in the background, drawn on its audio and in the editor, played one by one."""
    turn_words = TurnWords(playback, window.settings, parent=window)
    turn_words.message_shown.connect(window.show_status)
    controller.annotation_changed.connect(turn_words.on_annotation_changed)
    window.closing.connect(turn_words.close)
    words = WordPlaying(playback, turn_words, audio_panel, window)
    WordMarksInEditor(editor, turn_words, words)
    return words


def _turn_index(turn: Turn | None) -> int | None:
    """The turn selected, which the timeline opens on (selected before the session is shown)."""
    return None if turn is None else turn.index


def _show_settings(settings: AppSettings, actions: Actions, menus: Menus, playback_menu: PlaybackMenu) -> None:
    """Check the menus' settings as stored; the speed choices follow the Playback > Speed group."""
    for action in menus.speeds.actions():
        action.setChecked(abs(action.data() - settings.speed) < 1e-9)
    menus.speeds.triggered.connect(lambda action: playback_menu.set_speed(float(action.data())))
    actions.auto_play.setChecked(settings.auto_play)
    actions.loop.setChecked(settings.loop)
    actions.spectrogram.setChecked(settings.show_spectrogram)
    actions.prefill_automatically.setChecked(settings.prefill_automatically)
    actions.doubtful_first.setChecked(settings.next_turn_order == DOUBT_ORDER)


def run_app(path: str | Path | None = None, annotator: str | None = None) -> int:
    """Open PATH (a log, or a folder: its first log), or the sample session; run until the window closes.

    With ANNOTATOR_SMOKE_TEST=1 the app quits once the window has been shown
    and says what it opened (the packaged build's smoke test uses it). ANNOTATOR (`--annotator NAME`)
    is who annotates, for this run only.
    """
    record_crash_traces()
    app = make_application()
    settings = AppSettings()
    settings.annotator_for_this_run = annotator
    parts = build_annotator(settings)
    stop_on_signals(parts)
    show_active(parts.window)  # with no window manager, its shortcuts would wait for a first click
    target = Path(path) if path is not None else sample_session()
    if os.environ.get("ANNOTATOR_SMOKE_TEST"):
        QTimer.singleShot(200, lambda: _end_smoke_test(parts, target))
    if target is not None:
        parts.navigator.open_path(target)
    status = app.exec()
    parts.playback.close()
    end_process(status)


def stop_on_signals(annotator: Annotator) -> None:
    """SIGTERM and SIGHUP end the app with the annotator's work in the recovery journal, one line on stderr,
    status 143 / 129 (gui/runtime/stop_signals.py); the next start offers the work back."""

    def stop(number: int) -> None:
        unsaved = annotator.recovery.keep_for_next_start()
        annotator.playback.close()
        stop_children()
        name = signal.Signals(number).name
        print(f"annotator: stopped by {name}; {unsaved}", file=sys.stderr)
        end_process(128 + number)

    StopSignals(stop, annotator.window)


def end_process(status: int) -> NoReturn:
    """End the process once its window has closed, without tearing down what it held.

    What must outlive the window is done by then: the settings synced and the journal released as it
    closed, its child processes told to stop (stop_children), every task asked to stop (BackgroundTask
    cancels on quit). The workers of the shared pool are waited for, so a write they were asked for (the
    other logs of a replace) is finished; then the process ends. Freeing a big log's tree, Qt's objects
    and the interpreter would take a second more, for nothing."""
    QThreadPool.globalInstance().waitForDone()
    forget_crash_trace()  # os._exit runs no atexit handler
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _end_smoke_test(annotator: Annotator, target: Path | None) -> None:
    """Say what opened and close, dismissing an error box a broken TARGET raised (without saving);
    while the log is still being read, look again a little later."""
    if annotator.controller.opener.busy:
        QTimer.singleShot(50, lambda: _end_smoke_test(annotator, target))
        return
    dialog = QApplication.activeModalWidget()
    if dialog is not None:
        dialog.close()
    document = annotator.controller.document
    opened = document is not None and target is not None and document.path.resolve() == _log_in(target)
    turns = sum(len(s.turns) for s in document.sessions) if document else 0
    print(f"smoke test: opened={opened} turns={turns} path={target}", flush=True)
    annotator.controller.undo_stack.setClean()
    annotator.window.close()


def _log_in(target: Path) -> Path:
    from annotator.corpus.paths import expand_log_paths

    logs = expand_log_paths([target]) if target.is_dir() else [target]
    return logs[0].resolve() if logs else target.resolve()
