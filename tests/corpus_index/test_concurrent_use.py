"""Several processes on one index: searches beside a fold that rewrites every log and a process saving
a log and updating the index at once (as the window does) never see "database is locked" or an error,
and the last answer equals a scan of the files."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.plain_scan import hits_of, scan
from tests.support.repository import REPO

annotator = partial(
    run_annotator, cwd=REPO, timeout=None
)  # the real command, run from the repository with no time limit

SEARCHES = 6

SEARCHER = textwrap.dedent("""
    import sys
    from annotator.cli.main import main
    statuses = [main(["search", "--jobs", "1", "flight", sys.argv[1]]) for _ in range(int(sys.argv[2]))]
    print("statuses", statuses, file=sys.stderr)
""")

SAVER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from annotator.corpus_index.corpus import open_index
    from annotator.corpus_index import refresh
    from annotator.log.annotations import set_transcription
    from annotator.log.document import LogDocument
    log, corpus = Path(sys.argv[1]), Path(sys.argv[2])
    store = open_index([corpus], notice=lambda line: print("notice", line, file=sys.stderr))
    for number in range(int(sys.argv[3])):
        document = LogDocument.load(log)
        set_transcription(document.sessions[0].turn("2"), f"flight number {number}")
        document.save(log)
        refresh.update(store, [log])
    store.close()
""")


def _start(script: str, *argv) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, argv)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_searches_beside_a_fold_and_a_save(corpus: Path, annotated_log: Path, tmp_path: Path):
    annotations = tmp_path / "annotations.csv"
    assert annotator("extract", corpus, "-o", annotations).returncode == 0
    assert annotator("index", corpus, "--jobs", "1").returncode == 0
    searchers = [_start(SEARCHER, corpus, SEARCHES) for _ in range(2)]
    saver = _start(SAVER, annotated_log, corpus, 8)
    folds = [annotator("fold", corpus, annotations, "-o", corpus, "--force") for _ in range(2)]
    finished = [process.communicate(timeout=600) for process in [*searchers, saver]]
    # A fold that read a log the saver then changed refuses it and writes nothing (the writers' exclusion);
    # what matters here is that neither the index nor the logs were ever "locked" for anyone.
    for fold in folds:
        assert fold.returncode == 0 or (fold.returncode == 2 and "changed by another program" in fold.stderr), (
            fold.stderr
        )
        assert "locked" not in fold.stderr and "Traceback" not in fold.stderr, fold.stderr
    for process, (_out, err) in zip([*searchers, saver], finished):
        assert process.returncode == 0, err
        assert "locked" not in err and "Traceback" not in err and "internal error" not in err, err
        assert "notice" not in err, err
    for _, err in finished[:2]:
        statuses = err.splitlines()[-1]
        assert statuses == "statuses " + str([0] * SEARCHES), err
    last = annotator("search", "flight", corpus)
    assert last.returncode == 0 and last.stderr == ""
    assert hits_of(last.stdout) == scan([corpus], "flight")
