"""Export to LM Challenge corpora (lm-challenge-formats.md, "Corpus format").

    export_lmc([Path("corpus/")], Path("corpus.jsonl"), ExportOptions(speaker="user"))
    export_lmc_text([Path("corpus/")], Path("corpus.txt"))

`--to lmc` writes the "user marked-up text" jsonlines, one line per utterance:

    {"userId": SESSION_ID, "user": SESSION_ID, "timestamp": START_MS, "text": TEXT, "textSource": "transcription"}

- userId is the session id, so each session is one LM Challenge user (LMC trains and
  resets per user); "user" repeats it because the released lmchallenge 5.x reads
  "user" while its documentation and 4.x read "userId";
- timestamp is the utterance's start in integer milliseconds (left out when the log
  has no time for it);
- sessions that share an id (in one log or across the logs, in the order met) are told
  apart as "ID#1", "ID#2"..., so each session is a user of its own;
- lines are grouped by userId (in the order sessions are met), then ordered by
  timestamp (stable: log order breaks ties);
- --speaker user (default) | system | both chooses whose utterances; with both,
  "speaker" says whose each line is;
- "textSource" records where a user text came from (the --text choice at work).

`--to lmc-text` writes the plain-text form: one utterance a line, in the same order.

The model protocol is tab- and newline-delimited, so no text holds a tab, a newline
or a carriage return (whitespace is collapsed); empty utterances are left out.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from annotator.corpus.parallel import FileMap, serial_map
from annotator.export.dialogue_text import (
    SPEAKER_CHOICES,
    Dialogue,
    ExportOptionError,
    ExportOptions,
    ExportReport,
    Utterance,
    read_dialogues,
)
from annotator.log.turn_ids import occurrences, strip_id
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import write_together
from annotator.progress import Progress


def export_lmc(
    paths: list[Path],
    out_file: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    options = options or ExportOptions()
    groups, warnings, sessions = _grouped(paths, options, progress, file_map)
    lines = [
        json.dumps(_record(session_id, utterance, options.speaker), ensure_ascii=False)
        for session_id, utterances in groups.items()
        for utterance in utterances
    ]
    return _write("lmc", out_file, lines, sessions, warnings, guard)


def export_lmc_text(
    paths: list[Path],
    out_file: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    options = options or ExportOptions()
    groups, warnings, sessions = _grouped(paths, options, progress, file_map)
    lines = [utterance.text for utterances in groups.values() for utterance in utterances]
    return _write("lmc-text", out_file, lines, sessions, warnings, guard)


def timestamp_ms(utterance: Utterance) -> int | None:
    start = utterance.stime
    return round(start * 1000) if start is not None and math.isfinite(start) else None


def _grouped(
    paths: list[Path], options: ExportOptions, progress: Progress | None, file_map: FileMap
) -> tuple[dict[str, list[Utterance]], list[str], int]:
    if options.speaker not in SPEAKER_CHOICES:
        raise ExportOptionError(f"--speaker {options.speaker}: expected one of {', '.join(SPEAKER_CHOICES)}")
    dialogues, warnings = read_dialogues(paths, options.text, keep_empty=False, progress=progress, file_map=file_map)
    groups: dict[str, list[Utterance]] = {}
    ids = [strip_id(dialogue.session_id) for dialogue in dialogues]
    for dialogue, session_id, occurrence in zip(dialogues, ids, occurrences(ids)):
        user = session_id if occurrence is None else f"{session_id}#{occurrence}"
        groups.setdefault(user, []).extend(_chosen(dialogue, options.speaker))
    for session_id, utterances in groups.items():
        groups[session_id] = _by_time(utterances)
    return {k: v for k, v in groups.items() if v}, warnings, len(dialogues)


def _chosen(dialogue: Dialogue, speaker: str) -> list[Utterance]:
    return [u for u in dialogue.utterances if speaker in ("both", u.speaker) and u.text]


def _by_time(utterances: list[Utterance]) -> list[Utterance]:
    """Ordered by timestamp; an utterance without one keeps its place after the one before it."""
    keys: list[float] = []
    last = -math.inf
    for utterance in utterances:
        stamp = timestamp_ms(utterance)
        last = last if stamp is None else stamp
        keys.append(last)
    order = sorted(range(len(utterances)), key=lambda i: keys[i])
    return [utterances[i] for i in order]


def _record(session_id: str, utterance: Utterance, speaker: str) -> dict:
    record: dict = {"userId": session_id, "user": session_id}
    stamp = timestamp_ms(utterance)
    if stamp is not None:
        record["timestamp"] = stamp
    record["text"] = utterance.text
    if speaker == "both":
        record["speaker"] = utterance.speaker
    if utterance.speaker == "user":
        record["textSource"] = "+".join(dict.fromkeys(p.source for p in utterance.parts if p.source))
    return record


def _write(
    name: str, out_file: Path, lines: list[str], sessions: int, warnings: list[str], guard: OutputGuard | None
) -> ExportReport:
    out_file = Path(out_file)
    write_together({out_file: "".join(line + "\n" for line in lines).encode("utf-8")}, guard)
    return ExportReport(name, out_file, [out_file], sessions, len(lines), warnings)
