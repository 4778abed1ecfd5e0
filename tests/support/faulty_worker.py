"""A Dask worker preload (`dask worker --preload tests/support/faulty_worker.py`) that gives the work of
`info` a bug for the logs whose name holds "-faulty-": it recurses without end, so the worker raises a
RecursionError whose traceback is a thousand frames long, as a real bug on a deep input would."""

from __future__ import annotations

from pathlib import Path

import annotator.analysis.summary as summary

_describe_log = getattr(summary.describe_log, "original", summary.describe_log)  # dask may load this twice


def _deeper(level: int) -> int:
    return _deeper(level + 1) + 1


def describe_log(path: Path) -> str:
    if "-faulty-" in Path(path).name:
        _deeper(0)
    return _describe_log(path)


describe_log.original = _describe_log
summary.describe_log = describe_log  # the work travels by name: the workers look it up here
