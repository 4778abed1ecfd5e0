"""A worker's answer comes back through a file: its result whole, its exception raised in the parent with
the worker's traceback as the cause, an unpicklable answer as one clear error, and no file left behind."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest

from annotator.analysis.child_processes import in_child_process
from annotator.analysis.result_files import FOLDER_PREFIX, WorkerTraceback


def megabytes_of_words(count: int) -> list[str]:
    return ["word"] * (count * 200_000)


def fails_deep_inside(path: str) -> None:
    raise ValueError(f"{path}: no GC_LOG")


def unpicklable(path: str) -> object:
    return threading.Lock()


def test_a_big_result_comes_back_whole_and_its_file_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this run's folders only, not other programs'
    assert in_child_process("log.xml", "read", megabytes_of_words, 5) == megabytes_of_words(5)
    assert not list(tmp_path.glob(f"{FOLDER_PREFIX}*"))


def test_a_workers_exception_is_raised_here_with_where_it_was_raised():
    with pytest.raises(ValueError, match="log.xml: no GC_LOG") as raised:
        in_child_process("log.xml", "read", fails_deep_inside, "log.xml")
    assert isinstance(raised.value.__cause__, WorkerTraceback)
    assert "fails_deep_inside" in str(raised.value.__cause__)


def test_an_answer_that_cannot_be_pickled_is_one_clear_error():
    with pytest.raises(RuntimeError, match="the worker's answer could not be pickled"):
        in_child_process("log.xml", "read", unpicklable, "log.xml")
