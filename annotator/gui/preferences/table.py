"""Every setting the Preferences dialog shows, one row each: the dialog's pages and widgets are made
from this table, so a new setting is one row here (and its Setting in gui/settings.py).

KIND picks the widget (gui/preferences/widgets.py): "check" (bool), "number" (float or int, within
MINIMUM..MAXIMUM by STEP, with SUFFIX; SPECIAL names the minimum when it means "none"), "choice"
(CHOICES: (value, label)), "name" (an annotator name, team/names.py) and "folder".
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.gui.actions import SPEEDS
from annotator.gui.settings import DOUBT_ORDER, LOG_ORDER, AppSettings

PAGES = ("Playback", "Editor", "Appearance", "Team", "Paths")


@dataclass(frozen=True)
class Preference:
    name: str  # the AppSettings attribute
    page: str
    label: str
    kind: str
    minimum: float = 0
    maximum: float = 0
    step: float = 1
    decimals: int = 0
    suffix: str = ""
    special: str = ""
    choices: tuple[tuple[object, str], ...] = ()

    @property
    def default(self):
        return getattr(AppSettings, self.name).default

    @property
    def tip(self) -> str:
        return getattr(AppSettings, self.name).doc


PREFERENCES: tuple[Preference, ...] = (
    Preference("auto_play", "Playback", "Auto-play the next turn after Ctrl+Enter", "check"),
    Preference("rewind_on_resume", "Playback", "Rewind on resume", "number", 0, 10, 0.5, 1, " s", special="off"),
    Preference("back_seconds", "Playback", "Playback > Back jumps", "number", 0.5, 30, 0.5, 1, " s"),
    Preference("speed", "Playback", "Speed", "choice", choices=tuple((s, f"{s:g}\u00d7") for s in SPEEDS)),
    Preference("normalise_loudness", "Playback", "Normalise loudness (BS.1770)", "check"),
    Preference("loudness_target", "Playback", "Loudness target", "number", -40, -10, 1, 1, " LUFS"),
    Preference("pause_while_typing", "Playback", "Pause while typing", "check"),
    Preference("place_words", "Playback", "Place each turn's words on its audio", "check"),
    Preference("typing_idle_seconds", "Playback", "Resume after typing stops for", "number", 0.2, 10, 0.1, 1, " s"),
    Preference("editor_font_size", "Editor", "Font size", "number", 0, 48, 1, 0, " pt", special="system"),
    Preference("prefill_automatically", "Editor", "Pre-fill untranscribed turns with the recognizer text", "check"),
    Preference(
        "next_turn_order",
        "Editor",
        "Ctrl+Enter goes to",
        "choice",
        choices=(
            (LOG_ORDER, "the next user turn in the log"),
            (DOUBT_ORDER, "the most doubtful turn still to transcribe"),
        ),
    ),
    Preference(
        "theme",
        "Appearance",
        "Theme",
        "choice",
        choices=(("system", "follow the desktop"), ("light", "light"), ("dark", "dark")),
    ),
    Preference("zoom", "Appearance", "Text size of the table and editor", "number", 50, 300, 10, 0, " %"),
    Preference("annotator_name", "Team", "Annotator name (empty: your login name)", "name"),
    Preference("journal_folder", "Paths", "Recovery journal folder (empty: the data folder)", "folder"),
)


def on_page(page: str) -> list[Preference]:
    return [preference for preference in PREFERENCES if preference.page == page]
