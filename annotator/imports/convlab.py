"""Import a ConvLab unified dataset: one Communicator log per dialogue.

    import_convlab(Path("multiwoz21/data.zip"), Path("logs/"))

SOURCE is a data.zip, a dataset folder (holding data.zip, or data/dialogues.json),
or a JSON file holding a list of dialogues (dialogues.json, dummy_data.json). Each
dialogue becomes DIR/STEM-hublog.xml, STEM being its dialogue_id with the number
zero-padded ("multiwoz21-train-00007") so that file order is dialogue order, and
one GC_TURN per ConvLab turn, text only (annotator.imports.synthetic_log).

Kept for the way back (`annotator export --to convlab` gives every dialogue, turn
and utterance again, under the same dialogue_id when the dataset name is the same):
the dataset, split and dialogue_id, and original_id, in the session's IMPORT event;
the session id and the turn ids an export by this tool recorded (session_id,
log_turns). Dialogue acts, state, goal and database results are not carried, and
whitespace inside utterances is collapsed to single spaces, as in every log text.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

from annotator.file_name_text import name_text
from annotator.imports import ImportFormatError, ImportReport
from annotator.imports.synthetic_log import TextSession, TextTurn, nmtoken, unique_names, write_logs
from annotator.input_files import open_input_file, read_problem, utf8_problem
from annotator.outputs.guard import OutputGuard
from annotator.progress import Progress

DIALOGUES_MEMBER = "data/dialogues.json"
_CANONICAL_ID = re.compile(r"([^-]+)-([^-]+)-([0-9]+)")  # ASCII digits: int() reads "٣" too
MAX_STEM = 120  # file names stay well under the 255 bytes file systems allow; unique_names tells cut ones apart


def import_convlab(
    source: Path, out_dir: Path, progress: Progress | None = None, guard: OutputGuard | None = None
) -> ImportReport:
    dialogues = read_dialogues_json(source)
    report = ImportReport("convlab", source, out_dir)
    ids = [str(d.get("dialogue_id") or f"dialogue-{i}") if isinstance(d, dict) else "" for i, d in enumerate(dialogues)]
    stems = unique_names(file_stems(ids))
    session_ids = unique_names([_session_id(d, i) for d, i in zip(dialogues, ids)])
    planned = []
    for position, (dialogue, dialogue_id) in enumerate(zip(dialogues, ids)):
        where = f"{source}: dialogue {position} ({_shown(dialogue_id)})"
        turns = text_turns(dialogue, where)
        if not turns:
            report.warnings.append(f"{where}: skipped, it has no turns")
            continue
        session = TextSession(session_ids[position], turns, _source_record(dialogue, dialogue_id, source))
        comment = (
            f"Imported by the Communicator Log Annotator from ConvLab dialogue {dialogue_id} of "
            f"{name_text(source.name)}: "
            "text turns only, no audio; every time is synthesised, not recorded "
            '(GC_EVENT etype="IMPORT", GC_DATA key=":synthetic_times")'
        )
        planned.append((stems[position], session, comment))
        report.turns += len(turns)
    report.files = write_logs(out_dir, planned, progress, guard)
    return report


def read_dialogues_json(source: Path) -> list[Any]:
    """The list of dialogues SOURCE holds (see the module docstring for what SOURCE may be)."""
    if source.is_dir():
        for candidate in (source / "data.zip", source / DIALOGUES_MEMBER, source / "dialogues.json"):
            if candidate.is_file():
                return read_dialogues_json(candidate)
        raise ImportFormatError(f"{source}: no data.zip, {DIALOGUES_MEMBER} or dialogues.json in this folder")
    try:
        with open_input_file(source) as stream:
            return _dialogues_from(stream, source)
    except OSError as error:
        raise ImportFormatError(f"{source}: {read_problem(error)}") from None


def _dialogues_from(stream: BinaryIO, source: Path) -> list[Any]:
    try:
        if zipfile.is_zipfile(stream):
            with zipfile.ZipFile(stream) as archive:
                names = archive.namelist()
                member = (
                    DIALOGUES_MEMBER
                    if DIALOGUES_MEMBER in names
                    else next((n for n in names if n.endswith("/dialogues.json") or n == "dialogues.json"), None)
                )
                if member is None:
                    raise ImportFormatError(f"{source}: the archive holds no {DIALOGUES_MEMBER}")
                raw, where = archive.read(member), f"{source}: {member}"
        else:
            stream.seek(0)
            raw, where = stream.read(), str(source)
    except (OSError, zipfile.BadZipFile) as error:
        raise ImportFormatError(f"{source}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    try:
        value = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ImportFormatError(f"{where}: {utf8_problem(error)}") from None
    except json.JSONDecodeError as error:
        raise ImportFormatError(f"{where}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    except ValueError as error:  # a number of more than 4300 digits
        raise ImportFormatError(f"{where}: a value JSON holds but Python cannot read: {error}") from None
    except RecursionError:
        raise ImportFormatError(f"{where}: nested too deeply to read") from None
    if not isinstance(value, list):
        raise ImportFormatError(f"{where}: expected a list of dialogues, found a JSON {type(value).__name__}")
    return value


def text_turns(dialogue: Any, where: str) -> list[TextTurn]:
    if not isinstance(dialogue, dict) or not isinstance(dialogue.get("turns"), list):
        raise ImportFormatError(f"{where}: not a ConvLab dialogue (an object with a list of turns)")
    turns = []
    for index, turn in enumerate(dialogue["turns"]):
        if not isinstance(turn, dict) or turn.get("speaker") not in ("user", "system"):
            raise ImportFormatError(f'{where}: turn {index}: the speaker must be "user" or "system"')
        utterance = turn.get("utterance")
        if not isinstance(utterance, str):
            raise ImportFormatError(f"{where}: turn {index}: the utterance must be a string")
        turns.append(TextTurn(turn["speaker"], utterance))
    for turn, turn_id in zip(turns, recorded_turn_ids(dialogue["turns"]) or []):
        turn.turn_id = turn_id
    return turns


def recorded_turn_ids(turns: list[dict[str, Any]]) -> list[str] | None:
    """The GC_TURN ids an export by this tool recorded, when every turn has exactly one, unique and valid."""
    ids = []
    for turn in turns:
        log_turns = turn.get("log_turns")
        if not isinstance(log_turns, list) or len(log_turns) != 1 or not isinstance(log_turns[0], dict):
            return None
        turn_id = log_turns[0].get("turn_id")
        if not isinstance(turn_id, str) or not turn_id or nmtoken(turn_id) != turn_id:
            return None
        ids.append(turn_id)
    return ids if len(set(ids)) == len(ids) else None


def file_stems(dialogue_ids: list[str]) -> list[str]:
    """File stems from dialogue ids: canonical NAME-SPLIT-N ones with N zero-padded to a common width."""
    matches = [_CANONICAL_ID.fullmatch(i) for i in dialogue_ids]
    width = max([len(m.group(3)) for m in matches if m] + [5])
    stems = [
        nmtoken(f"{m.group(1)}-{m.group(2)}-{m.group(3).zfill(width)}" if m else i, "dialogue")
        for m, i in zip(matches, dialogue_ids)
    ]
    return [stem[:MAX_STEM] for stem in stems]


def _session_id(dialogue: Any, dialogue_id: str) -> str:
    recorded = dialogue.get("session_id") if isinstance(dialogue, dict) else None
    if isinstance(recorded, str) and recorded and nmtoken(recorded) == recorded:
        return recorded
    return nmtoken(dialogue_id, "dialogue")


def _shown(dialogue_id: str) -> str:
    """A dialogue id for a message: as it is when short and printable, else quoted, escaped and cut."""
    if len(dialogue_id) <= 60 and dialogue_id.isprintable():
        return dialogue_id
    return repr(dialogue_id[:60]) + ("..." if len(dialogue_id) > 60 else "")


def _source_record(dialogue: dict[str, Any], dialogue_id: str, source: Path) -> dict[str, str]:
    record = {":import_format": "convlab", ":import_source": name_text(source.name)}
    for key, field in (
        (":source_dataset", "dataset"),
        (":source_split", "data_split"),
        (":original_id", "original_id"),
    ):
        if isinstance(dialogue.get(field), str) and dialogue[field]:
            record[key] = dialogue[field]
    record[":source_dialogue_id"] = dialogue_id
    return record
