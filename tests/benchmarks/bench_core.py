"""Benchmark of the core against bare lxml and pandas on a big generated log.

    python tests/benchmarks/bench_core.py [--mb 100] [--log PATH]

Prints, from one run, each measurement as
"name: ours X / baseline Y = ratio R (target <= T) PASS/MISS":
1. LogDocument.load vs lxml.etree.parse
2. peak memory of a loaded LogDocument vs a bare lxml tree (each in a fresh
   child process: ru_maxrss after loading minus ru_maxrss after the imports)
3. full CSV export (the streaming export, all three files) vs
   pandas.read_xml(path, xpath="//GC_OPERATION"), on both shapes of the same size
   (~2,000 sessions of a dozen turns; one session of all the turns), and the
   peak memory of the streaming export vs the bare lxml tree of each shape
4. `annotator info`'s work (LogDocument.load + describe_document) vs lxml.etree.parse
   on both shapes, with the floor: three attributes of every activity and GC_DATA read
   from Python
5. set_transcription on one user turn + LogDocument.save to a new path vs
   lxml's tree.write
Times are the median of 3 runs (pandas.read_xml once when it is very slow).
A breakdown of the export follows, to show what bounds it.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository, when run as a script
sys.path.insert(0, str(HERE))

RUNS = 3
SLOW_BASELINE_S = 20.0  # a baseline slower than this is run once


def timed(action: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    result = action()
    elapsed = time.perf_counter() - start
    del result
    gc.collect()
    return elapsed


def median_time(action: Callable[[], object], runs: int = RUNS, slow: float | None = None) -> float:
    times = [timed(action)]
    if slow is None or times[0] < slow:
        times += [timed(action) for _ in range(runs - 1)]
    return statistics.median(times)


def report(name: str, ours: float, baseline: float, target: float, unit: str = "s") -> bool:
    ratio = ours / baseline
    verdict = "PASS" if ratio <= target else "MISS"
    print(
        f"{name}: ours {ours:.3f} {unit} / baseline {baseline:.3f} {unit} = ratio {ratio:.3f} "
        f"(target <= {target}) {verdict}",
        flush=True,
    )
    return ratio <= target


# --- peak memory, each in a fresh interpreter ---------------------------------------------------


def _max_rss_mb() -> float:
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024  # bytes on macOS, KiB elsewhere


def child_memory(kind: str, path: str) -> None:
    """Run in a child process: print the peak memory that loading PATH added, in MB."""
    from lxml import etree

    if kind == "ours":
        from annotator.log.document import LogDocument

        baseline = _max_rss_mb()
        doc = LogDocument.load(path)
    elif kind == "export":
        from annotator.export.csv_export import export_csv

        baseline = _max_rss_mb()
        with tempfile.TemporaryDirectory(prefix="bench-core-memory-") as scratch:
            doc = export_csv([Path(path)], Path(scratch))
    else:
        baseline = _max_rss_mb()
        doc = etree.parse(path)
    print(_max_rss_mb() - baseline)
    del doc


def peak_memory(kind: str, path: Path) -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--child-memory", kind, str(path)], check=True, capture_output=True, text=True
    )
    return float(out.stdout.strip())


# --- the measurements ---------------------------------------------------------------------------


def bench_load(path: Path) -> bool:
    from lxml import etree

    from annotator.log.document import LogDocument

    ours = median_time(lambda: LogDocument.load(path))
    bare = median_time(lambda: etree.parse(str(path)))
    return report("load: LogDocument.load vs lxml.etree.parse", ours, bare, 1.3)


def _read_rule_attributes(root) -> None:
    """What any reading of a log's rules must at least do from Python: reach every activity and GC_DATA and
    read three attributes of each (the facts walk reads these and more)."""
    for el in root.iter("GC_OPERATION", "GC_MESSAGE", "GC_EVENT"):
        el.get("type_new_turn"), el.get("stime"), el.get("etime")
    for el in root.iter("GC_DATA"):
        el.get("type"), el.get("key"), el.get("type_utt_text")


def bench_info(path: Path, shape: str) -> bool:
    """`annotator info`'s work (load, every session's metrics and summary) against a bare lxml parse, and
    the floor any Python reading of the rules has."""
    from lxml import etree

    from annotator.analysis.summary import describe_document
    from annotator.log.document import LogDocument

    ours = median_time(lambda: describe_document(LogDocument.load(path)))
    bare = median_time(lambda: etree.parse(str(path), etree.XMLParser(huge_tree=True)))
    met = report(f"info ({shape}): LogDocument.load + describe_document vs lxml.etree.parse", ours, bare, 1.3)
    root = etree.parse(str(path), etree.XMLParser(huge_tree=True)).getroot()
    floor = median_time(lambda: _read_rule_attributes(root))
    print(
        f"  floor: three attributes of every activity and GC_DATA read from Python: {floor:.3f} s = "
        f"{floor / bare:.2f} of the parse",
        flush=True,
    )
    return met


def bench_memory_quietly(path: Path) -> Callable[[], bool]:
    """Measure now, report when called (so that the report keeps its order)."""
    ours = peak_memory("ours", path)
    bare = peak_memory("lxml", path)
    return lambda: report("peak memory: LogDocument vs bare lxml tree", ours, bare, 1.3, unit="MB")


def bench_export_memory_quietly(path: Path, shape: str) -> Callable[[], bool]:
    """Measure now (while this process is small), report when called."""
    ours = peak_memory("export", path)
    bare = peak_memory("lxml", path)
    return lambda: report(f"peak memory, {shape}: streaming CSV export vs bare lxml tree", ours, bare, 1.0, unit="MB")


def cpu_and_wall(action: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run: the CPU time is what other work on the cores moves least."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def bench_export(path: Path, scratch: Path, shape: str) -> bool:
    import pandas

    from annotator.export.csv_export import export_csv

    ours = [cpu_and_wall(lambda: export_csv([path], scratch / "csv")) for _ in range(RUNS)]
    baseline = [cpu_and_wall(lambda: pandas.read_xml(path, xpath="//GC_OPERATION"))]
    if baseline[0][1] < SLOW_BASELINE_S:
        baseline += [cpu_and_wall(lambda: pandas.read_xml(path, xpath="//GC_OPERATION")) for _ in range(RUNS - 1)]
    cpu = statistics.median(c for c, _ in ours) / statistics.median(c for c, _ in baseline)
    print(
        f"  (CPU time, {shape}: ours {statistics.median(c for c, _ in ours):.3f} s / pandas "
        f"{statistics.median(c for c, _ in baseline):.3f} s = {cpu:.3f})",
        flush=True,
    )
    return report(
        f"CSV export, {shape} (streamed, 3 files) vs pandas.read_xml(//GC_OPERATION)",
        statistics.median(w for _, w in ours),
        statistics.median(w for _, w in baseline),
        0.3,
    )


def streaming_floor(path: Path) -> None:
    """What any streaming export pays before a row: libxml2 reading the file with the sessions
    cleared as they end (lxml iterparse), and the Python loop over the 8 attributes of every
    operation, message and event, next to the whole export."""
    from lxml import etree

    from annotator.export.csv_export import export_csv

    def parse_only() -> None:
        for _, el in etree.iterparse(str(path), events=("end",), tag="GC_SESSION"):
            el.clear()

    def attributes_too() -> None:
        names = ("name", "server", "location", "tidx", "stime", "etime", "type", "turnid")
        for _, el in etree.iterparse(str(path), events=("end",), tag="GC_SESSION"):
            for activity in el.iter("GC_OPERATION", "GC_MESSAGE", "GC_EVENT"):
                get = activity.get
                for name in names:
                    get(name)
            el.clear()

    with tempfile.TemporaryDirectory(prefix="bench-core-floor-") as scratch:
        stages = {
            "iterparse with clearing": cpu_and_wall(parse_only)[0],
            "+ reading 8 attributes of each activity": cpu_and_wall(attributes_too)[0],
            "whole streaming export": cpu_and_wall(lambda: export_csv([path], Path(scratch)))[0],
        }
    print(
        "streaming stages (CPU s, one run): " + ", ".join(f"{name} {cpu:.2f}" for name, cpu in stages.items()),
        flush=True,
    )


def export_breakdown(path: Path) -> None:
    """One export split into its stages, to show what bounds it."""
    from annotator.analysis.doubt import session_doubts
    from annotator.analysis.metrics import session_metrics
    from annotator.export.csv_audio import AudioCells
    from annotator.export.csv_rows import event_lines, session_line, turn_lines
    from annotator.log.document import LogDocument

    gc.collect()
    clock = time.perf_counter()
    doc = LogDocument.load(path)
    stages = {"load": time.perf_counter() - clock}
    clock = time.perf_counter()
    metrics = [session_metrics(session) for session in doc.sessions]
    stages["session_metrics"] = time.perf_counter() - clock
    audio = AudioCells(doc.folder)
    clock = time.perf_counter()
    turns = [turn_lines("f", session, m, audio, None, 1) for session, m in zip(doc.sessions, metrics)]
    stages["turns.csv rows"] = time.perf_counter() - clock
    clock = time.perf_counter()
    sessions = [session_line("f", session, m, n, 1) for session, m, (_, n) in zip(doc.sessions, metrics, turns)]
    stages["sessions.csv rows"] = time.perf_counter() - clock
    rows: list[str] = []
    clock = time.perf_counter()
    for session in doc.sessions:
        event_lines("f", session, rows.append)
    stages["events.csv rows"] = time.perf_counter() - clock
    clock = time.perf_counter()
    for lines in ([line for chunk, _ in turns for line in chunk], sessions, rows):
        "".join(lines).encode("utf-8")
    stages["encoding"] = time.perf_counter() - clock
    total = sum(stages.values())
    parts = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in stages.items())
    print(f"export breakdown (one run, {len(rows)} event rows): {parts}; total {total:.2f} s", flush=True)
    facts = [session.turn_facts() for session in doc.sessions]  # cached: the turns.csv rows made them
    clock = time.perf_counter()
    for session_facts in facts:
        session_doubts(session_facts)
    print(f"  of which the doubt scores (turns.csv's doubt column): {time.perf_counter() - clock:.2f} s", flush=True)


def _time_edit_and_save(path: Path, scratch: Path) -> float:
    from annotator.log.annotations import set_transcription
    from annotator.log.document import LogDocument

    doc = LogDocument.load(path)
    turn = next(t for s in doc.sessions for t in s.turns if t.speaker == "user")
    edits = iter(range(1000))

    def edit_and_save() -> None:
        set_transcription(turn, f"i would like to fly to boston edit {next(edits)}")
        doc.save(scratch / "saved.xml")

    return median_time(edit_and_save)


def bench_save(path: Path, scratch: Path) -> bool:
    from lxml import etree

    ours = _time_edit_and_save(path, scratch)
    gc.collect()
    tree = etree.parse(str(path))
    bare = median_time(lambda: tree.write(str(scratch / "lxml.xml")))
    return report("save after one edit: LogDocument.save vs lxml tree.write", ours, bare, 1.5)


def count_start_tags(path: Path, tag: bytes) -> int:
    """Start tags of TAG in the file, counted in the bytes (no tree: this process must stay small)."""
    needle = b"<" + tag
    count = 0
    carry = b""
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            data = carry + chunk
            at = data.find(needle)
            while at >= 0:
                after = data[at + len(needle) : at + len(needle) + 1]
                if after and after in b" \t\r\n/>":
                    count += 1
                at = data.find(needle, at + 1)
            # A tag cut by the chunk boundary (or lacking the byte after it) is counted in the next round.
            carry = data[-len(needle) :]
    return count


def describe_machine(path: Path) -> None:
    from importlib.metadata import version

    from lxml import etree

    size_mb = path.stat().st_size / 1_000_000
    operations = count_start_tags(path, b"GC_OPERATION")
    print(
        f"machine: {os.cpu_count()} CPU(s), {platform.machine()}, Python {platform.python_version()}, "
        f"lxml {etree.__version__} (libxml2 {'.'.join(map(str, etree.LIBXML_VERSION))}), pandas {version('pandas')}"
    )
    print(f"log: {path} ({size_mb:.1f} MB, {operations} GC_OPERATION)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100, help="size of the generated log (default 100)")
    parser.add_argument("--log", type=Path, help="benchmark this log instead of a generated one")
    parser.add_argument("--child-memory", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_memory:
        child_memory(*args.child_memory)
        return 0
    from big_log import cached_big_log

    path = args.log or cached_big_log(args.mb)
    one_session = None if args.log else cached_big_log(args.mb, one_session=True)
    shapes = [("many sessions", path)] + ([("one session", one_session)] if one_session else [])
    # Memory first, while this process is small: on Linux a child's ru_maxrss starts from its
    # parent's peak (carried over fork and exec), which would hide what the child itself used.
    memory = bench_memory_quietly(path)
    export_memory = [bench_export_memory_quietly(log, shape) for shape, log in shapes]
    describe_machine(path)
    with tempfile.TemporaryDirectory(prefix="bench-core-") as scratch:
        results = [
            memory(),
            *(measure() for measure in export_memory),
            bench_load(path),
            *(bench_info(log, shape) for shape, log in shapes),
            *(bench_export(log, Path(scratch), shape) for shape, log in shapes),
            bench_save(path, Path(scratch)),
        ]
        export_breakdown(path)
        for _shape, log in shapes:
            streaming_floor(log)
    print(f"{sum(results)} of {len(results)} targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
