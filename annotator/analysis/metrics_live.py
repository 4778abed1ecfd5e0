"""A session's metrics kept up to date change by change, for a window that shows them while the
annotator types: the session is walked once (session_metrics_parts), then each AnnotationChange
moves only what the changed turn contributes (its words, its WER counts, its concept counts) in the sums the metrics
are made of, so a Ctrl+Enter on a session of 70,000 turns costs the same as on one of ten.

    live = LiveMetrics(session)
    live.on_change(change)  # every AnnotationChange of the session, after the tree holds it
    live.metrics            # equal to session_metrics(session) at every moment
"""

from __future__ import annotations

from annotator.analysis import metrics_values as compute
from annotator.analysis.concept_metrics import cached_turn_concept_counts, set_concept_values
from annotator.analysis.metrics import SessionMetrics, session_metrics_parts
from annotator.analysis.metrics_wer import cached_turn_wer_counts
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session, Turn
from annotator.log.text import normalize_words

# What a transcription moves (task_completion is the one a task completion moves).
TRANSCRIPTION_METRICS = ("mean_user_words_per_turn", "user_words_to_completion", "word_error_rate")


class LiveMetrics:
    def __init__(self, session: Session):
        self.session = session
        self._parts = session_metrics_parts(session)

    @property
    def metrics(self) -> SessionMetrics:
        return self._parts.metrics

    def on_change(self, change: AnnotationChange) -> bool:
        """Follow CHANGE; False when it is about another session (nothing moved)."""
        if change.session is not self.session:
            return False
        metrics = self._parts.metrics
        if change.kind == "task_completion":
            metrics.reasons.pop("task_completion", None)
            compute.task_completion(metrics, self.session)
        elif change.kind == "concepts" and change.turn is not None:
            self._move_concepts(change.turn)
        elif change.turn is not None:
            for turn in self.session.document.facts_cache.turns_sharing_key(change.turn):
                self._move_turn(turn)
            for name in TRANSCRIPTION_METRICS:
                metrics.reasons.pop(name, None)
            compute.user_words(metrics, self._parts.scan, self._parts.words)
            compute.word_error_rate(metrics, self._parts.wer)
        return True

    def _move_concepts(self, turn: Turn) -> None:
        """Take the turn's old concept counts out of the session's and put its new ones in."""
        metrics = self._parts.metrics
        old = metrics.turn_concepts.pop(turn.index, None)
        new = cached_turn_concept_counts(turn)
        if new is not None:
            metrics.turn_concepts[turn.index] = new
        set_concept_values(metrics, metrics.concepts.with_turn(old, -1).with_turn(new))

    def _move_turn(self, turn: Turn) -> None:
        """Take the turn's old words and counts out of the sums and put its new ones in."""
        parts, index = self._parts, turn.index
        metrics, words, scan = parts.metrics, parts.words, parts.scan
        if index in words.per_turn:
            words.add(scan, index, words.per_turn[index], -1)
        transcription = turn.transcription
        if transcription is None:
            metrics.turn_transcriptions.pop(index, None)
        else:
            metrics.turn_transcriptions[index] = transcription
            words.add(scan, index, len(normalize_words(transcription)))
        if index in parts.turn_counts:  # a user GC_TURN
            parts.wer.add(parts.turn_counts[index], -1)
            counts, reason = cached_turn_wer_counts(turn)
            parts.wer.add(counts)
            parts.turn_counts[index] = counts
            compute.turn_word_error_rate(metrics, index, counts, reason)
