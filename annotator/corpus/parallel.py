"""Per-file work over a corpus: one function applied to every log, results in the input order.

    for path, outcome in serial_map(summarise_log, paths, progress):
        if isinstance(outcome, AnnotatorError): ...   # that file's one-line error
        else: ...                                     # that file's result

A FileMap runs WORK(path) for each path and yields (path, outcome) in the
order of PATHS, whatever order the work finishes in, so a corpus-wide output
is the same bytes however it was computed. An AnnotatorError raised by the
work is the file's outcome (the caller decides whether it stops the run);
any other exception propagates. WORK must be picklable (a module-level
function, or a functools.partial of one) and its results too, so that the
same call can run in other processes or on other machines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from annotator.errors import AnnotatorError
from annotator.progress import Progress

T = TypeVar("T")
Outcome = tuple[Path, T | AnnotatorError]


class FileMap(Protocol):
    def __call__(self, work: Callable[[Path], T], paths: Sequence[Path],
                 progress: Progress | None = None) -> Iterator[Outcome]: ...


def serial_map(work: Callable[[Path], T], paths: Sequence[Path],
               progress: Progress | None = None) -> Iterator[Outcome]:
    """WORK over PATHS one after the other, in this process."""
    items = paths if progress is None else progress(paths, total=len(paths))
    for path in items:
        try:
            outcome = work(path)
        except AnnotatorError as error:
            outcome = error
        yield path, outcome
