"""Playing a turn word by word in the real window, for real: a mouse click on a word in the strip along the top
of the waveform plays exactly that word, and Playback > Play next word (Alt+Right) and Play previous word
(Alt+Left), pressed in the transcription editor, walk the turn a word at a time. What PortAudio plays lands in
the tests' ALSA file device (tests/support/audio_sandbox.py), which starts its file again each time the player
opens the device: the window's script keeps a copy after each step, and each must hold that word's samples of
the turn's file, whole, and nothing else. The word heard is marked in the editor.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.audio import load_audio
from tests.support.audio_sandbox import AudioSandbox
from tests.support.sounds import assert_played_exactly, read_played
from tests.support.window_script import PLAY_HELPERS, UNTIL_STOPPED, WINDOW_PRELUDE

WALK_SCRIPT = (
    WINDOW_PRELUDE
    + UNTIL_STOPPED
    + PLAY_HELPERS
    + """
import shutil
from PySide6.QtCore import QPointF
parts = parts_of(window)
if parts.actions.normalise_loudness.isChecked():
    parts.actions.normalise_loudness.trigger()  # the samples played are then the file's own
turn_words = parts.words.turn_words
while turn_words.aligning or not turn_words.words:
    app.processEvents()
    time.sleep(0.005)
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 1: five seconds of speech
while turn_words.aligning or not turn_words.words:
    app.processEvents()
    time.sleep(0.005)
until_ready()
key(Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)  # the recognizer's words in the editor: their marks show there
words = [(word.text, word.start, word.end) for word in turn_words.words]
played, marked = [], []

def heard_in_the_editor():
    return [s.cursor.selectedText() for s in parts.editor.text.extraSelections() if s.format.background().style() != Qt.BrushStyle.NoBrush]

def after(step):
    until_stopped()  # the stream is closed: the device's file holds what this step played, and only that
    played.append(parts.words.heard)
    marked.append(heard_in_the_editor())
    shutil.copyfile({played!r}, f"{played}-{{len(played)}}")

waveform = parts.audio_panel.waveform
box = waveform.view_box
middle = (words[{clicked}][1] + words[{clicked}][2]) / 2
in_strip = QPointF(box.mapViewToScene(QPointF(middle, 0.0)).x(), box.sceneBoundingRect().top() + 3)
QTest.mouseClick(waveform.plot.viewport(), Qt.MouseButton.LeftButton, pos=waveform.plot.mapFromScene(in_strip))
after("click")
for step in {steps!r}:
    key(Qt.Key.Key_Right if step > 0 else Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    after(step)
report(words=words, played=played, marked=marked, focus=type(QApplication.focusWidget()).__name__,
       message=window.statusBar().currentMessage())
parts.playback.close()
parts.controller.pending_edit_flushers.clear()  # the recognizer's words in the editor are not work to keep
parts.controller.typing_sources.clear()
parts.controller.undo_stack.setClean()
window.close()
"""
)


@pytest.mark.slow
def test_a_click_on_a_word_and_alt_right_alt_left_play_exactly_those_words(
    audio_sink: AudioSandbox, spoken_log: Path, tmp_path: Path
):
    clicked, steps = 2, [+1, +1, -1, -1, -1]
    settings = tmp_path / "settings"  # the window's own, made by the tests' isolated settings
    script = WALK_SCRIPT.format(
        settings=str(settings), log=str(spoken_log), clicked=clicked, steps=steps, played=str(audio_sink.played)
    )
    result = audio_sink.run(script)
    expected = [2, 3, 4, 3, 2, 1]
    assert result["played"] == expected, result["message"]
    assert "Edit" in result["focus"], "Alt+Right and Alt+Left were pressed while typing"
    words = result["words"]
    assert result["marked"] == [[words[index][0]] for index in expected]
    source = load_audio(spoken_log.parent / "u1.wav")
    frames = len(source.samples)
    for step, index in enumerate(expected, start=1):
        _, start, end = words[index]
        word = source.samples[round(start / source.duration * frames) : round(end / source.duration * frames)]
        assert_played_exactly(word, read_played(Path(f"{audio_sink.played}-{step}")))
