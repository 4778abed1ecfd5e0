"""Frames nested as deep as the loader accepts (2,048 elements) go through every consumer of concepts
without a recursion limit: the flattening the Concepts panel shows, doubt, metrics, and through the
real command every export, info, validate, extract and a fold of the extracted concepts back.

Python's own limit is 1,000 frames of the interpreter: a walk that recursed once per nested GC_FRAME
failed from about 1,000 nested frames (element depth 2,000) on, with exit 70.
"""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from annotator.analysis.concept_metrics import cached_turn_concept_counts
from annotator.analysis.doubt import session_doubts
from annotator.analysis.metrics import session_metrics
from annotator.log.annotations import set_concepts
from annotator.log.concepts import Concepts, concepts_element, frame_concepts, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.hostile_shapes import LOADER_DEPTH_LIMIT, deep_frame_log, deep_frame_path, deepest_element
from tests.support.repository import REPO

DEPTHS = (1_000, LOADER_DEPTH_LIMIT)
EXPORTS = ("csv", "parquet", "convlab", "dialbb", "lmc", "lmc-text", "sclite", "human")


@pytest.fixture(scope="module", params=DEPTHS, ids=[f"depth-{depth}" for depth in DEPTHS])
def deep_log(request, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp(f"deep-{request.param}")
    path = folder / "deep-hublog.xml"
    text = deep_frame_log(request.param)
    assert deepest_element(text) == request.param
    path.write_text(text, encoding="utf-8")
    return path


def _user_turn(path: Path):
    document = LogDocument.load(path)
    return document, document.sessions[0].turns[1]


def _expected_path(path: Path) -> str:
    return deep_frame_path(deepest_element(path.read_text(encoding="utf-8")))


def test_the_panels_flattening_reads_the_whole_depth(deep_log: Path):
    _, turn = _user_turn(deep_log)
    expected = Concepts("f0", ((_expected_path(deep_log), "deep value"),))
    assert parsed_concepts(turn.facts()) == expected
    assert reference_concepts(turn.facts()) == expected


def test_doubt_and_metrics_measure_the_deep_turn(deep_log: Path):
    document, turn = _user_turn(deep_log)
    session = document.sessions[0]
    assert len(session_doubts([t.facts() for t in session.turns])) == len(session.turns)
    counts = cached_turn_concept_counts(turn)
    assert counts is not None and counts.reference_pairs == 2 and counts.errors == 0  # the frame name, the slot
    assert session_metrics(session) is not None


def test_a_deep_reference_is_stored_and_read_back(deep_log: Path, tmp_path: Path):
    """The writer of reference frames builds the nesting from the path, as deep as it goes."""
    document, turn = _user_turn(deep_log)
    deep = Concepts("book", ((_expected_path(deep_log), "new value"), (":short", "x")))
    assert frame_concepts(concepts_element(deep)[0]) == deep
    set_concepts(turn, deep)
    saved = document.save(tmp_path / "saved-hublog.xml")
    assert reference_concepts(LogDocument.load(saved).sessions[0].turns[1].facts()) == deep


_run = partial(run_annotator, cwd=REPO)


@pytest.fixture(scope="module")
def command_runs(deep_log: Path, tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    """Every export format, info, validate and extract on the deep log, at once (an interpreter each)."""
    out = tmp_path_factory.mktemp("deep-outputs")
    single_file = {"dialbb": "deep.json", "lmc": "deep.jsonl", "lmc-text": "deep.txt"}
    runs = {
        f"export-{kind}": ("export", deep_log, "--to", kind, "-o", out / single_file.get(kind, kind), "-j", "1")
        for kind in EXPORTS
    }
    runs |= {
        "info": ("info", deep_log, "-j", "1"),
        "validate": ("validate", deep_log, "-j", "1"),
        "extract": ("extract", deep_log, "-o", out / "annotations.csv", "-j", "1"),
    }
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(zip(runs, pool.map(lambda arguments: _run(*arguments), runs.values())))
    done["out"] = out  # type: ignore[assignment]
    return done


@pytest.mark.parametrize("command", [f"export-{kind}" for kind in EXPORTS] + ["info", "validate", "extract"])
@pytest.mark.slow
def test_every_command_reads_the_deep_frame(command_runs, command: str):
    done = command_runs[command]
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_the_exports_carry_the_deep_slot(command_runs, deep_log: Path):
    out: Path = command_runs["out"]
    expected = _expected_path(deep_log)
    assert expected in (out / "annotations.csv").read_text(encoding="utf-8")
    convlab = [path.read_bytes() for path in (out / "convlab").rglob("*") if path.is_file()]
    assert any(b"deep value" in content for content in convlab)


def test_extracted_deep_concepts_fold_back(command_runs, deep_log: Path, tmp_path: Path):
    """extract writes the deep path in the compact form; fold reads it and nests it again."""
    out: Path = command_runs["out"]
    raw = tmp_path / "raw" / deep_log.name  # the name the rows' file column holds: rows for another log are refused
    raw.parent.mkdir()
    raw.write_text(
        deep_frame_log(deepest_element(deep_log.read_text(encoding="utf-8")), reference=False), encoding="utf-8"
    )
    assert reference_concepts(LogDocument.load(raw).sessions[0].turns[1].facts()) is None
    folded = tmp_path / "folded-hublog.xml"
    done = _run("fold", raw, out / "annotations.csv", "-o", folded)
    assert done.returncode == 0, done.stderr
    _, turn = _user_turn(deep_log)
    assert reference_concepts(LogDocument.load(folded).sessions[0].turns[1].facts()) == reference_concepts(turn.facts())


def test_a_complaint_at_the_bottom_of_the_deepest_frame_is_found(tmp_path: Path):
    """The DTD's complaint names its element by a path 2,048 steps long, followed without recursion."""
    text = deep_frame_log(LOADER_DEPTH_LIMIT - 1).replace("deep value", 'deep value<GC_DATA key=":z" bogus="1"/>', 1)
    assert deepest_element(text) == LOADER_DEPTH_LIMIT
    path = tmp_path / "deep-hublog.xml"
    path.write_text(text, encoding="utf-8")
    done = _run("validate", path, "-j", "1")
    assert done.returncode == 1, done.stderr
    assert f"{path}:4: error: GC_DATA ':z': attribute bogus is not declared in the DTD" in done.stdout
