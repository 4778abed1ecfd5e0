"""The exports keep sessions that share an id apart: the CSV tables say which occurrence each row
is about (and fold reads them back), sclite and LM Challenge give each session its own speaker or
user, and the MITRE files fold back into the right sessions."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from annotator.annotation_files.fold import fold, read_annotations
from annotator.export.csv_export import export_csv
from annotator.export.human_files import export_human
from annotator.export.lmc import export_lmc
from annotator.export.sclite import export_sclite
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

TRANSCRIBED = '<GC_ANNOT turnid="2"><GC_DATA key=":transcription" type_utt_text="transcription">{}</GC_DATA></GC_ANNOT>'


def _log(folder: Path, completion: list[str | None], name: str = "x-hublog.xml", transcribed: bool = True) -> Path:
    sessions = []
    for number, value in enumerate(completion, start=1):
        extra = "" if value is None else f'<GC_ANNOT type_task_completion="{value}"/>'
        start = 1000.0 * number
        said = TRANSCRIBED.format(f"said {number}") if transcribed else ""
        sessions.append(
            session(
                "s",
                [
                    system_turn("1", start, "hi"),
                    user_turn("2", start + 2, f"heard {number}", extra=said),
                    user_turn("02", start + 6, "again"),
                ],
                start,
                start + 10,
                extra,
            )
        )
    folder.mkdir(parents=True, exist_ok=True)
    return write_log(folder / name, log_text(sessions))


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def test_the_csv_tables_number_the_sessions_over_the_logs_in_order(tmp_path: Path):
    _log(tmp_path / "logs", ["1", "0"], "a-hublog.xml")
    _log(tmp_path / "logs", ["1"], "b-hublog.xml")
    export_csv([tmp_path / "logs"], tmp_path / "out")
    sessions = _rows(tmp_path / "out" / "sessions.csv")
    assert [(r["file"], r["session_id"], r["session_occurrence"]) for r in sessions] == [
        ("a-hublog.xml", "s", "1"),
        ("a-hublog.xml", "s", "2"),
        ("b-hublog.xml", "s", "3"),
    ]
    turns = _rows(tmp_path / "out" / "turns.csv")
    assert [(r["session_occurrence"], r["turn_id"], r["turn_occurrence"]) for r in turns[:3]] == [
        ("1", "1", "1"),
        ("1", "2", "1"),
        ("1", "02", "2"),
    ]


def test_fold_reads_the_tables_back_into_the_right_sessions(tmp_path: Path):
    log = _log(tmp_path / "logs", ["1", "0", "1"])
    export_csv([log], tmp_path / "out")
    raw = LogDocument.load(_log(tmp_path / "raw", [None, None, None], transcribed=False))
    assert fold(raw, read_annotations(tmp_path / "out" / "sessions.csv")) == 3
    assert fold(raw, read_annotations(tmp_path / "out" / "turns.csv")) == 3
    assert [s.task_completion for s in raw.sessions] == ["1", "0", "1"]
    assert [[t.transcription for t in s.turns] for s in raw.sessions] == [[None, f"said {n}", None] for n in (1, 2, 3)]


@pytest.mark.slow
def test_mitre_files_fold_back_into_the_right_sessions(tmp_path: Path):
    _log(tmp_path / "corpus", ["1", "0", "1"])
    export_human([tmp_path / "corpus"], tmp_path / "annotations")
    human = tmp_path / "annotations" / "x-human.xml"
    assert human.read_text(encoding="utf-8").count("session_occurrence=") == 3
    _log(tmp_path / "raw", [None, None, None], transcribed=False)
    (tmp_path / "raw" / "x-human.xml").write_bytes(human.read_bytes())
    result = run_annotator("fold", tmp_path / "raw", "-o", tmp_path / "folded")

    assert result.returncode == 0, result.stderr
    folded = LogDocument.load(tmp_path / "folded" / "x-hublog.xml")
    assert [s.task_completion for s in folded.sessions] == ["1", "0", "1"]
    assert [s.turns[1].transcription for s in folded.sessions] == ["said 1", "said 2", "said 3"]


def test_sclite_gives_each_session_its_own_speaker(tmp_path: Path):
    log = _log(tmp_path / "logs", ["1", "0", "1"])
    export_sclite([log], tmp_path / "out")
    ids = [line.rsplit("(", 1)[1].rstrip(")\n") for line in (tmp_path / "out" / "ref.trn").open(encoding="utf-8")]
    assert len(ids) == 3 and len({utterance.split("_")[0] for utterance in ids}) == 3


def test_lm_challenge_gives_each_session_its_own_user(tmp_path: Path):
    log = _log(tmp_path / "logs", ["1", "0", "1"])
    export_lmc([log], tmp_path / "corpus.jsonl")
    records = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    users = [record["userId"] for record in records]
    assert users == ["s#1", "s#2", "s#3"]
    assert all(record["user"] == record["userId"] for record in records)
