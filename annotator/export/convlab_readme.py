"""The two texts of a ConvLab dataset folder that are written for people and for rebuilding:
README.md (following ConvLab-3's README template: summary, how it was made,
annotations, statistics per split) and preprocess.py (re-runs this export)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from annotator.export.dialogue_text import ExportOptions

_TEXT_CHOICE = {
    "prefer-transcription": "the human transcription where the turn has one, else the recognizer's text",
    "transcription": "the human transcription only (user turns without one have an empty utterance)",
    "asr": "the recognizer's text only",
}

_PREPROCESS = '''"""Re-create the ConvLab dataset {name} from the original Communicator logs.

Written by `annotator export --to convlab`. Running `python preprocess.py` runs that
export again (the annotator must be installed: the `annotator` command, else
`python -m annotator`), which rewrites data.zip, dummy_data.json,
shuffled_dial_ids.json, README.md and this file in this folder.
"""

import shutil
import subprocess
import sys
from pathlib import Path

DATASET = {name!r}
# The logs (files or folders) as they were given: relative to this folder, and absolute.
LOGS = {logs!r}
OPTIONS = {options!r}


def preprocess():
    here = Path(__file__).resolve().parent
    logs = []
    for relative, absolute in LOGS:
        candidate = here / relative
        logs.append(str(candidate if candidate.exists() else absolute))
    annotator = shutil.which("annotator")
    command = [annotator] if annotator else [sys.executable, "-m", "annotator"]
    command += ["export", *logs, "--to", "convlab", "--dataset", DATASET, "-o", str(here.parent), *OPTIONS]
    subprocess.run(command, check=True)


if __name__ == "__main__":
    preprocess()
'''


def preprocess_text(paths: list[Path], folder: Path, name: str, split_arguments: list[str], text: str) -> str:
    folder = folder.resolve()
    logs = [(os.path.relpath(Path(p).resolve(), folder), str(Path(p).resolve())) for p in paths]
    return _PREPROCESS.format(name=name, logs=logs, options=["--text", text, *split_arguments])


def readme_text(
    name: str, dialogues: list[dict[str, Any]], options: ExportOptions, statistics: list[dict[str, Any]]
) -> str:
    acts = sum(len(t["dialogue_acts"]["binary"]) for d in dialogues for t in d["turns"] if t["speaker"] == "system")
    sources = _concept_sources(dialogues)
    synthetic = sum(1 for d in dialogues if d["times_synthetic"])
    lines = [
        f"# Dataset Card for {name}",
        "",
        "- **Repository:** made from DARPA Communicator logs (log standard v11) by the Communicator "
        "Log Annotator (`annotator export --to convlab`)",
        "- **Leaderboard:** none",
        "- **Who transforms the dataset:** the Communicator Log Annotator; see preprocess.py",
        "",
        "### Dataset Summary",
        "",
        "Spoken dialogues between callers and a Communicator dialogue system, one dialogue per logged "
        "session (GC_SESSION). The utterances are the system's output texts and, for the user, "
        f"{_TEXT_CHOICE[options.text]} (`--text {options.text}`).",
        "",
        "- **How to get the transformed data from original data:** run `python preprocess.py` in this folder; "
        "it calls `annotator export` on the same logs with the same options.",
        "- **Main changes of the transformation:** consecutive turns of one side are merged into one utterance "
        "(texts joined with a space), as the Communicator evaluators counted turns; turns whose side is "
        "unknown are left out; sessions without a user turn are left out; whitespace is collapsed.",
        f"- **Annotations:** no user goal, no database results. System dialogue acts: the acts the logs "
        f"mark ({acts} in all): `prompt` (type_prompt, the slot is the key prompted for), "
        "`error_message` and `help_message` (type_error_msg / type_help_msg), binary acts of the `general` domain. "
        "User dialogue acts and dialogue state: the concept frames of the user turns in the `concepts` domain "
        "(the frame name is the intent, each slot with a value a non-categorical act, a frame without one a "
        "binary act; the state is each slot's latest value in the dialogue so far), taken from the "
        f"annotator's reference concepts where a turn has them and from the parser's frame otherwise: {sources}.",
        "- **Extra attributes** (what the log knows and the format has no field for): on each dialogue "
        "`original_id` (the session id), `session_id`, `log_file` (relative to the exported folder), "
        "`start_time`, `end_time` (seconds, as in the log), `times_synthetic`, `user_text` (the `--text` "
        'choice), `task_completion` (the human annotation, "1" completed), `wer` (word error rate of the '
        "recognizer against the transcriptions); on each turn `start_time`, `end_time` and `log_turns`: the "
        "GC_TURNs merged into it, each with `turn_id`, `start_time`, `end_time`, `audio` (the path as written "
        "in the log), `text_source` and, for user turns, `asr_text`, `transcription`, `wer`, `concepts` (the "
        "frame in its compact form) and `concepts_source` (`reference`, `parse` or null).",
    ]
    if synthetic:
        lines.append(f"- {synthetic} dialogue(s) were imported from text corpora: their times are synthesised.")
    lines += [
        "",
        "### Supported Tasks and Leaderboards",
        "",
        "NLG and end-to-end response generation from the system side; language modelling and "
        "recognition-robust NLU from the user side (compare `asr_text` with `transcription`).",
        "",
        "### Languages",
        "",
        "English, as logged.",
        "",
        "### Data Splits",
        "",
    ]
    if options.split is not None:
        split_note = f"`--split {options.split}`: every dialogue in {options.split}"
    elif options.split_ratios is not None:
        ratios = ",".join(format(r, "g") for r in options.split_ratios)
        split_note = f"`--split-ratios {ratios} --seed {options.seed}` (a deterministic shuffle, then cut)"
    else:
        split_note = "train, except dialogues imported from a ConvLab dataset, which keep their split"
    lines += (
        [f"Splits: {split_note}.", ""]
        + _table(statistics)
        + [
            "",
            "- **avg_utt**, **avg_tokens**: utterances per dialogue and space-separated tokens per utterance, "
            "counted as ConvLab-3's check.py counts them.",
            "- **WER**: the recognizer's word errors over the transcriptions' words, over the user turns that have "
            "both (brackets and punctuation removed, lower case).",
            "",
            "### Citation",
            "",
            "Cite the Communicator corpus the logs come from.",
            "",
            "### Licensing Information",
            "",
            "That of the logs.",
            "",
        ]
    )
    return "\n".join(lines)


def _concept_sources(dialogues: list[dict[str, Any]]) -> str:
    """'2 user GC_TURN(s) from the reference concepts, 30 from the parse, 4 with neither'."""
    counts = {"reference": 0, "parse": 0, None: 0}
    for dialogue in dialogues:
        for turn in dialogue["turns"]:
            for part in turn["log_turns"] if turn["speaker"] == "user" else ():
                counts[part["concepts_source"]] += 1
    return (
        f"{counts['reference']} user GC_TURN(s) from the reference concepts, {counts['parse']} from the parse, "
        f"{counts[None]} with neither"
    )


def _table(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    keys = list(rows[0])
    return ["| " + " | ".join(keys) + " |", "|" + "|".join(" --- " for _ in keys) + "|"] + [
        "| " + " | ".join(str(row[k]) for k in keys) + " |" for row in rows
    ]
