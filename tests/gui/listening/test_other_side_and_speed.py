"""Two playback promises of the real window: "Play the other side" (Ctrl+Shift+O) plays once and
leaves Ctrl+Space to the turn's own audio; a speed chosen before rubberband-cli was installed
takes effect once it is, and says again why not until then.

Played for real into an ALSA file device, in a fresh interpreter per test (tests/support/audio_sandbox.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.audio import load_audio, stretch_available
from annotator.gui.app import parts_of
from tests.support.audio_sandbox import AudioSandbox
from tests.support.gui_keys import press
from tests.support.sounds import assert_played_exactly
from tests.support.window_script import PLAY_HELPERS, UNTIL_STOPPED, WINDOW_PRELUDE

Key, Mod = Qt.Key, Qt.KeyboardModifier

OTHER_SIDE_SCRIPT = (
    WINDOW_PRELUDE
    + UNTIL_STOPPED
    + PLAY_HELPERS
    + """
parts_of(window).navigator.select_row(0)  # the greeting: the moves below start there
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # the first user turn, 2
key(Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
other = str(playback.clip.path)
until_stopped()
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
own = str(playback.clip.path)
until_stopped()
report(turn=parts_of(window).navigator.current_turn().id, other=other, own=own, own_again=playback.plays_own_audio,
       checkable=window.action_table.other_side.isCheckable())
playback.close()
window.close()
"""
)


@pytest.mark.slow
def test_other_side_plays_the_prompt_once_then_ctrl_space_plays_the_turn(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    result = audio_sink.run(OTHER_SIDE_SCRIPT.format(settings=str(tmp_path / "settings"), log=str(annotated_log)))
    folder = annotated_log.parent
    assert result["turn"] == "2" and result["checkable"] is False
    assert Path(result["other"]) == (folder / "travel-20261121-001-turn01-system.wav").resolve()
    assert Path(result["own"]) == (folder / "travel-20261121-001-turn02-user.wav").resolve()
    assert result["own_again"] is True
    assert_played_exactly(load_audio(folder / "travel-20261121-001-turn02-user.wav").samples, audio_sink.read_played())


@pytest.mark.slow
def test_other_side_with_nothing_to_play_says_why(make_window, annotated_log: Path, qtbot):
    text = annotated_log.read_text(encoding="utf-8").replace('type="audio_output"', 'type="speech_output"')
    annotated_log.write_text(text, encoding="utf-8")
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    assert parts_of(window).navigator.current_turn().id == "2"
    press(qtbot, window, Key.Key_O, Mod.ControlModifier | Mod.ShiftModifier)
    assert window.statusBar().currentMessage() == (
        "turn 2: no system speech in this turn or in the system turn before it (turn 1)"
    )
    assert parts_of(window).playback.plays_own_audio


SPEED_SCRIPT = (
    WINDOW_PRELUDE
    + UNTIL_STOPPED
    + PLAY_HELPERS
    + """
bin_dir = {bin_dir!r}
os.environ["PATH"] = bin_dir  # no rubberband here yet
for action in window.menus.speeds.actions():
    if action.data() == 1.5:
        action.trigger()
until_ready()  # the speed is tried on the loaded clip, so its message comes once the clip is
chosen_message = window.statusBar().currentMessage()
parts_of(window).navigator.select_row(0)  # the greeting: the moves below start there
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
play_message = window.statusBar().currentMessage()
until_stopped()
at_1x = player.frames_delivered
os.symlink({tool!r}, os.path.join(bin_dir, "rubberband"))  # the annotator installs rubberband-cli
window.statusBar().clearMessage()
key(Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
until_stopped()
report(chosen=chosen_message, played=play_message, speed=player.speed, ratio=(player.frames_delivered - at_1x) / at_1x,
       after=window.statusBar().currentMessage())
playback.close()
window.close()
"""
)


@pytest.mark.skipif(not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh)")
@pytest.mark.slow
def test_a_speed_chosen_without_rubberband_takes_effect_once_it_is_installed(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = SPEED_SCRIPT.format(
        settings=str(tmp_path / "settings"),
        log=str(annotated_log),
        bin_dir=str(bin_dir),
        tool=shutil.which("rubberband"),
    )
    result = audio_sink.run(script)
    assert "rubberband-cli" in result["chosen"]
    assert result["played"].startswith("Playing at 1×, not 1.5×: ") and "rubberband-cli" in result["played"]
    assert result["speed"] == 1.5 and result["after"] == ""
    assert abs(result["ratio"] - 1 / 1.5) < 0.05
