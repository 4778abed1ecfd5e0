"""The computation of each session metric from a SessionScan (see annotator.analysis.metrics for the definitions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from annotator.analysis.metrics_scan import DurationSum, SessionScan, TurnGroup
from annotator.analysis.word_alignment import WerCounts
from annotator.log.elements import Session

if TYPE_CHECKING:
    from annotator.analysis.metrics import SessionMetrics


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _side_count(groups: list[TurnGroup], side: str) -> int:
    return sum(1 for g in groups if g.side == side)


def task_completion(metrics: SessionMetrics, session: Session) -> None:
    completion = session.task_completion
    metrics.set(
        "task_completion",
        completion,
        None if completion is not None else "the session has no GC_ANNOT with type_task_completion",
    )


def task(metrics: SessionMetrics, session: Session, scan: SessionScan) -> None:
    task_completion(metrics, session)
    start, end = scan.start_task, scan.end_task
    kind = start.value if start is not None else None
    metrics.set("time_to_completion_kind", kind, None if start else "no element carries type_start_task")
    if start is None:
        metrics.set("time_to_completion", None, "no element carries type_start_task")
    elif end is None:
        metrics.set("time_to_completion", None, "no element carries type_end_task")
    elif end.position < start.position:
        metrics.set(
            "time_to_completion",
            None,
            f"the type_end_task element (line {end.line}) comes before the type_start_task element (line {start.line})",
        )
    elif start.raw_time is None or end.raw_time is None:
        metrics.set("time_to_completion", None, "the task marker elements have no usable times")
    else:
        note = None
        if scan.start_task_count > 1 or scan.end_task_count > 1:
            note = (
                f"{scan.start_task_count} type_start_task and {scan.end_task_count} type_end_task elements: "
                "measured from the first start to the last end"
            )
        metrics.set("time_to_completion", session.unit.to_seconds(end.raw_time - start.raw_time), note)


@dataclass
class UserWords:
    """The words of the turns' transcriptions, summed as the metrics need them; kept up to date one
    turn at a time (add with SIGN -1 takes a turn's old words out) by annotator.analysis.metrics_live."""

    n_user: int  # user turns (collapsed)
    user_gc_turns: int  # GC_TURNs whose side is user
    span: tuple[int, int] | None  # the GC_TURN indices of the task markers, when they make a span
    per_turn: dict[int, int] = field(default_factory=dict)  # GC_TURN index -> words of its transcription
    total: int = 0
    of_user_turns: int = 0  # transcribed GC_TURNs whose side is user
    in_task_span: int = 0

    @classmethod
    def of(cls, scan: SessionScan, transcription_words: dict[int, list[str]]) -> UserWords:
        """TRANSCRIPTION_WORDS: GC_TURN index -> the normalised words of its transcription."""
        span: tuple[int, int] | None = None
        if not _task_span_problem(scan):
            assert scan.start_task is not None and scan.end_task is not None  # _task_span_problem checks both
            span = (scan.start_task.turn_index, scan.end_task.turn_index)
        words = cls(_side_count(scan.groups, "user"), sum(1 for side in scan.sides if side == "user"), span)
        for index, turn_words in transcription_words.items():
            words.add(scan, index, len(turn_words))
        return words

    def add(self, scan: SessionScan, index: int, words: int, sign: int = 1) -> None:
        if sign > 0:
            self.per_turn[index] = words
        else:
            del self.per_turn[index]
        self.total += sign * words
        self.of_user_turns += sign * (scan.sides[index] == "user")
        if self.span is not None and self.span[0] <= index <= self.span[1]:
            self.in_task_span += sign * words


def turns_and_words(metrics: SessionMetrics, scan: SessionScan) -> None:
    """The turns and the system's words (what no annotation changes)."""
    groups = scan.groups
    n_system = _side_count(groups, "system")
    unknown = sum(1 for side in scan.sides if side is None)
    unknown_note = f"{unknown} GC_TURN(s) have no known side and are left out" if unknown else None
    if groups:
        metrics.set("turns_to_completion", len(groups), unknown_note)
    else:
        metrics.set("turns_to_completion", None, "no GC_TURN has a known side (no type_new_turn)")

    if not scan.system_data:
        metrics.set("mean_system_words_per_turn", None, 'no GC_DATA carries type_utt_text="system"')
    elif not n_system:
        metrics.set("mean_system_words_per_turn", None, "the session has no system turn")
    else:
        metrics.set("mean_system_words_per_turn", scan.system_words / n_system)

    start, end = scan.start_task, scan.end_task
    no_span = _task_span_problem(scan)
    if no_span:
        metrics.set("system_words_to_completion", None, no_span)
    elif scan.system_data:
        assert start is not None and end is not None  # _task_span_problem checks both
        metrics.set(
            "system_words_to_completion",
            sum(n for pos, n in scan.system_words_at if start.position <= pos <= end.position),
        )
    else:
        metrics.set("system_words_to_completion", None, 'no GC_DATA carries type_utt_text="system"')


def user_words(metrics: SessionMetrics, scan: SessionScan, words: UserWords) -> None:
    """The metrics of the transcriptions' words: mean_user_words_per_turn, user_words_to_completion."""
    if not words.per_turn:
        metrics.set("mean_user_words_per_turn", None, "no turn has a transcription")
    elif not words.n_user:
        metrics.set("mean_user_words_per_turn", None, "the session has no user turn")
    else:
        transcribed, user_gc_turns = words.of_user_turns, words.user_gc_turns
        note = (
            f"only {transcribed} of {user_gc_turns} user GC_TURNs are transcribed"
            if transcribed < user_gc_turns
            else None
        )
        metrics.set("mean_user_words_per_turn", words.total / words.n_user, note)
    no_span = _task_span_problem(scan)
    if no_span:
        metrics.set("user_words_to_completion", None, no_span)
    elif words.per_turn:
        metrics.set("user_words_to_completion", words.in_task_span)
    else:
        metrics.set("user_words_to_completion", None, "no turn has a transcription")


def _task_span_problem(scan: SessionScan) -> str | None:
    if scan.start_task is None:
        return "no element carries type_start_task"
    if scan.end_task is None:
        return "no element carries type_end_task"
    if scan.end_task.position < scan.start_task.position:
        return "the type_end_task element comes before the type_start_task element"
    return None


def messages(metrics: SessionMetrics, session: Session, scan: SessionScan) -> None:
    for name, count, attribute in (
        ("error_messages", scan.error_messages, "type_error_msg"),
        ("help_messages", scan.help_messages, "type_help_msg"),
    ):
        if not scan.system_data:
            metrics.set(name, None, 'no GC_DATA carries type_utt_text="system"')
        elif count == 0 and not session.document.data_carries(attribute):
            metrics.set(name, None, f"no GC_DATA in the log carries {attribute}, so such messages are not marked")
        else:
            metrics.set(name, count)
    if scan.prompts:
        metrics.set("system_reprompts", scan.reprompts)
    else:
        metrics.set("system_reprompts", None, "no element carries type_prompt")


def timing(metrics: SessionMetrics, session: Session, scan: SessionScan) -> None:
    by_turn: dict[int, list[float]] = {}
    for turn_index, latency in scan.latencies:
        by_turn.setdefault(turn_index, []).append(latency)
    metrics.turn_response_latency = {i: sum(v) / len(v) for i, v in by_turn.items()}
    if not scan.user_utterance_ends:
        metrics.set("response_latency", None, 'no element carries type_end_utt="user"')
    elif not scan.latencies:
        metrics.set(
            "response_latency",
            None,
            'no type_end_utt="user" element is followed by a timed type_start_utt="system" element',
        )
    else:
        unanswered = scan.user_utterance_ends - len(scan.latencies)
        note = f"{unanswered} user utterance end(s) have no later system start and are left out" if unanswered else None
        metrics.set("response_latency", _mean([latency for _, latency in scan.latencies]), note)

    missing = _system_utterance_problem(scan)
    if missing:
        metrics.set("mean_system_utterance_s", None, missing)
        metrics.set("mean_system_turn_s", None, missing)
        return
    if scan.system_utterances:
        unpaired = scan.system_utterance_starts - len(scan.system_utterances)
        note = f"{unpaired} system utterance start(s) have no timed end and are left out" if unpaired else None
        metrics.set("mean_system_utterance_s", _mean(scan.system_utterances), note)
    else:
        metrics.set(
            "mean_system_utterance_s",
            None,
            'no type_start_utt="system" element is followed by a timed type_end_utt="system" element',
        )
    spans = [
        session.unit.to_seconds(g.last_system_end - g.first_system_start)
        for g in scan.groups
        if g.side == "system" and g.first_system_start is not None and g.last_system_end is not None
    ]
    if spans:
        metrics.set("mean_system_turn_s", _mean(spans))
    else:
        metrics.set("mean_system_turn_s", None, "no system turn holds both a timed system start and end")


def _system_utterance_problem(scan: SessionScan) -> str | None:
    if not scan.system_utterance_starts:
        return 'no element carries type_start_utt="system"'
    if not scan.system_utterance_ends:
        return 'no element carries type_end_utt="system"'
    return None


def content(metrics: SessionMetrics, session: Session, scan: SessionScan) -> None:
    duration = session.duration
    metrics.set(
        "session_duration_s", duration, None if duration is not None else "the GC_SESSION has no usable stime and etime"
    )
    metrics.set("n_turns", len(session.turns))
    metrics.set("n_user_turns", sum(1 for side in scan.sides if side == "user"))
    metrics.set("n_system_turns", sum(1 for side in scan.sides if side == "system"))
    _duration_with_fallback(
        metrics,
        "recognition_s",
        scan.recognition_virtual,
        "recognition_duration",
        scan.recognizer_operations,
        'operations of servers whose name contains "recogni"',
    )
    _duration_with_fallback(
        metrics,
        "synthesis_s",
        scan.synthesis_virtual,
        "synthesis_duration",
        scan.synthesizer_operations,
        'operations of servers whose name contains "synth"',
    )
    if scan.presentation_virtual.count:
        metrics.set("output_presentation_s", scan.presentation_virtual.total)
    elif scan.system_utterances:
        metrics.set(
            "output_presentation_s",
            sum(scan.system_utterances),
            'estimated from the system utterances (type_start_utt/type_end_utt="system"): '
            "no presentation_duration virtual operations",
        )
    else:
        metrics.set(
            "output_presentation_s",
            None,
            'no presentation_duration virtual operations and no timed type_start_utt/type_end_utt="system" pairs',
        )
    if scan.parse_results:
        metrics.set("parse_success_rate", scan.parse_successes / scan.parse_results)
    else:
        metrics.set(
            "parse_success_rate", None, 'no GC_DATA with key ":input_parse_successful" or type input_parse_successful'
        )


def _duration_with_fallback(
    metrics: SessionMetrics,
    name: str,
    virtual: DurationSum,
    virtual_type: str,
    operations: DurationSum,
    operations_what: str,
) -> None:
    if virtual.count:
        metrics.set(name, virtual.total)
    elif operations.count:
        metrics.set(name, operations.total, f"estimated from {operations_what}: no {virtual_type} virtual operations")
    else:
        metrics.set(name, None, f"no {virtual_type} virtual operations and no timed {operations_what}")


@dataclass
class WerTotals:
    """The WER counts of the user GC_TURNs, summed; kept up to date one turn at a time."""

    user_turns: int
    total: WerCounts = field(default_factory=WerCounts)
    aligned: int = 0  # user GC_TURNs with counts

    def add(self, counts: WerCounts | None, sign: int = 1) -> None:
        if counts is None:
            return
        self.aligned += sign
        self.total = self.total.plus(counts, sign)


def turn_word_error_rate(metrics: SessionMetrics, index: int, counts: WerCounts | None, reason: str | None) -> None:
    """One user GC_TURN's WER and why it has none (or why its counts are special)."""
    metrics.turn_wer[index] = None if counts is None else counts.rate
    if reason:
        metrics.turn_wer_reasons[index] = reason
    else:
        metrics.turn_wer_reasons.pop(index, None)


def word_error_rate(metrics: SessionMetrics, totals: WerTotals) -> None:
    """The session's WER from the summed counts (the turns' own are set by turn_word_error_rate)."""
    total = totals.total
    metrics.wer_substitutions, metrics.wer_deletions, metrics.wer_insertions = (
        total.substitutions,
        total.deletions,
        total.insertions,
    )
    metrics.wer_errors, metrics.wer_reference_words = total.errors, total.reference_words
    skipped = totals.user_turns - totals.aligned
    if not totals.aligned:
        metrics.set("word_error_rate", None, "no user turn has both a transcription and recognizer text")
    elif total.rate is None:
        metrics.set(
            "word_error_rate", None, f"the transcriptions have no words but the recognizer heard {total.insertions}"
        )
    else:
        note = (
            f"{skipped} user GC_TURN(s) lack a transcription or recognizer text and are left out" if skipped else None
        )
        metrics.set("word_error_rate", total.rate, note)
