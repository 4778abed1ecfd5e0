"""The corpus index on a 2,000-log corpus: the session browser's first and second fill, Ctrl+Shift+F,
`annotator search`, `annotator info` first and second, and the index's size against the corpus's.

    python tests/benchmarks/bench_index.py                       # 2,000 logs (bench_corpus's corpus)
    python tests/benchmarks/bench_index.py --files 200           # quicker
    python tests/benchmarks/bench_index.py --warm-cache DIR      # DIR's index made already (annotator index):
                                                                 # the second fill, searches and size only

The corpus is bench_corpus.corpus(FILES, KB) (cached under tests/benchmarks/.cache/). The index goes to a
fresh temporary cache folder ($ANNOTATOR_CACHE_DIR), never the user's. Each line:
  browser first fill:   the real SessionBrowser (offscreen) scanning the corpus with no index, until done
  browser second fill:  the same corpus again: until every row is listed (target < 1 s), until done
  Ctrl+Shift+F:         the dock's worker (corpus_index.pattern_search.search_logs) over every log (target < 0.1 s),
                        and until its first hit (what the dock shows first)
  annotator search:     the command in a fresh process, its answer checked (each log hashed)
  info:                 `annotator info` first (no index) and second; ratio (target <= 0.3), same output
  index size:           the SQLite file against the corpus's bytes
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

WARM = sys.argv[sys.argv.index("--warm-cache") + 1] if "--warm-cache" in sys.argv[:-1] else None
os.environ["ANNOTATOR_CACHE_DIR"] = WARM or str(Path(tempfile.mkdtemp(prefix="bench-index-")) / "cache")

from offscreen_window import isolated_offscreen  # noqa: E402

isolated_offscreen("bench-index-")

from bench_corpus import corpus  # noqa: E402
from PySide6.QtCore import QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from annotator.analysis.search import Query  # noqa: E402
from annotator.corpus.paths import expand_log_paths  # noqa: E402
from annotator.corpus_index.location import corpus_root, index_file  # noqa: E402
from annotator.corpus_index.pattern_search import search_logs  # noqa: E402
from annotator.gui.corpus.session_browser import SessionBrowser  # noqa: E402
from tests.support.cli import run_annotator  # noqa: E402


def browser_fill(folder: Path, files: int) -> tuple[float, float]:
    """(seconds until every log's rows are listed, seconds until the scan ended)."""
    browser = SessionBrowser()
    browser.show()
    loop = QEventLoop()
    listed: list[float] = []
    logs = set(expand_log_paths([folder]))

    def rows() -> None:
        model = browser.model
        if not listed and len({model.summary_at(row).file for row in range(model.rowCount())}) >= len(logs):
            listed.append(time.perf_counter())

    browser.model.rowsInserted.connect(lambda *_: rows())
    browser.scan_finished.connect(lambda _ok: loop.quit())
    start = time.perf_counter()
    browser.scan(folder)
    loop.exec()
    end = time.perf_counter()
    browser.deleteLater()
    return (listed[0] if listed else end) - start, end - start


def command(*argv) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = run_annotator(*argv, cwd=REPO, timeout=None)

    return time.perf_counter() - start, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--kb", type=float, default=19, help="about how big each log is")
    parser.add_argument("--warm-cache", metavar="DIR", help="a cache folder holding the corpus's index already")
    args = parser.parse_args()
    folder = corpus(args.files, args.kb)
    size = sum(path.stat().st_size for path in folder.rglob("*.xml"))
    print(f"corpus: {args.files} logs, {size / 1e6:.1f} MB; cores: {len(os.sched_getaffinity(0))}", flush=True)
    application = QApplication.instance() or QApplication([])
    if not args.warm_cache:
        info_first, first = command("info", folder)
        info_second, second = command("info", folder)
        same = first.stdout == second.stdout and first.returncode == second.returncode
        print(
            f"info: first {info_first:.2f} s, second {info_second:.2f} s = ratio {info_second / info_first:.2f} "
            f"(target <= 0.3); output {'identical' if same else 'DIFFERS'}",
            flush=True,
        )
        listed, done = browser_fill(folder, args.files)
        print(f"browser first fill: every row {listed:.2f} s, done {done:.2f} s", flush=True)
    listed, done = browser_fill(folder, args.files)
    print(
        f"browser second fill: every row {listed:.2f} s (target < 1 s), done (hashes checked) {done:.2f} s", flush=True
    )
    paths = expand_log_paths([folder])
    for text in ("flight", "Boston", r"\bto (boston|denver)\b"):
        query = Query(text, regex=text.startswith("\\"))
        times, firsts = [], []
        for _ in range(3):
            start = time.perf_counter()
            found = search_logs(paths, query, folder)
            hits = 1 if next(found, None) is not None else 0
            firsts.append(time.perf_counter() - start)
            hits += sum(1 for _ in found)
            times.append(time.perf_counter() - start)
        print(
            f"Ctrl+Shift+F {text!r}: {min(times) * 1000:.0f} ms (target < 100 ms), {hits} hits, the first after "
            f"{min(firsts) * 1000:.0f} ms",
            flush=True,
        )
    for text in ("flight", "boston*", '"to boston"'):
        seconds, found = command("search", text, folder)
        print(
            f"annotator search {text!r}: {seconds:.2f} s, {found.stdout.count(chr(10))} hits, exit {found.returncode}",
            flush=True,
        )
    file = index_file(corpus_root([folder]))
    index_bytes = sum(
        Path(str(file) + suffix).stat().st_size for suffix in ("", "-wal") if Path(str(file) + suffix).exists()
    )
    print(
        f"index size: {index_bytes / 1e6:.1f} MB for {size / 1e6:.1f} MB of logs ({100 * index_bytes / size:.0f}%)",
        flush=True,
    )
    del application
    return 0


if __name__ == "__main__":
    sys.exit(main())
