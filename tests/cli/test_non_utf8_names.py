"""Any file name the file system allows, through every command.

A Latin-1 name such as b"pr\\xe9.xml" is not UTF-8: export to csv and convlab, extract -o
x.csv and markers ended in exit 70 "internal error". Every command now runs on such a
log, in a folder with such a name, writing to outputs with such names; where a name is
written into a text output it is written as annotator.file_name_text escapes it
(pr%E9.xml), and name_from_text gives the name back.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.file_name_text import name_from_text, name_text
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.repository import REPO, SAMPLE_LOGS, command_environment

LATIN1 = os.fsdecode(b"pr\xe9")  # "pr\udce9": the name as Python holds it
ESCAPED = "pr%E9"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A corpus folder named b"corpus-\\xe9" holding session 001 as b"pr\\xe9.xml" and 002 under its own name."""
    folder = tmp_path / os.fsdecode(b"corpus-\xe9")
    folder.mkdir()
    shutil.copyfile(SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml", folder / f"{LATIN1}.xml")
    shutil.copytree(SAMPLE_LOGS / "travel-20261121-002", folder / "travel-20261121-002")
    return folder


def annotator(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command on ARGS as the file system's bytes; its output as bytes too (names that are not UTF-8)."""
    return run_annotator(*(os.fsencode(str(arg)) for arg in args), cwd=cwd, text=False)


def ok(result: subprocess.CompletedProcess) -> None:
    stderr = result.stderr.decode("utf-8", "backslashreplace")
    assert result.returncode == 0, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr


def out_path(tmp_path: Path, name: bytes) -> Path:
    return tmp_path / os.fsdecode(b"out-\xe9-" + name)


@pytest.mark.slow
def test_validate_and_info(corpus: Path):
    log = corpus / f"{LATIN1}.xml"
    validated = annotator("validate", "--hide-quirks", "--no-audio", corpus)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    info = annotator("info", log)
    ok(info)
    assert os.fsencode(str(log)) in info.stdout, "info names the file with its own bytes"


@pytest.mark.slow
def test_export_csv_writes_the_names_escaped(corpus: Path, tmp_path: Path):
    out = out_path(tmp_path, b"csv")
    ok(annotator("export", corpus, "--to", "csv", "-o", out))
    rows = list(csv.DictReader(io.StringIO((out / "sessions.csv").read_text(encoding="utf-8"))))
    assert [row["file"] for row in rows] == [f"{ESCAPED}.xml", "travel-20261121-002/travel-20261121-002-hublog.xml"]
    assert (corpus / name_from_text(rows[0]["file"])).is_file(), "the escape reverses to the file"


def test_export_csv_writes_audio_found_under_a_latin1_name(corpus: Path, tmp_path: Path):
    """turns.csv names the audio file where it really is: here a link leads into a folder b"sub\\xe9"."""
    session = corpus / "travel-20261121-002"
    wav = session / "travel-20261121-002-turn02-user.wav"
    real = session / os.fsdecode(b"sub\xe9") / wav.name
    real.parent.mkdir()
    wav.rename(real)
    wav.symlink_to(real)
    out = out_path(tmp_path, b"audio")
    ok(annotator("export", session, "-o", out))
    rows = list(csv.DictReader(io.StringIO((out / "turns.csv").read_text(encoding="utf-8"))))
    assert rows[1]["audio_input"] == "sub%E9/travel-20261121-002-turn02-user.wav"
    assert (session / name_from_text(rows[1]["audio_input"])).samefile(real)


@pytest.mark.slow
def test_export_convlab_writes_the_names_escaped(corpus: Path, tmp_path: Path):
    out = out_path(tmp_path, b"convlab")
    ok(annotator("export", corpus, "--to", "convlab", "-o", out))
    with zipfile.ZipFile(out / "communicator" / "data.zip") as archive:
        dialogues = json.loads(archive.read("data/dialogues.json"))
    assert dialogues[0]["log_file"] == f"{ESCAPED}.xml"
    rebuilt = subprocess.run(
        [sys.executable, out / "communicator" / "preprocess.py"],
        capture_output=True,
        timeout=300,
        env=command_environment(),
    )
    assert rebuilt.returncode == 0, rebuilt.stderr.decode("utf-8", "backslashreplace")


@pytest.mark.parametrize(
    "fmt, output",
    [("dialbb", b"s.txt"), ("lmc", b"c.jsonl"), ("lmc-text", b"c.txt"), ("sclite", b"trn"), ("human", b"human")],
)
@pytest.mark.slow
def test_every_other_export(corpus: Path, tmp_path: Path, fmt: str, output: bytes):
    ok(annotator("export", corpus, "--to", fmt, "-o", out_path(tmp_path, output)))


@pytest.mark.slow
def test_export_human_keeps_the_name_of_the_file(corpus: Path, tmp_path: Path):
    out = out_path(tmp_path, b"human")
    ok(annotator("export", corpus, "--to", "human", "-o", out))
    assert (out / f"{LATIN1}-human.xml").is_file(), "a file name, not text: the same bytes as the log's"


@pytest.mark.parametrize("suffix", [".csv", ".xml"])
@pytest.mark.slow
def test_extract(corpus: Path, tmp_path: Path, suffix: str):
    out = tmp_path / os.fsdecode(b"annotations-\xe9" + suffix.encode())
    ok(annotator("extract", corpus, "-o", out))
    if suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
        assert {row["file"] for row in rows} == {f"corpus-%E9/{ESCAPED}.xml"}
        assert (out.parent / name_from_text(rows[0]["file"])).is_file()


@pytest.mark.slow
def test_fold_a_file_and_a_folder(corpus: Path, tmp_path: Path):
    annotations = tmp_path / "annotations.csv"
    ok(annotator("extract", corpus, "-o", annotations))
    ok(annotator("fold", corpus / f"{LATIN1}.xml", annotations, "-o", out_path(tmp_path, b"folded.xml")))
    folded = out_path(tmp_path, b"folded")
    ok(annotator("fold", corpus, annotations, "-o", folded))
    assert LogDocument.load(folded / f"{LATIN1}.xml").sessions[0].task_completion == "1"


@pytest.mark.slow
def test_markers(corpus: Path, tmp_path: Path):
    out = tmp_path / os.fsdecode(b"markers-\xe9.csv")
    ok(
        annotator(
            "markers",
            "--config",
            REPO / "resources" / "markers" / "communicator-kpis.yml",
            corpus,
            "-o",
            out,
            "--stats-file-prefix",
            tmp_path / os.fsdecode(b"stats-\xe9"),
        )
    )
    senders = {row["sender_id"] for row in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}
    assert ESCAPED in senders


@pytest.mark.slow
def test_import_a_latin1_named_dataset_and_scenario(corpus: Path, tmp_path: Path):
    dataset = out_path(tmp_path, b"dataset")
    ok(annotator("export", corpus, "--to", "convlab", "-o", dataset))
    dialogues = tmp_path / os.fsdecode(b"dial\xe9.json")
    with zipfile.ZipFile(dataset / "communicator" / "data.zip") as archive:
        dialogues.write_bytes(archive.read("data/dialogues.json"))
    logs = out_path(tmp_path, b"logs")
    ok(annotator("import", "--from", "convlab", dialogues, "-o", logs))
    imported = sorted(logs.glob("*-hublog.xml"))
    assert imported and b"dial%E9.json" in imported[0].read_bytes()
    scenario = tmp_path / os.fsdecode(b"sc\xe9nario.txt")
    ok(annotator("export", corpus, "--to", "dialbb", "-o", scenario))
    ok(annotator("import", "--from", "dialbb", scenario, "-o", out_path(tmp_path, b"from-dialbb")))


@given(st.binary(min_size=1, max_size=40).filter(lambda raw: b"/" not in raw and b"\0" not in raw))
def test_the_escape_is_reversible_and_writable_everywhere(raw: bytes):
    name = os.fsdecode(raw)
    text = name_text(name)
    assert name_from_text(text) == name and os.fsencode(name_from_text(text)) == raw
    text.encode("utf-8")  # no lone surrogate left
    assert not any(ord(c) < 0x20 or c in "\x7f\ufffe\uffff" for c in text), "no line break, nothing XML refuses"


@pytest.mark.parametrize(
    "name, text",
    [
        ("plain-hublog.xml", "plain-hublog.xml"),
        ("são paulo.xml", "são paulo.xml"),
        ("100%.xml", "100%.xml"),
        (LATIN1 + ".xml", "pr%E9.xml"),
        ("a%41.xml", "a%2541.xml"),
        ("tab\there.xml", "tab%09here.xml"),
    ],
)
def test_what_the_escape_writes(name: str, text: str):
    assert name_text(name) == text and name_from_text(text) == name


@pytest.mark.slow
def test_search_writes_the_names_escaped_and_its_json_is_json(corpus: Path):
    latin1_log = name_text(corpus / f"{LATIN1}.xml")
    assert latin1_log.endswith(f"corpus-%E9/{ESCAPED}.xml")
    found = annotator("search", "boston", corpus)
    ok(found)
    files = [line.split("\t")[0] for line in found.stdout.decode("utf-8").splitlines()]  # strict: all UTF-8
    assert latin1_log in files and all(file.startswith(name_text(corpus)) for file in files)
    as_json = annotator("search", "boston", corpus, "--json")
    ok(as_json)
    assert [json.loads(line)["file"] for line in as_json.stdout.decode("utf-8").splitlines()] == files
    assert os.fsencode(name_from_text(latin1_log)) == os.fsencode(str(corpus / f"{LATIN1}.xml"))
    indexed = annotator("index", corpus)
    ok(indexed)
    assert indexed.stderr.decode("utf-8").startswith("2 log(s) indexed in ")


@pytest.mark.slow
def test_a_cache_folder_named_in_latin1_keeps_the_index(corpus: Path, tmp_path: Path):
    cache = tmp_path / os.fsdecode(b"cache-\xe9")
    for _ in range(2):  # made, then used: never found damaged
        done = run_annotator(
            *(os.fsencode(str(arg)) for arg in ("index", corpus)), text=False, env={"ANNOTATOR_CACHE_DIR": str(cache)}
        )
        ok(done)
        said = done.stderr.decode("utf-8")  # strict: the folder's name is written escaped
        assert said.startswith(f"2 log(s) indexed in {name_text(cache)}/index/") and said.count("\n") == 1, said
