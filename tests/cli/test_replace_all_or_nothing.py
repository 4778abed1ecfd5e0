"""`annotator replace` over many logs is all or nothing: every log is checked before the first write, the
dry run refuses what the real run would, errors name the file (and session), a change by another program
found at the last moment leaves every log as it was, and no log is rewritten without a regular copy of its
original.

The shapes are generated: each obstacle (a read-only log, NAME.orig.xml as a FIFO, a folder, a link to
nothing, a link leading out of the folder given) at each place among the logs (first, middle, last)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.log.document import LogDocument
from tests.support.replace_corpus import FIND, LOGS, make_corpus, state
from tests.support.save_race import finish, hold_and_change, start


def _read_only(log: Path, outside: Path) -> str:
    os.chmod(log, 0o444)
    return "is read-only"


def _orig_fifo(log: Path, outside: Path) -> str:
    os.mkfifo(log.with_name(log.name.replace(".xml", ".orig.xml")))
    return "is a named pipe (FIFO), not a regular file"


def _orig_folder(log: Path, outside: Path) -> str:
    log.with_name(log.name.replace(".xml", ".orig.xml")).mkdir()
    return "is a folder, not a file"


def _orig_dangling(log: Path, outside: Path) -> str:
    log.with_name(log.name.replace(".xml", ".orig.xml")).symlink_to(outside / "nowhere.xml")
    return "is a link to nothing"


def _link_out(log: Path, outside: Path) -> str:
    real = outside / log.name
    shutil.move(log, real)
    log.symlink_to(real)
    return f"a link to {real}, outside"


OBSTACLES: dict[str, Callable[[Path, Path], str]] = {
    "read-only-log": _read_only,
    "orig-is-a-fifo": _orig_fifo,
    "orig-is-a-folder": _orig_folder,
    "orig-links-to-nothing": _orig_dangling,
    "link-out-of-the-folder": _link_out,
}
PLACES = {"first": 0, "middle": LOGS // 2, "last": LOGS - 1}
CASES = [
    (obstacle, place, dry)
    for obstacle in OBSTACLES
    for place in PLACES
    for dry in (False, True)
    if dry == (PLACES[place] % 2 == 1) or place == "last"
]


@pytest.mark.parametrize("obstacle, place, dry", CASES, ids=[f"{o}-{p}{'-dry-run' if d else ''}" for o, p, d in CASES])
def test_an_obstacle_anywhere_refuses_the_whole_replace(tmp_path: Path, capsys, obstacle: str, place: str, dry: bool):
    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    outside.mkdir()
    logs = make_corpus(corpus)
    bad = logs[PLACES[place]]
    words = OBSTACLES[obstacle](bad, outside)
    before = state(tmp_path)
    status = main(["replace", str(corpus), *FIND, *(["--dry-run"] if dry else [])])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {bad}: ") and words in err, err
    assert "nothing written" in err or "not written" in err
    assert state(tmp_path) == before, "no log rewritten, no copy made, the obstacle left alone"


def test_a_link_out_of_the_folder_is_written_through_with_force(tmp_path: Path, capsys):
    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    outside.mkdir()
    logs = make_corpus(corpus)
    _link_out(logs[0], outside)
    assert main(["replace", str(corpus), *FIND, "--force"]) == 0
    assert "austin" in (outside / logs[0].name).read_text(encoding="utf-8")
    assert logs[0].is_symlink()


@pytest.mark.parametrize("dry", [False, True])
def test_a_replacement_xml_cannot_store_is_refused_naming_file_and_session(tmp_path: Path, capsys, dry: bool):
    logs = make_corpus(tmp_path / "corpus")
    before = state(tmp_path)
    status = main(
        [
            "replace",
            str(tmp_path / "corpus"),
            "--find",
            "boston",
            "--replace",
            "bos\x01ton",
            *(["--dry-run"] if dry else []),
        ]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(f"annotator: {logs[0]}: session travel:20261121:001, turn ") and "U+0001" in err, err
    assert err.count("\n") == 1
    assert state(tmp_path) == before


@pytest.mark.slow
def test_a_log_written_by_someone_else_meanwhile_stops_the_run_with_nothing_written(tmp_path: Path):
    """The checks passed, then another writer changed the last log: no log is rewritten, the other save stands."""
    logs = make_corpus(tmp_path / "corpus")
    others = {log: log.read_bytes() for log in logs[:-1]}
    writer = hold_and_change(logs[-1], 5.0, session=0)
    status, err = finish(start("replace", tmp_path / "corpus", *FIND))
    assert writer.wait(timeout=60) == 0, writer.stderr.read()
    assert status == 2, err
    last = err.splitlines()[-1]
    assert last.startswith(f"annotator: {logs[-1]} was changed by another program"), err
    assert last.endswith("nothing written: run the command again"), err
    assert {log: log.read_bytes() for log in logs[:-1]} == others
    assert not any(log.with_name(log.name.replace(".xml", ".orig.xml")).exists() for log in logs)
    assert LogDocument.load(logs[-1]).sessions[0].task_completion == "0", "the other writer's save stands"


@pytest.mark.parametrize("obstacle", ["orig-is-a-fifo", "orig-is-a-folder"])
def test_the_windows_save_and_fold_never_rewrite_a_log_without_a_regular_copy(tmp_path: Path, obstacle: str):
    from annotator.errors import WriteError
    from annotator.log.annotations import set_task_completion

    log = make_corpus(tmp_path / "corpus")[0]
    OBSTACLES[obstacle](log, tmp_path)
    raw = log.read_bytes()
    doc = LogDocument.load(log)
    set_task_completion(doc.sessions[0], "0")
    with pytest.raises(WriteError, match="no copy of the original could be kept"):
        doc.save(keep_original=True)
    assert log.read_bytes() == raw
