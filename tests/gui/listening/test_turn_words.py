"""The shown turn's words placed on its audio in the real window (annotator/gui/listening/turn_words.py,
word_marks.py, gui/annotating/word_marks_in_editor.py): aligned in the background as the turn is selected, drawn
on the waveform and the spectrogram, taken from the alignment cache when the turn comes back, placed again once
a transcription is stored, and the words the aligner is unsure of underlined. Real espeak-ng speech, real
pocketsphinx, real key events."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCharFormat

from annotator.audio.loudness import meter_loaded
from annotator.corpus_index.location import alignment_cache_file
from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text
from tests.support.spoken_log import TEXTS, UNSURE_WORD

pytestmark = [pytest.mark.slow, pytest.mark.qt_floor]
ALIGNED_WITHIN_S = 1.0  # for a five-second turn (docs/words.md, "In the window")
FROM_THE_CACHE_WITHIN_S = 0.2


def _placed(qtbot, window) -> list[str]:
    turn_words = parts_of(window).words.turn_words
    qtbot.waitUntil(lambda: bool(turn_words.words) and not turn_words.aligning, timeout=15_000)
    return [word.text for word in turn_words.words]


def test_the_selected_turns_words_are_drawn_on_the_waveform_and_the_spectrogram_within_a_second(
    make_window, spoken_log, qtbot
):
    window = make_window(spoken_log)
    parts = parts_of(window)
    assert _placed(qtbot, window) == TEXTS[0].split()  # the first turn of a window: its aligner starts meanwhile
    # The window's other one-time work at its first clip (the loudness meter's import, a second of CPU) done too.
    qtbot.waitUntil(lambda: meter_loaded() and not parts.playback.preparing, timeout=15_000)
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert parts.playback.clip.duration > 4.5, "the turn lasts about five seconds"
    assert _placed(qtbot, window) == TEXTS[1].split()
    assert parts.words.turn_words.aligned_in < ALIGNED_WITHIN_S
    parts.actions.spectrogram.trigger()  # the spectrogram shown too: the same words on it
    words = parts.words.turn_words.words
    for view in (parts.audio_panel.waveform, parts.audio_panel.spectrogram):
        assert [label.toPlainText() for label in view.words.labels] == TEXTS[1].split()
        assert [label.pos().x() for label in view.words.labels] == [word.start for word in words]
        edges, _ = view.words.boundaries.getData()
        assert set(np.round(edges, 6)) == {round(edge, 6) for word in words for edge in (word.start, word.end)}


def test_a_turn_selected_again_comes_from_the_cache_at_once(make_window, spoken_log, qtbot):
    window = make_window(spoken_log)
    turn_words = parts_of(window).words.turn_words
    _placed(qtbot, window)
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert _placed(qtbot, window) == TEXTS[1].split()
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert _placed(qtbot, window) == TEXTS[0].split()
    assert turn_words.aligned_in < FROM_THE_CACHE_WITHIN_S
    assert alignment_cache_file().exists(), "kept in the user's cache, beside the corpus index"


def _underlined(window) -> list[str]:
    return [
        selection.cursor.selectedText()
        for selection in parts_of(window).editor.text.extraSelections()
        if selection.format.underlineStyle() != QTextCharFormat.UnderlineStyle.NoUnderline
    ]


def test_words_the_aligner_is_unsure_of_are_underlined_on_the_waveform_and_in_the_editor(
    make_window, spoken_log, qtbot
):
    window = make_window(spoken_log)
    assert _placed(qtbot, window) == TEXTS[0].split()
    unsure = [word.text for word in parts_of(window).words.turn_words.words if word.unsure]
    assert unsure == [UNSURE_WORD]
    labels = parts_of(window).audio_panel.waveform.words.labels
    assert [label.textItem.toHtml().count("text-decoration: underline") > 0 for label in labels] == [
        text == UNSURE_WORD for text in TEXTS[0].split()
    ]
    assert _underlined(window) == []  # the editor is empty: nothing typed holds the placed words yet
    press(qtbot, window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)  # start from the recognizer's text
    assert _underlined(window) == [UNSURE_WORD]
    press(qtbot, window, Qt.Key.Key_Tab)  # stored as it is: the editor shows the stored text again, same words
    assert parts_of(window).navigator.current_turn().transcription == TEXTS[0]
    assert _underlined(window) == [UNSURE_WORD]
    parts_of(window).editor.focus_text()
    type_text(qtbot, window, " please")  # other words than those placed: their marks would be wrong
    assert _underlined(window) == []


def test_a_stored_transcription_is_placed_again(make_window, spoken_log, qtbot):
    window = make_window(spoken_log)
    assert UNSURE_WORD in _placed(qtbot, window)
    parts_of(window).editor.focus_text()
    type_text(qtbot, window, "no I said Seattle not Chicago")
    press(qtbot, window, Qt.Key.Key_Tab)  # leaving the editor stores the transcription
    assert parts_of(window).navigator.current_turn().transcription == "no I said Seattle not Chicago"
    turn_words = parts_of(window).words.turn_words
    qtbot.waitUntil(lambda: [word.text for word in turn_words.words] == "no I said Seattle not Chicago".split())
    assert not any(word.unsure for word in turn_words.words)
