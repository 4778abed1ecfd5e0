"""The current user turn's n-best alternatives, listed in the editor pane beside the text box.

One paragraph per alternative, wrapped at the pane's width: the key that puts it in the editor (Alt+1 ...
Alt+9), its score where the log has one and its text (annotator.log.nbest reads the list). The alternative equal to
the stored transcription (after the WER's normalisation) is marked. A user turn without a list
says so; on a system turn, or with no turn, the pane is hidden: there is nothing to transcribe.
The pane is text only and never takes the focus, so typing stays in the editor.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QWidget

from annotator.analysis.nbest_oracle import cached_turn_oracle
from annotator.log.elements import Turn
from annotator.log.nbest import Hypothesis, hypotheses
from annotator.log.text import SHOWN_ID_CHARS, shorten

ALTERNATIVE_KEYS = 9  # Alt+1 ... Alt+9
SHOWN_ALTERNATIVE_CHARS = 200  # a line of the pane; the key puts the whole text in the editor
TRUTH_MARKED_UP_TO_CHARS = 10_000  # past this, in the transcription or an alternative, no mark is looked for
NO_LIST_TEXT = "No n-best list in the log for this turn"
TRUTH_MARK = "= transcription"
HEADING = "Alt+k puts alternative k in the editor"
TOOLTIP_TITLE = "N-best list: each alternative and its score"
HEADING_HTML = "Alt+<i>k</i> puts alternative <i>k</i> in the editor"
QWIDGETSIZE_MAX = (1 << 24) - 1
SHOWN_LINES = (
    5  # of a longer list the editor makes room for these (the heading and four alternatives); the rest scrolls
)


def alternatives_of(turn: Turn | None) -> tuple[Hypothesis, ...]:
    """The n-best alternatives of a user TURN in rank order; none for a system turn or no turn."""
    if turn is None or turn.speaker == "system":
        return ()
    return hypotheses(turn.facts())


def alternative_refusal(turn: Turn | None, rank: int) -> str | None:
    """Why Alt+RANK cannot fill the editor for TURN, or None when alternative RANK exists."""
    if turn is None:
        return f"Alt+{rank}: no turn is selected"
    name = shorten(turn.id, SHOWN_ID_CHARS)
    if turn.speaker == "system":
        return f"Alt+{rank}: turn {name} is a system turn, with no n-best list"
    found = alternatives_of(turn)
    if not found:
        return f"Alt+{rank}: no n-best list in the log for turn {name}"
    if rank > len(found):
        many = "one alternative" if len(found) == 1 else f"{len(found)} alternatives"
        return f"Alt+{rank}: the n-best list of turn {name} has {many}, no alternative {rank}"
    return None


class NBestPane(QLabel):
    """The alternatives of the turn shown in the editor, as a small rich-text table."""

    shown_changed = Signal()  # another list (or none) is shown: what the pane asks of its area changed

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("nbest_pane")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        # The pane takes its share of the editor's width and wraps its lines to it (a large zoom, a long
        # alternative); its area asks the height that width needs, and scrolls past SHOWN_LINES.
        self.setWordWrap(True)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        # Hidden on a system turn, it keeps its place: the text box beside it would be widened and laid out again
        # at every move between a user turn and a system turn.
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.alternatives: tuple[Hypothesis, ...] = ()
        self.show_turn(None)

    def show_turn(self, turn: Turn | None) -> None:
        if turn is None or turn.speaker == "system":
            self.alternatives = ()
            self.setText("")
            self.setToolTip("")
            self.hide()
            self.shown_changed.emit()
            return
        self.alternatives = alternatives_of(turn)
        truth = self._rank_of_truth(turn) if self.alternatives else None
        self.setText(self._table(truth) if self.alternatives else f"<i>{NO_LIST_TEXT}.</i>")
        self.setToolTip(self._whole_list(truth) if self.alternatives else NO_LIST_TEXT)
        self.show()
        self.shown_changed.emit()

    def _whole_list(self, truth: int | None) -> str:
        """The pane's lines as plain text, none cut at the pane's edge (a narrow window, a large zoom), with the
        alternatives beyond the keys listed too: for the tooltip."""
        lines = [TOOLTIP_TITLE, HEADING]
        for alternative in self.alternatives:
            if alternative.rank == ALTERNATIVE_KEYS + 1:
                lines.append(f"and {len(self.alternatives) - ALTERNATIVE_KEYS} more, beyond the keys:")
            key = f"Alt+{alternative.rank}" if alternative.rank <= ALTERNATIVE_KEYS else str(alternative.rank)
            lines.append(
                f"{key}: {shorten(alternative.text, SHOWN_ALTERNATIVE_CHARS)}"
                + ("" if alternative.score is None else f" ({alternative.score:g})")
                + (f" {TRUTH_MARK}" if alternative.rank == truth else "")
            )
        return "\n".join(lines)

    def _rank_of_truth(self, turn: Turn) -> int | None:
        """The rank of the alternative equal to the transcription, if one is."""
        # The mark needs the transcription's words aligned with each alternative's: a megabyte's would hold the
        # move to the turn for a second.
        long = (
            max(len(text) for text in [turn.transcription or "", *(a.text for a in self.alternatives)])
            > TRUTH_MARKED_UP_TO_CHARS
        )
        oracle = None if long else cached_turn_oracle(turn)
        return oracle.rank_of_truth if oracle is not None else None

    def _table(self, truth: int | None) -> str:
        """One paragraph per alternative, key, score and text, wrapped at the pane's width: a line longer than
        the pane goes on below (the key under the key), never cut at its edge."""
        rows = []
        for alternative in self.alternatives[:ALTERNATIVE_KEYS]:
            score = "" if alternative.score is None else f"&nbsp;&nbsp;{alternative.score:g}"
            mark = f" <b>{TRUTH_MARK}</b>" if alternative.rank == truth else ""
            rows.append(
                f"<p style='margin:0'>Alt+{alternative.rank}{score}&nbsp;&nbsp;"
                f"{html.escape(shorten(alternative.text, SHOWN_ALTERNATIVE_CHARS))}{mark}</p>"
            )
        more = len(self.alternatives) - ALTERNATIVE_KEYS
        tail = f"<p style='margin:0'><i>and {more} more, beyond the keys</i></p>" if more > 0 else ""
        return (
            f"<p style='margin:0'><b>N&#8209;best</b>&nbsp;&nbsp;score&nbsp;&nbsp;{HEADING_HTML}</p>"
            + "".join(rows)
            + tail
        )


class NBestArea(QScrollArea):
    """The pane in a frameless scroll area: the editor makes room for SHOWN_LINES of it at most, a longer
    list scrolls, and the turn table keeps its rows."""

    def __init__(self, pane: NBestPane, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("nbest_area")
        self.pane = pane
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidgetResizable(True)
        self.setWidget(pane)
        self.lines_high = QWIDGETSIZE_MAX
        self.viewport().setAutoFillBackground(False)
        pane.setAutoFillBackground(False)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        # The area's size hint is the pane's, but a request for a new layout from the pane stops at the area's
        # viewport (it has no layout): the editor's layout would keep the hint it read first, the empty pane's
        # zero height, until something else (a zoom) laid it out again.
        pane.shown_changed.connect(self.updateGeometry)

    def sizeHint(self) -> QSize:
        """The pane's lines wrapped at the width the area has (at its own hint's before it is laid out)."""
        if not self.pane.text():
            return QSize(0, 0)
        hint = self.pane.sizeHint()
        width = self.viewport().width() if self.isVisible() else hint.width()
        return QSize(hint.width(), self.pane.heightForWidth(width))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Another width wraps the pane's lines again: the editor is asked the height they now need."""
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        """No higher than the text box beside it (lines_high), nor than SHOWN_LINES of the list."""
        lines = self.pane.fontMetrics().lineSpacing() * SHOWN_LINES
        return QSize(0, min(self.sizeHint().height(), lines, self.lines_high))
