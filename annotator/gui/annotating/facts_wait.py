"""What waits for a long session's turn facts: they are made on the panes' worker after the first paint
(gui/panes/session_panes.py, SessionPanes.facts_made), and until then the session bar's progress says it is
counting and a Ctrl+Enter waits for them (saying so in the status bar), instead of making 70,000 turns'
facts on the GUI thread (1.8 s) while the window is meant to answer.
"""

from __future__ import annotations

from collections.abc import Callable

from annotator.gui.opening.opener import is_long
from annotator.log.elements import Session

FINDING_NEXT_TEXT = "Finding the next turn to transcribe…"


class FactsWait:
    """The shown session, while its facts are being made; and the one action waiting for them."""

    def __init__(self) -> None:
        self.session: Session | None = None  # shown, long, and without its index of turns to transcribe yet
        self._waiting: tuple[int, Callable[[], object]] | None = None  # (the row it was asked on, the action)

    @property
    def counting(self) -> bool:
        return self.session is not None

    def follow(self, session: Session | None) -> None:
        """SESSION is shown now (what waited for another one is dropped): it is counted until its facts are
        made when it is long and its index of turns to transcribe is not made yet."""
        self._waiting = None
        waits = (
            session is not None and is_long(session) and not session.document.facts_cache.untranscribed_ready(session)
        )
        self.session = session if waits else None

    def run(self, row: int, action: Callable[[], object], say: Callable[[str], None]) -> bool:
        """ACTION now (True) when nothing is being counted; else False, SAY that the next turn is being found,
        and ACTION once the facts are made, unless the current row is no longer ROW by then."""
        if self.session is None:
            action()
            return True
        self._waiting = (row, action)
        say(FINDING_NEXT_TEXT)
        return False

    def made(self, session: Session, current_row: int) -> Callable[[], object] | None:
        """SESSION's facts are made: the action that waited for them, if it still holds (the annotator
        stayed on the same session and row), else None."""
        if session is not self.session:
            return None
        self.session = None
        waiting, self._waiting = self._waiting, None
        return waiting[1] if waiting is not None and waiting[0] == current_row else None
