"""The larger transcription editor of the selected turn, with a live word diff and WER.

Edits are committed (as one undoable TranscribeTurn) when they are finished:
on Ctrl+Enter (the window's commit action calls commit()), when the editor
loses focus, and before the editor shows another turn; never per keystroke.
Until then pending_edit() tells the typing (pending_text_changed says when it
may have changed), which the window counts as unsaved work and journals.
The window's keys keep working while the cursor is in here: the text box
lets every key of the action table through to its QAction (play/pause, back,
next turn...), except undo/redo while it has typing of its own to undo.
The live diff is annotator.analysis.word_alignment's, the metrics' own; above
LIVE_DIFF_MAX_WORDS words on either side it says so instead of aligning.
No text freezes the window: a transcription longer than EDITOR_MAX_CHARS is shown by its start,
read-only (Qt lays out a paragraph again at every key, 57 s for a word of a million characters),
a paste that would pass it is refused, lines wrap anywhere, and the diff cuts long words, so no
text widens the window.
Beside the text box, the turn's n-best alternatives (views.nbest_pane); Ctrl+I
(the recognizer's text) and Alt+1..Alt+9 (alternative k) replace the text the same
way, as one edit of the text box that its own Ctrl+Z takes back.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QTextCursor, QTextOption, QUndoStack
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from annotator.analysis.word_alignment import LIVE_DIFF_MAX_WORDS, too_long_to_diff, word_diff
from annotator.gui.annotating.diff_line import DiffLine
from annotator.gui.annotating.diff_text import render_diff, score_text
from annotator.gui.annotating.nbest_pane import NBestArea, NBestPane, alternative_refusal
from annotator.gui.annotating.transcription_text import EDITOR_MAX_CHARS, TranscriptionTextEdit
from annotator.gui.annotating.undo_commands import TranscribeTurn, push_if_changed
from annotator.gui.theme import theme_changes
from annotator.gui.widgets.layout_boundary import LayoutBoundary, text_width_free
from annotator.log.document import AnnotationChange
from annotator.log.elements import Turn
from annotator.log.text import SHOWN_ID_CHARS, clean_text, shorten

NBEST_SHARE = (3, 2)  # of the editor's width: the text box, the n-best pane
LARGEST_LINE_FOR_THREE = 3.0  # times the window's line: a larger zoom keeps two lines of the text box, not three
PREVIEW_CHARS = 1_000  # the start of a longer one that is shown
SHOWN_TEXT_CHARS = 300  # of the recognizer's or the system's text, in the diff line and the placeholder


def keep_size(widget: QWidget) -> None:
    """WIDGET's text keeps its size when the editor's font is zoomed (a size set on a widget is not inherited)."""
    font = QFont(widget.font())
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF())
    else:
        font.setPixelSize(font.pixelSize())
    widget.setFont(font)


class TranscriptionEditor(LayoutBoundary):
    """Header, text box, and the recognizer's words aligned against what is typed."""

    transcription_committed = Signal(object)  # the Turn whose transcription was stored
    pending_text_changed = Signal()  # what pending_edit() returns may have changed
    note_reported = Signal(str)  # for the status bar: why a key changed nothing

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None):
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.auto_prefill = False
        self.read_only = False  # the log is open read-only: nothing can be typed
        self._turn: Turn | None = None
        self._too_long: int | None = None  # the length of the transcription shown cut, past EDITOR_MAX_CHARS

        self.title = text_width_free(QLabel(self))
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.score = text_width_free(QLabel(self))
        self.score.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.text = TranscriptionTextEdit(self)
        self.text.setObjectName("transcription_text")
        self.text.setTabChangesFocus(True)
        self.text.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)  # a long word wraps too
        self.diff = DiffLine(self)
        self.nbest = NBestPane(self)
        self.nbest_area = NBestArea(self.nbest, self)
        font = QFont(self.text.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.set_text_font(font)
        self.hint = QLabel(
            "Ctrl+Enter: store and go to the next turn to transcribe · Ctrl+I: start from "
            "the recognizer's text · F1: every key",
            self,
        )
        self.hint.setEnabled(False)
        self.hint.setWordWrap(True)
        for note in (self.title, self.score, self.diff, self.hint):  # the zoom is for the text typed: these stay
            keep_size(note)

        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.score)
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(header)
        # The alternatives beside the text box, not below it: the editor keeps the height it had, and the turn
        # table its rows on a 1280x720 screen.
        body = QHBoxLayout()
        body.addWidget(self.text, NBEST_SHARE[0])
        body.addWidget(self.nbest_area, NBEST_SHARE[1], Qt.AlignmentFlag.AlignTop)
        layout.addLayout(body, 1)
        layout.addWidget(self.diff)
        layout.addWidget(self.hint)

        self.text.textChanged.connect(self._show_diff)
        theme_changes().changed.connect(self._show_diff)  # the diff's colours are in its rich text
        self.text.textChanged.connect(self.pending_text_changed)
        self.text.focus_lost.connect(self._commit_on_leave)
        self.text.paste_refused.connect(
            lambda length: self.note_reported.emit(
                f"Paste refused: the transcription would be {length:,} characters, "
                f"too long for the editor ({EDITOR_MAX_CHARS:,} at most)"
            )
        )
        self.set_turn(None)

    # --- what is shown -----------------------------------------------------
    @property
    def turn(self) -> Turn | None:
        return self._turn

    def set_text_font(self, font: QFont) -> None:
        """Type in FONT (a zoom), the box three of its lines high (two at the largest zooms); the editor grows to what
        it needs now."""
        self.text.setFont(font)
        spacing = self.text.fontMetrics().lineSpacing()
        lines = 3 if spacing <= LARGEST_LINE_FOR_THREE * QFontMetrics(QApplication.font()).lineSpacing() else 2
        self.text.setMinimumHeight(spacing * lines + 12)
        self.nbest_area.lines_high = self.text.minimumHeight()
        self.setMinimumSize(0, 0)
        self._keep_height()

    def set_passthrough_keys(self, keys: list[QKeySequence]) -> None:
        self.text.passthrough_keys = list(keys)

    def set_turn(self, turn: Turn | None) -> None:
        """Show TURN, after committing what was typed for the turn shown before."""
        if turn is not None and turn == self._turn:
            return
        self.commit_pending()
        if turn is None or self._turn is None or turn.session != self._turn.session:
            self.setMinimumSize(0, 0)  # another session grows the editor to its own longest n-best list
        self._turn = turn
        self._reflect()

    def set_read_only(self, read_only: bool) -> None:
        if read_only == self.read_only:
            return
        self.commit_pending()
        self.read_only = read_only
        self._reflect()

    def _reflect(self) -> None:
        turn = self._turn
        editable_turn = turn if turn is not None and turn.speaker != "system" else None
        editable = editable_turn is not None
        if turn is None:
            self.title.setText("<b>No turn selected</b>")
        else:
            side = turn.speaker or "unknown side"
            self.title.setText(f"<b>Turn {html.escape(shorten(turn.id, SHOWN_ID_CHARS))}</b> · {html.escape(side)}")
        text = (editable_turn.transcription or "") if editable_turn is not None else ""
        prefill = (
            editable_turn.asr_text
            if editable_turn is not None and not text and self.auto_prefill and not self.read_only
            else None
        )
        shown = prefill or text  # the recognizer's text where there is one to pre-fill with
        self._too_long = len(shown) if len(shown) > EDITOR_MAX_CHARS else None
        self.text.blockSignals(True)
        self.text.setPlainText(shown if self._too_long is None else shown[:PREVIEW_CHARS])
        self.text.document().setModified(False)
        self.text.moveCursor(
            QTextCursor.MoveOperation.End if self._too_long is None else QTextCursor.MoveOperation.Start
        )
        self.text.blockSignals(False)
        self.text.setReadOnly(not editable or self.read_only or self._too_long is not None)
        self.text.setEnabled(editable)
        if turn is None:
            self.text.setPlaceholderText("")
        elif editable:
            self.text.setPlaceholderText("Type what the user said…")
        else:
            self.text.setPlaceholderText(
                "A system turn: nothing to transcribe. System said: "
                + shorten(turn.system_text or "—", SHOWN_TEXT_CHARS)
            )
        self.nbest.show_turn(turn)
        self._show_diff()
        self._keep_height()
        self.pending_text_changed.emit()

    def _keep_height(self) -> None:
        """Grow to what the turn shown needs (a longer n-best list, a longer word in the diff), never shrink back on
        the next turn of the session: the turn table above would change height at every move, and be laid out and
        repainted whole, and the window would be laid out again (see LayoutBoundary)."""
        needed = self.minimumSizeHint()
        screen = self.screen()
        room = screen.availableGeometry().size() / 2 if screen is not None else needed
        height = min(needed.height(), room.height())  # never higher than half the screen: the window would grow past it
        if height > self.minimumHeight():
            self.setMinimumHeight(height)
        width = min(needed.width(), room.width())
        if width > self.minimumWidth():  # never wider than half the screen, whatever a text asks
            self.setMinimumWidth(width)

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        """Reflect a change made elsewhere (table cell, undo) unless the annotator is typing here."""
        if change.turn is not None and change.turn == self._turn and not self.text.document().isModified():
            self._reflect()

    # --- committing --------------------------------------------------------
    @property
    def has_pending_edit(self) -> bool:
        return self._pending_text() is not None and self.text.document().isModified()

    def pending_edit(self) -> tuple[Turn, str | None] | None:
        """The turn and the value a commit would store (None: remove), while there is typing not yet stored."""
        turn = self._turn
        if turn is None or not self.has_pending_edit:  # no turn, no typing
            return None
        return turn, self._pending_text() or None

    def _pending_text(self) -> str | None:
        """The typed text if it differs from the stored transcription, else None."""
        if self._turn is None or self.text.isReadOnly():
            return None
        typed = clean_text(self.text.toPlainText())
        return typed if typed != (self._turn.transcription or "") else None

    def commit(self) -> bool:
        """Store the text as the turn's transcription (Ctrl+Enter): True if that changed anything."""
        turn = self._turn
        if turn is None or self._pending_text() is None:  # no turn, no typing
            self.text.document().setModified(False)
            return False
        self.text.document().setModified(False)
        pushed = push_if_changed(self.undo_stack, TranscribeTurn(turn, self.text.toPlainText()))
        self.pending_text_changed.emit()
        if pushed:
            self.transcription_committed.emit(turn)
        return pushed

    def commit_pending(self) -> bool:
        """Store what the annotator typed (nothing if they typed nothing, e.g. an untouched pre-fill)."""
        return self.commit() if self.has_pending_edit else False

    def _commit_on_leave(self) -> None:
        self.commit_pending()

    def prefill_from_recognizer(self) -> bool:
        """Replace the text with the recognizer's (undoable with Ctrl+Z in the editor)."""
        turn = self._turn
        if turn is None or self.text.isReadOnly() or not turn.asr_text:
            return False
        if len(turn.asr_text) > EDITOR_MAX_CHARS:
            self.note_reported.emit(
                f"Ctrl+I: the recognizer's text has {len(turn.asr_text):,} characters, "
                f"more than the editor takes ({EDITOR_MAX_CHARS:,})"
            )
            return False
        return self._replace_text(turn.asr_text)

    def fill_with_alternative(self, rank: int) -> bool:
        """Replace the text with the n-best alternative of RANK (Alt+RANK), one edit undoable like Ctrl+I's;
        where there is none (or the log is read-only) change nothing and say why (note_reported)."""
        turn = self._turn
        refusal = alternative_refusal(turn, rank)
        if refusal is None and self.text.isReadOnly():
            refusal = f"Alt+{rank}: the log is open read-only"
        if refusal is not None:
            self.note_reported.emit(refusal)
            return False
        return self._replace_text(self.nbest.alternatives[rank - 1].text)

    def set_draft(self, text: str) -> bool:
        """TEXT in the editor as typing not yet stored (a restored draft): unsaved until a commit stores it."""
        turn = self._turn
        if turn is None or turn.speaker == "system" or self.text.isReadOnly():
            return False
        return self._replace_text(text)

    def _replace_text(self, text: str) -> bool:
        """TEXT in place of the editor's, as one edit of the text box (its Ctrl+Z restores the text before)."""
        cursor = self.text.textCursor()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        self.text.setTextCursor(cursor)
        self.text.document().setModified(True)
        self.pending_text_changed.emit()
        return True

    def focus_text(self) -> None:
        if self.text.isEnabled():
            self.text.setFocus(Qt.FocusReason.OtherFocusReason)
            self.text.moveCursor(QTextCursor.MoveOperation.End)

    # --- the live diff -----------------------------------------------------
    def _show_diff(self) -> None:
        turn = self._turn
        heard = turn.asr_text if turn is not None else None
        typed = self.text.toPlainText() if self.text.isEnabled() else ""
        if turn is None or turn.speaker == "system":
            self.diff.setText("")
            self.score.setText("")
            return
        if self._too_long is not None:
            self.diff.setText(
                f"<i>This transcription has {self._too_long:,} characters: the editor shows its start, "
                f"read-only (it takes up to {EDITOR_MAX_CHARS:,}); change it with Replace (Ctrl+H).</i>"
            )
            self.score.setText("")
            return
        if heard is None:
            self.diff.setText("<i>No recognizer text to compare with.</i>")
            self.score.setText("")
            return
        if len(heard) > EDITOR_MAX_CHARS:  # reading its words alone takes a quarter of a second at a megabyte
            self.diff.setText(
                f"<i>The recognizer's text has {len(heard):,} characters: too long to compare while "
                f"typing (the editor takes {EDITOR_MAX_CHARS:,}).</i>"
            )
            self.score.setText("")
            return
        if not clean_text(typed):
            self.diff.setText(f"Recognizer heard: {html.escape(shorten(heard, SHOWN_TEXT_CHARS))}")
            self.score.setText("")
            return
        too_long = too_long_to_diff(typed, heard)
        if too_long is not None:  # the alignment's cost grows with the product of the lengths
            self.diff.setText(
                f"<i>{too_long:,} words: too long to compare while typing "
                f"(the live diff stops at {LIVE_DIFF_MAX_WORDS:,} words).</i>"
            )
            self.score.setText("")
            return
        diff = word_diff(typed, heard)
        self.diff.setText(render_diff(diff))
        self.score.setText(score_text(diff))
