"""A program that quits stops its child processes: a pool being made at that moment starts no worker (one
that did kept a quitting window's process alive for its whole validation), and a later pool works again."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

import pytest

import annotator.analysis.child_processes as child_processes
from annotator.analysis.child_processes import in_child_process, stop_children
from annotator.errors import LogReadError


def slow_work(seconds: float) -> str:
    time.sleep(seconds)
    return "finished"


class QuitWhileMade(ProcessPoolExecutor):
    """A pool over which the quit (stop_children) comes as soon as it is made, before it is registered."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        stop_children()


def test_a_pool_made_while_the_program_quits_starts_no_worker(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(child_processes, "ProcessPoolExecutor", QuitWhileMade)
    started = time.monotonic()
    with pytest.raises(LogReadError, match="log.xml: not validated: the program is quitting"):
        in_child_process("log.xml", "validated", slow_work, 30)
    assert time.monotonic() - started < 10, "the worker ran its work to the end"


def test_a_pool_made_after_a_quit_works():
    stop_children()
    assert in_child_process("log.xml", "validated", slow_work, 0) == "finished"
