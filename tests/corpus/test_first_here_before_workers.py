"""With first_here, the first file's outcome comes before any worker is asked for: starting the workers waits
for the fork server (half a second at its first start), which the session browser's first rows need not."""

from __future__ import annotations

import os
from pathlib import Path

from annotator.corpus.chunks import in_order, outcomes_of
from annotator.corpus.parallel import ProcessMap


def test_the_first_outcome_is_yielded_before_the_first_submit():
    paths = [Path(f"log-{n}.xml") for n in range(6)]
    chunks = [range(0, 1), range(1, 3), range(3, 6)]
    events: list[tuple[str, object]] = []
    submitted: list[int] = []

    def submit(index: int) -> int:
        events.append(("submit", index))
        submitted.append(index)
        return index

    def here(path: Path) -> str:
        events.append(("here", path.name))
        return path.name

    outcomes = in_order(
        paths,
        chunks,
        submit,
        lambda: submitted.pop(0),
        lambda index: outcomes_of(lambda path: path.name, [paths[i] for i in chunks[index]]),
        in_flight=4,
        progress=None,
        here=here,
    )
    assert next(outcomes) == (paths[0], "log-0.xml")
    assert events == [("here", "log-0.xml")]
    assert list(outcomes) == [(path, path.name) for path in paths[1:]]
    assert events[1:] == [("submit", 1), ("submit", 2)]


def pid_of(path: Path) -> int:
    return os.getpid()


def test_a_process_map_reads_the_first_file_here_and_the_others_in_workers(tmp_path: Path):
    paths = []
    for n in range(4):
        paths.append(tmp_path / f"log-{n}.xml")
        paths[-1].write_bytes(b"x" * 2_000_000)  # a chunk each
    outcomes = ProcessMap(2, first_here=True)(pid_of, paths)
    assert next(outcomes) == (paths[0], os.getpid())
    assert all(pid != os.getpid() for _, pid in outcomes)
