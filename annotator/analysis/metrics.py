"""Per-session metrics as docs/metrics.md defines them (MITRE's DMA metrics) and
the log standard's Content table.

    metrics = session_metrics(session)
    metrics.values["word_error_rate"]    # a number, a string, or None
    metrics.reasons["word_error_rate"]   # why it is None, or how it was estimated

A value that cannot be computed is None, never 0; `reasons` then says why in
plain words. `reasons` also carries notes on values that are estimates or rest
on part of the data (a fallback source, only some turns transcribed...).
All times are seconds, whatever the log's unit, rounded to the microsecond
(float epoch times carry noise below that).

A "turn" below is a side's turn after collapsing consecutive GC_TURNs of the
same side (side = Turn.speaker: type_new_turn, then type_start_utt, then the
kind of data the turn carries). GC_TURNs with no known side are skipped over.
Words are counted with annotator.log.text.normalize_words everywhere. A turn's
transcription is Turn.transcription (its GC_ANNOT, or a session-level GC_ANNOT
with its turnid); a session's transcriptions are the transcriptions of its turns.

The columns, in SESSION_METRIC_COLUMNS order:

DMA metrics (docs/metrics.md):
- task_completion: the session GC_ANNOT's type_task_completion ("1", "0"...).
- time_to_completion: etime of the last element carrying type_end_task minus
  stime of the first element carrying type_start_task (messages and events use
  their `time` for both).
- turns_to_completion: number of turns of both sides in the session.
- mean_user_words_per_turn: words of all turns' transcriptions / user turns.
- mean_system_words_per_turn: words of all GC_DATA type_utt_text="system" / system turns.
- error_messages, help_messages: system GC_DATA (type_utt_text="system") with
  type_error_msg / type_help_msg "true". None when the whole log marks no such
  messages (the attribute is absent from the log, so 0 would be a guess).
- response_latency: mean over every type_end_utt="user" element of the stime of
  the next element (document order) carrying type_start_utt="system" minus its
  etime. Per turn (by the index of the GC_TURN holding the user end, the mean
  when it holds several) in SessionMetrics.turn_response_latency.
- user_words_to_completion: words of the transcriptions of the GC_TURNs from the
  one holding the start-task element to the one holding the end-task element.
- system_words_to_completion: words of system GC_DATA from the start-task
  element to the end-task element in document order, both included.
- system_reprompts: consecutive type_prompt values (in document order) that repeat the previous one.
- word_error_rate: sum of the S+D+I errors over the sum of reference words, over
  the user GC_TURNs having both a transcription and recognizer text (see
  annotator.analysis.metrics_wer); per GC_TURN in SessionMetrics.turn_wer. Words
  heard against a transcription without words count as insertions in the
  session's errors, though that turn's own rate is None.
- mean_system_utterance_s: each type_start_utt="system" element paired with the
  next type_end_utt="system" element (it may be the same element); mean of end
  etime - start stime. A start followed by another start before any end is dropped.
- mean_system_turn_s: per system turn, its first system start to its last system end; the mean.

The standard's Content table:
- session_duration_s: GC_SESSION etime - stime.
- n_turns: GC_TURN elements in the session (not collapsed).
- n_user_turns, n_system_turns: GC_TURN elements whose side is user / system (not collapsed).
- recognition_s: sum of the durations of virtual operations of type
  recognition_duration; without any, the sum of the durations of the operations
  of servers whose name contains "recogni" (e.g. "recognizer"), with a note.
- synthesis_s: the same with synthesis_duration, else servers whose name contains "synth".
- output_presentation_s: virtual operations of type presentation_duration or
  output_presentation_duration; else the sum of the system utterances
  (type_start_utt="system" .. type_end_utt="system" pairs), with a note.
- parse_success_rate: share of GC_DATA with key ":input_parse_successful" or
  type input_parse_successful whose value is true, 1 or yes.
- time_to_completion_kind: the type_start_task value (total, task or true).

Concepts (annotator.analysis.concept_metrics, docs/metrics.md "Concepts"):
- concept_error_rate: (S + D + I) of the parse's slot/value pairs (the frame name one of them) over the
  reference pairs, summed over the turns with reference concepts; per turn in SessionMetrics.turn_concepts.
- concept_accuracy: 1 - concept_error_rate.
- concept_sentence_accuracy: the share of the turns with reference concepts whose parse is fully right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotator.analysis import metrics_values as compute
from annotator.analysis.concept_metrics import (
    CONCEPT_COLUMNS,
    ConceptCounts,
    SessionConcepts,
    concepts_of_counts,
    facts_concept_counts,
    set_concept_values,
)
from annotator.analysis.metrics_scan import SessionPass, SessionScan
from annotator.analysis.metrics_wer import facts_recognizer_text, turn_wer, turns_wer_counts
from annotator.analysis.word_alignment import WerCounts
from annotator.log.elements import Session
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts

__all__ = ["SESSION_METRIC_COLUMNS", "SessionMetrics", "session_metrics", "turn_wer"]

DMA_COLUMNS = [
    "task_completion",
    "time_to_completion",
    "turns_to_completion",
    "mean_user_words_per_turn",
    "mean_system_words_per_turn",
    "error_messages",
    "help_messages",
    "response_latency",
    "user_words_to_completion",
    "system_words_to_completion",
    "system_reprompts",
    "word_error_rate",
    "mean_system_utterance_s",
    "mean_system_turn_s",
]
CONTENT_COLUMNS = [
    "session_duration_s",
    "n_turns",
    "n_user_turns",
    "n_system_turns",
    "recognition_s",
    "synthesis_s",
    "output_presentation_s",
    "parse_success_rate",
]
SESSION_METRIC_COLUMNS: list[str] = DMA_COLUMNS + CONTENT_COLUMNS + ["time_to_completion_kind"] + CONCEPT_COLUMNS

TIME_COLUMNS = (
    "time_to_completion",
    "response_latency",
    "mean_system_utterance_s",
    "mean_system_turn_s",
    "session_duration_s",
    "recognition_s",
    "synthesis_s",
    "output_presentation_s",
)

Value = float | int | str | None


@dataclass
class SessionMetrics:
    session_id: str
    values: dict[str, Value] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)  # why a value is None, or how it was estimated
    turn_wer: dict[int, float | None] = field(default_factory=dict)  # user GC_TURN index -> WER
    turn_wer_reasons: dict[int, str] = field(default_factory=dict)  # why a turn's WER is None
    turn_response_latency: dict[int, float] = field(default_factory=dict)  # GC_TURN index -> seconds
    wer_errors: int = 0
    wer_reference_words: int = 0
    wer_substitutions: int = 0
    wer_deletions: int = 0
    wer_insertions: int = 0
    turn_groups: list[tuple[str, list[int]]] = field(default_factory=list)  # (side, GC_TURN indices)
    turn_transcriptions: dict[int, str] = field(default_factory=dict)  # GC_TURN index -> Turn.transcription
    turn_concepts: dict[int, ConceptCounts] = field(default_factory=dict)  # GC_TURN index -> its concept counts
    concepts: SessionConcepts = field(default_factory=SessionConcepts)  # the sums of turn_concepts

    def set(self, name: str, value: Value, reason: str | None = None) -> None:
        self.values[name] = value
        if reason:
            self.reasons[name] = reason


def session_metrics(session: Session, walk: SessionPass | None = None) -> SessionMetrics:
    """Every metric of SESSION_METRIC_COLUMNS for one session.

    WALK, if given, is a SessionPass over SESSION that the caller has walked
    (to read the activities in the same pass); else one is made here.
    """
    return session_metrics_parts(session, walk).metrics


@dataclass
class MetricsParts:
    """session_metrics with the sums it was made of, which annotator.analysis.metrics_live moves turn by turn."""

    metrics: SessionMetrics
    scan: SessionScan
    facts: list[TurnFacts]
    words: compute.UserWords
    wer: compute.WerTotals
    turn_counts: dict[int, WerCounts | None]  # user GC_TURN index -> its WER counts


def session_metrics_parts(session: Session, walk: SessionPass | None = None) -> MetricsParts:
    walk = (walk or SessionPass(session)).run()
    facts, scan = walk.facts, walk.scan
    metrics = SessionMetrics(session.id)
    metrics.turn_groups = [(g.side, list(g.turn_indices)) for g in scan.groups]
    metrics.turn_transcriptions = {
        index: turn_facts.transcription
        for index, turn_facts in enumerate(facts)
        if turn_facts.transcription is not None
    }
    transcription_words = {index: normalize_words(text) for index, text in metrics.turn_transcriptions.items()}
    compute.task(metrics, session, scan)
    compute.turns_and_words(metrics, scan)
    words = compute.UserWords.of(scan, transcription_words)
    compute.user_words(metrics, scan, words)
    compute.messages(metrics, session, scan)
    compute.timing(metrics, session, scan)
    compute.content(metrics, session, scan)
    users = [index for index, turn_facts in enumerate(facts) if turn_facts.speaker == "user"]
    results = turns_wer_counts(
        [(transcription_words.get(index), facts_recognizer_text(facts[index])) for index in users]
    )
    wer = compute.WerTotals(len(users))
    turn_counts = {}
    for index, (counts, reason) in zip(users, results):
        compute.turn_word_error_rate(metrics, index, counts, reason)
        wer.add(counts)
        turn_counts[index] = counts
    compute.word_error_rate(metrics, wer)
    metrics.turn_concepts = {
        index: counts
        for index, turn_facts in enumerate(facts)
        if (counts := facts_concept_counts(None, turn_facts)) is not None
    }
    set_concept_values(metrics, concepts_of_counts(metrics.turn_concepts.values()))
    for name in TIME_COLUMNS:
        value = metrics.values.get(name)
        if isinstance(value, float):
            metrics.values[name] = round(value, 6)
    metrics.turn_response_latency = {i: round(v, 6) for i, v in metrics.turn_response_latency.items()}
    metrics.values = {name: metrics.values.get(name) for name in SESSION_METRIC_COLUMNS}
    return MetricsParts(metrics, scan, facts, words, wer, turn_counts)
