"""Export to a ConvLab-3 unified dataset (the seed's "unified data format").

    report = export_convlab([Path("corpus/")], Path("out/"), ExportOptions(dataset="communicator"))

writes the complete dataset folder OUT/NAME/:
- data.zip holding data/ontology.json and data/dialogues.json;
- dummy_data.json: the first 10 dialogues;
- shuffled_dial_ids.json: 10 shuffled orders of each split, made as ConvLab-3's check.py makes them;
- README.md: what the data are, how they were made, statistics per split;
- preprocess.py: re-creates all of it from the original logs by calling `annotator export`.

One dialogue per session (annotator.export.dialogue_text: user text by --text,
turns of one side merged, sessions without user turn skipped). ConvLab-3's checker
demands, beyond the seed: names without "-", dialogue_id "NAME-SPLIT-N" unique,
speakers alternating, utt_idx == position, `state` only on user turns and
`db_results` only on system turns (db_results written empty: the logs hold none),
ontology with domains, intents, state and dialogue_acts (convlab_ontology).

What the log knows and the format has no field for is kept as extra attributes
(the seed: "Other attributes are optional"): on each dialogue original_id (the
session id, or the id the dialogue had before an import), session_id, log_file,
start_time, end_time, times_synthetic, user_text (the --text choice),
task_completion, wer; on each turn start_time, end_time and log_turns, the
GC_TURNs merged into it with turn_id, start_time, end_time, audio (the path as
written in the log), text_source and, for user turns, asr_text, transcription, wer,
concepts (the frame in its compact form) and concepts_source ("reference": the annotator's
reference concepts, "parse": the parser's frame, null: neither). User turns' dialogue acts
and state come from those frames (annotator.export.convlab_concepts).
Times are seconds as in the log (epoch seconds for recorded logs).
"""

from __future__ import annotations

import json
import math
import random
import re
import zipfile
from copy import deepcopy
from pathlib import Path
from typing import IO, Any, BinaryIO

from annotator.corpus.parallel import FileMap, serial_map
from annotator.export.convlab_concepts import advance_state, frame_acts
from annotator.export.convlab_ontology import build_ontology, dialogue_acts, system_acts
from annotator.export.convlab_readme import preprocess_text, readme_text
from annotator.export.dialogue_text import (
    Dialogue,
    ExportOptionError,
    ExportOptions,
    ExportReport,
    Utterance,
    finite,
    read_dialogues,
)
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder, Writer
from annotator.progress import Progress

SPLITS = ("train", "validation", "test")
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # no "-" (ConvLab splits ids on it), importable by check.py
DUMMY_DIALOGUES = 10
SHUFFLED_ORDERS = 10
SHUFFLE_SEED = 42  # check.py's
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed, so the same logs give the same bytes


def export_convlab(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    options = options or ExportOptions()
    name = check_dataset_name(options.dataset)
    check_split_options(options)
    read, warnings = read_dialogues(paths, options.text, keep_empty=True, progress=progress, file_map=file_map)
    ordered = order_by_split(read, assign_splits(read, options))
    dialogues = [dialogue_record(d, name, split, number, options.text) for split, number, d in ordered]
    ontology = build_ontology(dialogues)
    folder = Path(out_dir) / name
    files: dict[str, bytes | Writer] = {
        "data.zip": lambda stream: _write_zip(stream, ontology, dialogues),
        "dummy_data.json": lambda stream: _write_json(stream, dialogues[:DUMMY_DIALOGUES]),
        "shuffled_dial_ids.json": lambda stream: _write_json(stream, shuffled_dial_ids(dialogues), indent=None),
        "README.md": readme(name, dialogues, [d for _, _, d in ordered], options).encode("utf-8"),
        "preprocess.py": preprocess_script(paths, folder, name, options).encode("utf-8"),
    }
    with StagedFolder(folder, guard) as staged:
        for file_name, content in files.items():
            staged.write(file_name, content)
    return ExportReport(
        "convlab", folder, staged.files, len(dialogues), sum(len(d["turns"]) for d in dialogues), warnings
    )


def check_dataset_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name or ""):
        raise ExportOptionError(
            f"--dataset {name!r}: a ConvLab dataset name is letters, digits and _ "
            "(no '-': ConvLab splits dialogue ids on it), not starting with a digit"
        )
    return name


def parse_split_ratios(text: str) -> tuple[float, float, float]:
    """ "0.8,0.1,0.1" -> (0.8, 0.1, 0.1): train, validation, test shares (any positive total)."""
    try:
        values = tuple(float(part) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or not all(math.isfinite(v) and v >= 0 for v in values) or sum(values) <= 0:
        raise ExportOptionError(
            f"--split-ratios {text!r}: expected three shares for train, validation and test, like 0.8,0.1,0.1"
        )
    return values


def check_split_options(options: ExportOptions) -> None:
    if options.split is not None and options.split_ratios is not None:
        raise ExportOptionError("--split and --split-ratios exclude each other")
    if options.split is not None and options.split not in SPLITS:
        raise ExportOptionError(f"--split {options.split}: expected one of {', '.join(SPLITS)}")
    if options.split_ratios is not None:
        parse_split_ratios(",".join(map(str, options.split_ratios)))


def assign_splits(dialogues: list[Dialogue], options: ExportOptions) -> list[str]:
    """Each dialogue's split: --split for all; else --split-ratios cut a shuffle made with --seed;
    else the split an imported ConvLab dialogue came from, or train."""
    check_split_options(options)
    if options.split is not None:
        return [options.split] * len(dialogues)
    if options.split_ratios is not None:
        return ratio_splits(len(dialogues), options.split_ratios, options.seed)
    return [_recorded_split(d) or "train" for d in dialogues]


def ratio_splits(count: int, ratios: tuple[float, float, float], seed: int) -> list[str]:
    """Deterministic: the same count, ratios and seed give the same splits on every run and machine."""
    total = sum(ratios)
    exact = [count * r / total for r in ratios]
    sizes = [math.floor(x) for x in exact]
    by_remainder = sorted(range(len(SPLITS)), key=lambda i: (-(exact[i] - sizes[i]), i))
    for i in by_remainder[: count - sum(sizes)]:
        sizes[i] += 1
    order = list(range(count))
    random.Random(seed).shuffle(order)
    splits = [""] * count
    start = 0
    for split, size in zip(SPLITS, sizes):
        for position in order[start : start + size]:
            splits[position] = split
        start += size
    return splits


def order_by_split(dialogues: list[Dialogue], splits: list[str]) -> list[tuple[str, int, Dialogue]]:
    """(split, number, dialogue) split by split (train, validation, test, others), numbered from 0 in each."""
    order = [s for s in SPLITS if s in splits] + sorted(set(splits) - set(SPLITS))
    ordered = []
    for split in order:
        chosen = [d for d, s in zip(dialogues, splits) if s == split]
        ordered += [(split, number, d) for number, d in enumerate(chosen)]
    return ordered


def dialogue_record(dialogue: Dialogue, name: str, split: str, number: int, text: str) -> dict[str, Any]:
    turns = []
    state: dict[str, dict[str, str]] = {}
    for position, utterance in enumerate(dialogue.utterances):
        turns.append(turn_record(utterance, position, state))
        state = turns[-1].get("state", state)
    return {
        "dataset": name,
        "data_split": split,
        "dialogue_id": f"{name}-{split}-{number}",
        "original_id": dialogue.imported.get(":original_id") or dialogue.session_id,
        "domains": sorted({a["domain"] for t in turns for acts in t["dialogue_acts"].values() for a in acts}),
        "goal": {"description": "", "inform": {}, "request": {}},
        "turns": turns,
        "session_id": dialogue.session_id,
        "log_file": dialogue.log_name,
        "start_time": finite(dialogue.stime),
        "end_time": finite(dialogue.etime),
        "times_synthetic": dialogue.times_synthetic,
        "user_text": text,
        "task_completion": dialogue.task_completion,
        "wer": dialogue.wer,
    }


def turn_record(utterance: Utterance, position: int, state: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The ConvLab turn of UTTERANCE; a user turn's state is STATE (the dialogue's so far) moved by its acts."""
    user = utterance.speaker == "user"
    valued, binary = frame_acts([p.concepts for p in utterance.parts if p.concepts is not None]) if user else ([], [])
    record: dict[str, Any] = {
        "speaker": utterance.speaker,
        "utterance": utterance.text,
        "utt_idx": position,
        "dialogue_acts": dialogue_acts(binary if user else system_acts(utterance), valued),
    }
    record["state" if user else "db_results"] = advance_state(state, valued) if user else {}
    record["start_time"] = finite(utterance.stime)
    record["end_time"] = finite(utterance.etime)
    record["log_turns"] = [_log_turn(part, user) for part in utterance.parts]
    return record


def _log_turn(part, user: bool) -> dict[str, Any]:
    entry = {
        "turn_id": part.turn_id,
        "start_time": finite(part.stime),
        "end_time": finite(part.etime),
        "audio": part.audio,
        "text_source": part.source,
    }
    if user:
        entry.update(
            asr_text=part.asr_text,
            transcription=part.transcription,
            wer=part.wer,
            concepts=None if part.concepts is None else part.concepts.compact(),
            concepts_source=part.concepts_source,
        )
    return entry


def shuffled_dial_ids(dialogues: list[dict[str, Any]]) -> list[dict[str, list[int]]]:
    """10 shuffled orders of the positions of each split's dialogues, as ConvLab-3's check.py makes them."""
    rng = random.Random(SHUFFLE_SEED)
    by_split: dict[str, list[int]] = {}
    for position, dialogue in enumerate(dialogues):
        by_split.setdefault(dialogue["data_split"], []).append(position)
    orders = []
    for _ in range(SHUFFLED_ORDERS):
        for positions in by_split.values():
            rng.shuffle(positions)
        orders.append(deepcopy(by_split))
    return orders


def split_statistics(dialogues: list[dict[str, Any]], sources: list[Dialogue]) -> list[dict[str, Any]]:
    """Per split and for all: dialogues, utterances, averages as check.py counts them, transcription, WER
    (errors over reference words of all the split's sessions, as annotator.analysis.metrics counts them)."""
    rows = []
    for split in [s for s in SPLITS if any(d["data_split"] == s for d in dialogues)] + ["all"]:
        chosen = [i for i, d in enumerate(dialogues) if split in ("all", d["data_split"])]
        turns = [t for i in chosen for t in dialogues[i]["turns"]]
        user_parts = [p for t in turns if t["speaker"] == "user" for p in t["log_turns"]]
        tokens = sum(t["utterance"].strip().count(" ") + 1 for t in turns)  # split(" ")'s pieces, none made
        errors = sum(sources[i].wer_errors for i in chosen)
        reference = sum(sources[i].wer_reference_words for i in chosen)
        rows.append(
            {
                "split": split,
                "dialogues": len(chosen),
                "utterances": len(turns),
                "avg_utt": round(len(turns) / len(chosen), 2) if chosen else 0,
                "avg_tokens": round(tokens / len(turns), 2) if turns else 0,
                "transcribed user turns": f"{sum(1 for p in user_parts if p['transcription'])}/{len(user_parts)}",
                "WER": f"{errors / reference:.3f}" if reference else "-",
            }
        )
    return rows


def readme(name: str, dialogues: list[dict[str, Any]], sources: list[Dialogue], options: ExportOptions) -> str:
    return readme_text(name, dialogues, options, split_statistics(dialogues, sources))


def preprocess_script(paths: list[Path], folder: Path, name: str, options: ExportOptions) -> str:
    return preprocess_text(paths, folder, name, split_arguments(options), options.text)


def split_arguments(options: ExportOptions) -> list[str]:
    if options.split is not None:
        return ["--split", options.split]
    if options.split_ratios is not None:
        ratios = ",".join(format(r, "g") for r in options.split_ratios)
        return ["--split-ratios", ratios, "--seed", str(options.seed)]
    return []


def _recorded_split(dialogue: Dialogue) -> str | None:
    split = dialogue.imported.get(":source_split") if dialogue.imported.get(":import_format") == "convlab" else None
    return split if split and NAME_PATTERN.fullmatch(split) else None


_JSON_WRITE_CHARACTERS = 1 << 20


def _write_json(stream: IO[bytes], value: Any, indent: int | None = 2) -> None:
    """VALUE as json.dumps writes it, and a line end, written piece by piece: a dialogue holding a huge text
    written whole was its JSON text, the pieces it was joined from and its UTF-8 bytes at once."""
    pieces: list[str] = []
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, indent=indent).iterencode(value):
        pieces.append(piece)
        size += len(piece)
        if size >= _JSON_WRITE_CHARACTERS:  # the encoder's pieces are a few characters each: written in batches
            stream.write("".join(pieces).encode("utf-8"))
            pieces, size = [], 0
    pieces.append("\n")
    stream.write("".join(pieces).encode("utf-8"))


def _write_zip(stream: BinaryIO, ontology: dict[str, Any], dialogues: list[dict[str, Any]]) -> None:
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, value in (("data/ontology.json", ontology), ("data/dialogues.json", dialogues)):
            info = zipfile.ZipInfo(member, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with archive.open(info, "w", force_zip64=True) as member_stream:  # its size is known only once written
                _write_json(member_stream, value)
