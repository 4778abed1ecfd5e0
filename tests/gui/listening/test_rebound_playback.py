"""A rebound Play key plays the turn's audio for real while typing in the editor: through PortAudio into
an ALSA file device, in a fresh interpreter (tests/gui/listening/test_playback_gui.py says why)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.audio import load_audio
from tests.support.audio_sandbox import AudioSandbox
from tests.support.sounds import assert_played_exactly
from tests.support.window_script import UNTIL_STOPPED, WINDOW_PRELUDE

# Ctrl+A: a key the editor would keep for itself (select all) unless the window's keys are let through.
WINDOW_SCRIPT = (
    WINDOW_PRELUDE
    + UNTIL_STOPPED
    + """keys = parts_of(window).preferences.keys
keys.save({{**keys.effective, "play_pause": ("Ctrl+A",)}})
focus = QApplication.focusWidget()
QTest.keyClicks(focus, "hello")
QTest.keyClick(focus, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
old_key_played = parts_of(window).playback.player.state.name
QTest.keyClick(focus, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
states = until_stopped()
report(turn=parts_of(window).navigator.current_turn().id, focus=type(focus).__name__, states=sorted(states),
       old_key_played=old_key_played, selected=focus.textCursor().selectedText(),
       clip=str(parts_of(window).playback.clip.path))
parts_of(window).playback.close()
parts_of(window).controller.pending_edit_flushers.clear()  # close without asking about the typing
parts_of(window).controller.typing_sources.clear()
parts_of(window).controller.undo_stack.setClean()
window.close()
"""
)


@pytest.mark.slow
def test_a_rebound_play_key_plays_the_turns_audio_while_typing(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    settings = tmp_path / "settings"  # the isolated settings folder (tests/gui/conftest.py)
    result = audio_sink.run(WINDOW_SCRIPT.format(settings=str(settings), log=str(annotated_log)))
    assert result["turn"] == "2" and "Edit" in result["focus"], "the key was pressed while typing"
    assert result["old_key_played"] == "STOPPED", "Ctrl+Space no longer plays"
    assert result["states"] == ["PLAYING", "STOPPED"] and result["selected"] == ""
    source = annotated_log.parent / "travel-20261121-001-turn02-user.wav"
    assert Path(result["clip"]) == source.resolve()
    assert_played_exactly(load_audio(source).samples, audio_sink.read_played())
