"""The placed words in the transcription editor: the word being heard shaded as the turn plays (or as it is
walked word by word), the words the aligner is unsure of underlined. Only while the editor's text has the words
that were placed, in the same order: once the annotator types other words, the marks go until the new text is
stored and placed."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QTextEdit

from annotator.alignment.words import text_words, word_places
from annotator.gui.annotating.transcription_editor import TranscriptionEditor
from annotator.gui.listening.turn_words import TurnWords
from annotator.gui.listening.word_playing import WordPlaying
from annotator.gui.theme import theme_changes, theme_colour


class WordMarksInEditor(QObject):
    """Owned by the editor: its marks stop following the words, the playing and the theme with it."""

    def __init__(self, editor: TranscriptionEditor, turn_words: TurnWords, word_playing: WordPlaying):
        super().__init__(editor)
        self.editor, self.turn_words, self.word_playing = editor, turn_words, word_playing
        # The editor shows a turn's text with its signals blocked, and says so by pending_text_changed: the marks'
        # cursors would otherwise stay on the text it replaced.
        for signal in (
            turn_words.changed,
            editor.text.textChanged,
            editor.pending_text_changed,
            theme_changes().changed,
        ):
            signal.connect(self.show)
        word_playing.heard_changed.connect(self._heard_changed)

    def _heard_changed(self, _heard: int | None) -> None:
        self.show()

    def places(self) -> list[tuple[int, int]] | None:
        """Where each placed word is in the editor's text, or None when its words are not those placed."""
        text = self.editor.text.toPlainText()
        placed = [word.text for word in self.turn_words.words]
        if not placed or [word.text for word in text_words(text)] != placed:
            return None
        return word_places(text)

    def show(self) -> None:
        places = self.places()
        selections = []
        if places is not None:
            heard = self.word_playing.heard
            for index, (word, (start, end)) in enumerate(zip(self.turn_words.words, places)):
                if not word.unsure and index != heard:
                    continue
                form = QTextCharFormat()
                if word.unsure:
                    form.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
                if index == heard:
                    form.setBackground(theme_colour("heard_word"))
                    form.setProperty(QTextFormat.Property.FullWidthSelection, False)
                selections.append(self._selection(start, end, form))
        self.editor.text.setExtraSelections(selections)

    def _selection(self, start: int, end: int, form: QTextCharFormat) -> QTextEdit.ExtraSelection:
        cursor = QTextCursor(self.editor.text.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = form
        return selection
