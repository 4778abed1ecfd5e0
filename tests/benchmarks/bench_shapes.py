"""The same bytes in two shapes: does any operation grow faster than the log?

    python tests/benchmarks/bench_shapes.py              # 10 MB logs
    python tests/benchmarks/bench_shapes.py --mb 100     # the size of the other benchmarks

Operations: open, info, validate, export in every format (CSV, Parquet, ConvLab, DialBB, LM Challenge
JSONL and text, sclite, human annotations), markers, extract, fold and save.

Two logs of the same size from big_log.py: "many" holds sessions of a dozen turns (about 20
sessions per MB), "one" holds every turn in a single GC_SESSION (about 280 turns per MB). Each
operation runs on both, each run in a fresh child process, after a bare lxml parse of each as the
baseline, and prints one line:

    name: many X s, one Y s = ratio R (target <= 1.25) PASS/MISS  [one / lxml parse: Z]  (wall: many A s, one B s)

The times compared are the child's CPU time (every thread of it): on a machine shared with other
work the wall time of one run can be twice another's for the same work, which says nothing about the
shape; the wall times are printed beside them.

The ratio one/many is what the rule "no operation grows faster than the log" is about: the
same bytes must cost the same whatever their shape. An operation that takes longer than
--give-up seconds on one shape is stopped there and reported as a MISS with its time so far
(it is run in a child process, so a quadratic operation cannot hold the benchmark).
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.big_log import cached_big_log  # noqa: E402

TARGET = 1.25


def _load(path: Path):
    from annotator.log.document import LogDocument

    return LogDocument.load(path)


def _every_turn(doc) -> int:
    return sum(len(session.turns) for session in doc.sessions)


def op_parse(path: Path, _out: Path) -> None:
    from lxml import etree

    etree.parse(str(path), etree.XMLParser(huge_tree=True))


def op_open(path: Path, _out: Path) -> None:
    _every_turn(_load(path))


def op_info(path: Path, _out: Path) -> None:
    from annotator.analysis.summary import describe_document

    describe_document(_load(path))


def op_validate(path: Path, _out: Path) -> None:
    from annotator.analysis.validation import validate_document

    validate_document(_load(path), audio=False)


def op_export_csv(path: Path, out: Path) -> None:
    from annotator.export.csv_export import export_csv

    export_csv([path], out / "csv")


def op_markers(path: Path, _out: Path) -> None:
    from annotator.markers import apply_markers
    from annotator.markers.language import load_markers, shipped_kpis_path

    apply_markers(load_markers(shipped_kpis_path()), _load(path))


def op_extract(path: Path, _out: Path) -> None:
    from annotator.annotation_files.fold import extract

    extract(_load(path))


def op_fold(path: Path, _out: Path) -> None:
    from annotator.annotation_files.fold import extract, fold

    annotations = extract(_load(path))
    fold(_load(path), annotations)


def op_save(path: Path, out: Path) -> None:
    from annotator.log.annotations import set_transcription

    doc = _load(path)
    last_user_turn = next(
        turn for session in reversed(doc.sessions) for turn in reversed(session.turns) if turn.speaker == "user"
    )
    set_transcription(last_user_turn, "one more edit")
    doc.save(out / "saved.xml")


def _export_through_the_command(fmt: str, output: str):
    """`annotator export LOG --to FMT -o OUT/OUTPUT`, as a user runs it (one job: the log is one file)."""

    def op(path: Path, out: Path) -> None:
        import contextlib
        import io

        from annotator.cli.main import main

        said = io.StringIO()  # a line per session some formats skip: thousands, not a result
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            status = main(["export", str(path), "--to", fmt, "-o", str(out / output), "--jobs", "1"])
        assert status == 0, f"export --to {fmt} failed: {said.getvalue()[-500:]}"

    op.__name__ = f"op_export_{fmt.replace('-', '_')}"
    return op


# Every other format `annotator export` writes (CSV is op_export_csv, the streaming path itself).
EXPORTS = [
    _export_through_the_command(fmt, output)
    for fmt, output in (
        ("parquet", "parquet"),
        ("convlab", "convlab"),
        ("dialbb", "scenario.txt"),
        ("lmc", "corpus.jsonl"),
        ("lmc-text", "corpus.txt"),
        ("sclite", "sclite"),
        ("human", "human"),
    )
]

OPERATIONS = [op_open, op_info, op_validate, op_export_csv, *EXPORTS, op_markers, op_extract, op_fold, op_save]


def _child(operation, path: str, out: str, answer) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    operation(Path(path), Path(out))
    answer.send((time.process_time() - cpu, time.perf_counter() - start))


def run_once(operation, path: Path, give_up: float) -> tuple[tuple[float, float], bool]:
    """((CPU seconds, wall seconds), finished) of OPERATION on PATH in a fresh child process."""
    out = Path(tempfile.mkdtemp(prefix="bench-shapes-"))
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_child, args=(operation, str(path), str(out), send))
    start = time.perf_counter()
    child.start()
    finished = receive.poll(give_up)
    elapsed = receive.recv() if finished else (time.perf_counter() - start,) * 2
    child.kill() if not finished else child.join()
    shutil.rmtree(out, ignore_errors=True)
    return elapsed, finished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--give-up", type=float, default=300, help="seconds before an operation is stopped")
    args = parser.parse_args()
    many, one = cached_big_log(args.mb), cached_big_log(args.mb, one_session=True)
    print(f"logs: many {many.stat().st_size / 1e6:.1f} MB, one {one.stat().st_size / 1e6:.1f} MB", flush=True)
    (parse_many, _), _ = run_once(op_parse, many, args.give_up)
    (parse_one, _), _ = run_once(op_parse, one, args.give_up)
    print(f"baseline lxml parse (CPU): many {parse_many:.3f} s, one {parse_one:.3f} s", flush=True)
    misses = 0
    for operation in OPERATIONS:
        name = operation.__name__.removeprefix("op_")
        (on_many, wall_many), many_done = run_once(operation, many, args.give_up)
        (on_one, wall_one), one_done = run_once(operation, one, args.give_up)
        ratio = on_one / on_many
        ok = many_done and one_done and ratio <= TARGET
        misses += not ok
        stopped = "" if one_done and many_done else " (stopped: did not finish)"
        print(
            f"{name}: many {on_many:.3f} s, one {on_one:.3f} s = ratio {ratio:.2f} (target <= {TARGET}) "
            f"{'PASS' if ok else 'MISS'}{stopped}  [one / lxml parse: {on_one / parse_one:.1f}]  "
            f"(wall: many {wall_many:.3f} s, one {wall_one:.3f} s)",
            flush=True,
        )
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
