"""Benchmark of marker extraction against our plain load time, on the big generated log.

    python tests/benchmarks/bench_markers.py [--mb 100] [--log PATH] [--markers YAML]

Prints "name: ours X s / baseline Y s = ratio R (target <= T) PASS/MISS" for
1. the extraction: every marker evaluated over the loaded log (the one scan
   of its events, the markers, the rows and both statistics tables) vs
   LogDocument.load of the same log, target <= 1.5;
2. for information, end to end: what `annotator markers` does for one log
   (LogDocument.load, the extraction, writing the three CSV files) vs the
   same load, so 1 + (1) plus the writing;
then a breakdown of one extraction (scan, markers, rows). The markers default
to the shipped resources/markers/communicator-kpis.yml. Times are medians of
3 runs, with a garbage collection before each (a loaded document is freed by
the cyclic collector, which costs about a third of the load).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository, when run as a script
sys.path.insert(0, str(HERE))

RUNS = 3
TARGET = 1.5


def timed(action: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    result = action()
    elapsed = time.perf_counter() - start
    del result
    gc.collect()
    return elapsed


def median_time(action: Callable[[], object]) -> float:
    return statistics.median(timed(action) for _ in range(RUNS))


def report(name: str, ours: float, baseline: float, target: float | None) -> None:
    ratio = ours / baseline
    verdict = "" if target is None else f" (target <= {target}) {'PASS' if ratio <= target else 'MISS'}"
    print(f"{name}: ours {ours:.3f} s / baseline {baseline:.3f} s = ratio {ratio:.3f}{verdict}", flush=True)


def extract_and_write(markers, path: Path, out: Path) -> None:
    """The work of `annotator markers --config M LOG -o out/rows.csv --stats-file-prefix out/stats`."""
    from annotator.markers.extract import extract_markers, extracted_markers_csv
    from annotator.markers.stats import MarkerStatistics
    from annotator.writes.atomic import write_atomic

    results = extract_markers(markers, [path])
    write_atomic(out / "rows.csv", extracted_markers_csv(results).encode("utf-8"))
    stats = MarkerStatistics.of(markers.names, results)
    write_atomic(out / "stats-per-session.csv", stats.per_session_csv().encode("utf-8"))
    write_atomic(out / "stats-overall.csv", stats.overall_csv().encode("utf-8"))


def extract_loaded(markers, doc) -> tuple[str, str, str]:
    """The extraction proper on a loaded document: rows and both statistics tables, as text."""
    from annotator.markers.extract import evaluate_log, extracted_markers_csv, session_markers
    from annotator.markers.stats import MarkerStatistics

    results = session_markers(evaluate_log(markers, doc), "big")
    stats = MarkerStatistics.of(markers.names, results)
    return extracted_markers_csv(results), stats.per_session_csv(), stats.overall_csv()


def breakdown(markers, path: Path) -> None:
    """One evaluation split into the scan of the log and the markers' evaluation, then the rows."""
    from annotator.log.document import LogDocument
    from annotator.markers.extract import evaluate_log, session_markers
    from annotator.markers.facts import scan_log
    from annotator.markers.operators import EvaluationContext

    doc = LogDocument.load(path)
    gc.collect()
    clock = time.perf_counter()
    facts = scan_log(doc, markers.needs)
    scanned = time.perf_counter()
    context = EvaluationContext(facts.count, facts.session_starts, lambda c: c.kind.positive(c.value, facts))
    hits = sum(len(marker.reported_events(context)) for marker in markers)
    evaluated = time.perf_counter()
    evaluation = evaluate_log(markers, doc)
    clock_rows = time.perf_counter()
    rows = session_markers(evaluation, "big")
    done = time.perf_counter()
    print(
        f"breakdown (one run; {facts.count} events, {len(rows)} sessions, {hits} hits): "
        f"scan {scanned - clock:.3f} s, markers {evaluated - scanned:.3f} s, "
        f"rows {done - clock_rows:.3f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--markers", type=Path)
    args = parser.parse_args()

    from big_log import cached_big_log

    from annotator.log.document import LogDocument
    from annotator.markers import apply_markers, load_markers, shipped_kpis_path

    path = args.log or cached_big_log(args.mb)
    markers = load_markers(args.markers or shipped_kpis_path())
    print(f"log: {path} ({path.stat().st_size / 1e6:.1f} MB); markers: {', '.join(markers.names)}", flush=True)

    load = median_time(lambda: LogDocument.load(path))
    loaded = LogDocument.load(path)
    extraction = median_time(lambda doc=loaded: extract_loaded(markers, doc))
    report("markers extraction (scan + markers + rows + statistics) vs LogDocument.load", extraction, load, TARGET)
    applied = median_time(lambda doc=loaded: apply_markers(markers, doc))
    report("  apply_markers (the app's call: hits with their elements) vs LogDocument.load", applied, load, None)
    del loaded
    with tempfile.TemporaryDirectory() as scratch:
        end_to_end = median_time(lambda: extract_and_write(markers, path, Path(scratch)))
    report("  end to end (load + extraction + 3 CSV files written) vs LogDocument.load", end_to_end, load, None)
    breakdown(markers, path)


if __name__ == "__main__":
    main()
