"""The switches of the Navigate, Annotate and Playback menus that change how the navigator works: auto-play
after Ctrl+Enter, the most doubtful turn first, pre-filling the editor with what the recognizer heard."""

from __future__ import annotations

from annotator.gui.annotating.navigation import Navigator
from annotator.gui.settings import DOUBT_ORDER, LOG_ORDER, AppSettings


class MenuSwitches:
    def __init__(self, navigator: Navigator, settings: AppSettings):
        self.navigator, self.settings = navigator, settings

    def set_auto_play(self, on: bool) -> None:
        self.settings.auto_play = on

    def set_doubtful_first(self, on: bool) -> None:
        self.settings.next_turn_order = DOUBT_ORDER if on else LOG_ORDER
        if on:
            self.navigator.doubtful_sessions.prepare()

    def set_prefill_automatically(self, on: bool) -> None:
        self.settings.prefill_automatically = on
        self.navigator.editor.auto_prefill = on
