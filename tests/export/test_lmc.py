"""LM Challenge corpora: the marked-up jsonlines and the plain text, checked on their own and read
by the real `lmc` (PyPI lmchallenge), which must see one user per session."""

from __future__ import annotations

import itertools
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.export.dialogue_text import ExportOptions
from annotator.export.lmc import export_lmc, export_lmc_text
from tests.support.format_strategies import gen_sessions, write_generated_log
from tests.support.peer_tools import peer_tool

LMC = peer_tool("LMC", "lmc", venv=".venv-lmc")
needs_lmc = pytest.mark.skipif(
    LMC is None,
    reason="LM Challenge's `lmc` is not installed. It pins click 6.7, emoji 0.4.5, jsonschema 2.6.0 and regex "
    "2017.12.12, so install it in a venv of its own: python3 -m venv .venv-lmc && .venv-lmc/bin/pip install "
    "lmchallenge==5.2 (found there, at the top of the checkout), or set LMC to its lmc command",
)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# A model for `lmc run`: it predicts "the" for every context and learns nothing.
PREDICTOR = """import sys
for line in sys.stdin:
    if line.split("\\t", 1)[0] == "predict":
        sys.stdout.write("the\\t-1\\n")
        sys.stdout.flush()
"""


def _records(path: Path) -> list[dict]:
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw and (raw.endswith(b"\n") or not raw)
    return [json.loads(line) for line in raw.decode("utf-8").splitlines()]


def test_sample_logs_as_marked_up_text(transcribed_corpus: Path, tmp_path: Path):
    report = export_lmc([transcribed_corpus], tmp_path / "corpus.jsonl")
    records = _records(tmp_path / "corpus.jsonl")
    assert report.sessions == 3 and report.utterances == len(records) == 18
    assert records[0] == {
        "userId": "travel:20261121:001",
        "user": "travel:20261121:001",
        "timestamp": 1795269605904,
        "text": "i want to fly to boston",
        "textSource": "transcription",
    }
    assert [r["userId"] for r in records] == ["travel:20261121:001"] * 6 + ["travel:20261121:002"] * 5 + [
        "travel:20261121:003"
    ] * 7
    assert records[6]["timestamp"] == 1795273205608, "milliseconds in the log, milliseconds out"
    assert any(r["text"] == "leaving from zürich" for r in records)


def test_speaker_choice_and_plain_text(transcribed_corpus: Path, tmp_path: Path):
    export_lmc([transcribed_corpus], tmp_path / "both.jsonl", ExportOptions(speaker="both", text="asr"))
    both = _records(tmp_path / "both.jsonl")
    assert [r["speaker"] for r in both[:3]] == ["system", "user", "system"]
    assert both[1]["text"] == "i want to fly to austin" and both[1]["textSource"] == "asr"
    assert "textSource" not in both[0]
    export_lmc_text([transcribed_corpus], tmp_path / "system.txt", ExportOptions(speaker="system"))
    lines = (tmp_path / "system.txt").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "Welcome to the Communicator travel service. Where would you like to fly?"
    assert lines[-1] == "" and len(lines) == 19


@needs_lmc
@pytest.mark.parametrize("speaker", ["user", "both"])
def test_lmc_sees_one_user_per_session(transcribed_corpus: Path, tmp_path: Path, speaker: str):
    corpus = tmp_path / "corpus.jsonl"
    report = export_lmc([transcribed_corpus], corpus, ExportOptions(speaker=speaker))
    predictor = tmp_path / "predictor.py"
    predictor.write_text(PREDICTOR, encoding="utf-8")
    with open(corpus, "rb") as stdin:
        run = subprocess.run(
            [LMC, "run", f"{shlex.quote(sys.executable)} {shlex.quote(str(predictor))}", "we"],
            stdin=stdin,
            capture_output=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    log = tmp_path / "we.jsonl"
    log.write_bytes(run.stdout)
    events = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    assert [user for user, _ in itertools.groupby(e["user"] for e in events)] == [
        "travel:20261121:001",
        "travel:20261121:002",
        "travel:20261121:003",
    ]
    stats = subprocess.run([LMC, "stats", str(log)], capture_output=True, text=True, timeout=300)
    assert stats.returncode == 0, stats.stderr
    summary = json.loads(stats.stdout)
    assert summary["users"] == 3 == report.sessions
    assert summary["messages_per_user"] * 3 == report.utterances


@needs_lmc
def test_lmc_reads_the_plain_text_as_one_line_an_utterance(transcribed_corpus: Path, tmp_path: Path):
    corpus = tmp_path / "corpus.txt"
    report = export_lmc_text([transcribed_corpus], corpus)
    predictor = tmp_path / "predictor.py"
    predictor.write_text(PREDICTOR, encoding="utf-8")
    with open(corpus, "rb") as stdin:
        run = subprocess.run(
            [LMC, "run", f"{shlex.quote(sys.executable)} {shlex.quote(str(predictor))}", "we"],
            stdin=stdin,
            capture_output=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    events = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    assert len({e["message"] for e in events}) == report.utterances == 18


@PROPERTY
@given(
    sessions=gen_sessions(),
    speaker=st.sampled_from(["user", "system", "both"]),
    text=st.sampled_from(["prefer-transcription", "transcription", "asr"]),
)
@pytest.mark.slow
def test_generated_logs_keep_the_corpus_rules(tmp_path: Path, sessions, speaker, text):
    log = write_generated_log(tmp_path / "gen-hublog.xml", sessions)
    options = ExportOptions(speaker=speaker, text=text)
    export_lmc([log], tmp_path / "corpus.jsonl", options)
    export_lmc_text([log], tmp_path / "corpus.txt", options)
    records = _records(tmp_path / "corpus.jsonl")
    plain = (tmp_path / "corpus.txt").read_text(encoding="utf-8").split("\n")[:-1]
    assert plain == [r["text"] for r in records]
    for record in records:
        assert record["user"] == record["userId"] and isinstance(record["timestamp"], int)
        assert record["text"] and not set("\t\n\r") & set(record["text"]) and record["text"].strip() == record["text"]
        assert speaker in ("both", record.get("speaker", speaker))
    groups = [(user, [r["timestamp"] for r in rows]) for user, rows in itertools.groupby(records, lambda r: r["user"])]
    assert len({user for user, _ in groups}) == len(groups), "each session's lines are together"
    assert all(stamps == sorted(stamps) for _, stamps in groups)
