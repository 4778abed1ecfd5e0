"""Which session Ctrl+Enter goes on with once the shown one has no user turn left to transcribe.

In log order: the first later session of the log with a user turn still to transcribe (the corpus's
next log comes before the log's earlier sessions; the window asks for that itself), then the first
earlier one. Most doubtful first: the session whose most doubtful user turn still to transcribe is
the most doubtful of the log (ties in log order), wherever it is. Each session's untranscribed turns
and doubts are the facts cache's (made once per session and change), so a press costs what those cost.

The first such press needs every session's facts and doubts (linear in the log: about 5 s on a
100 MB log). prepare_doubts makes them on a worker beforehand, so that the press itself only reads
the cache (about 10 ms per 400 sessions).
"""

from __future__ import annotations

from collections.abc import Callable

from annotator.analysis.doubt import DOUBTS, cached_session_doubts, most_doubtful_to_transcribe, session_doubts
from annotator.log.document import LogDocument
from annotator.log.facts_cache import facts_of_session
from annotator.log.gc_pause import gc_paused


def later_session_to_transcribe(document: LogDocument, current: int) -> int | None:
    """The first session after CURRENT with a user turn still to transcribe."""
    cache = document.facts_cache
    return next((session.index for session in document.sessions[current + 1 :] if cache.untranscribed(session)), None)


def earlier_session_to_transcribe(document: LogDocument, current: int) -> int | None:
    """The first session before CURRENT with a user turn still to transcribe."""
    cache = document.facts_cache
    return next(
        (session.index for session in document.sessions[: max(current, 0)] if cache.untranscribed(session)), None
    )


def most_doubtful_session_to_transcribe(document: LogDocument, current: int) -> int | None:
    """The session other than CURRENT holding the most doubtful user turn still to transcribe."""
    best: tuple[float, int] | None = None
    for session in document.sessions:
        if session.index == current:
            continue
        turn = most_doubtful_to_transcribe(session)
        if turn is None:
            continue
        doubt = cached_session_doubts(session)[turn]
        score = doubt.score if doubt is not None else 0.0
        if best is None or score > best[0]:
            best = (score, session.index)
    return None if best is None else best[1]


def prepare_doubts(document: LogDocument, cancelled: Callable[[], bool]) -> bool:
    """Put every session's turn facts and doubts into the document's facts cache, for a worker while the
    window edits: the facts go through FactsCache.adopt (dropped for a session changed during its walk; the
    window then makes them when asked), and the doubts are kept whatever changes, since no annotation
    goes into them. False when CANCELLED() said stop before the end."""
    cache = document.facts_cache
    with gc_paused():  # the facts kept are many and acyclic: collections would walk them again and again
        for session in list(document.sessions):
            if cancelled():
                return False
            revision = document.revision
            facts = facts_of_session(session)
            cache.adopt(session, facts, revision)
            cache.offer_session_value(session, DOUBTS, session_doubts(facts))
    return True
