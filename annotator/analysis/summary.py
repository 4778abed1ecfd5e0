"""A plain-text summary of a log, for `annotator info`."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from annotator.analysis.concept_metrics import SessionConcepts
from annotator.analysis.metrics import SessionMetrics, session_metrics
from annotator.log.audio_refs import resolver_for
from annotator.log.document import LogDocument


def _seconds(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f} s"


def _time(metrics: SessionMetrics, name: str) -> str:
    """The time column NAME as _seconds writes it (a time column holds seconds or None)."""
    return _seconds(cast("float | None", metrics.values.get(name)))


def _value(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def describe_log(path: Path) -> str:
    """The summary of the log at PATH (picklable per-file work for a corpus, annotator.corpus.parallel)."""
    return describe_document(LogDocument.load(path))


def describe_document(doc: LogDocument) -> str:
    resolver = resolver_for(doc.path)
    unit = "milliseconds" if doc.unit.name == "MILLISECONDS" else "seconds"
    lines = [f"{doc.path}  ({doc.encoding}, times in {unit}, {len(doc.sessions)} session(s))"]
    lines += [f"  note: {note}" for note in doc.notes]
    for session in doc.sessions:
        metrics = session_metrics(session)  # first: its walk leaves the turns' facts for what follows
        users = session.user_turns
        transcribed = sum(1 for turn in users if turn.transcription)
        found = missing = 0
        for turn in session.turns:
            for direction in ("input", "output"):
                ref = resolver.resolve(turn, direction)
                if ref is not None:
                    found += ref.found
                    missing += not ref.found
        lines += [
            f"  session {session.id}",
            f"    duration     {_seconds(session.duration)}",
            f"    turns        {len(session.turns)} ({len(users)} user, {len(session.turns) - len(users)} system or unknown)",
            f"    audio        {found} file(s) found, {missing} missing",
            f"    transcribed  {transcribed} of {len(users)} user turns",
            f"    task         {_task(session.task_completion)}",
            f"    WER          {_value(metrics.values.get('word_error_rate'))}",
            f"    concepts     {_concepts(metrics.concepts)}",
            f"    recognition  {_time(metrics, 'recognition_s')}, synthesis {_time(metrics, 'synthesis_s')}",
        ]
    return "\n".join(lines)


def _task(value: str | None) -> str:
    return {"1": "completed", "0": "not completed", None: "not annotated"}.get(value, f"annotated {value!r}")


def _concepts(figures: SessionConcepts) -> str:
    """'CER 0.500, accuracy 0.500, 0 of 1 turn(s) fully right', or that no turn has reference concepts."""
    if not figures.scored_turns:
        return "no reference concepts"
    return (
        f"CER {_value(figures.error_rate)}, accuracy {_value(figures.accuracy)}, "
        f"{figures.correct_turns} of {figures.scored_turns} turn(s) fully right"
    )
