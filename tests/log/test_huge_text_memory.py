"""Memory of the commands on a log holding one huge transcription stays within 3x lxml's bare tree.

Each command runs in a process of its own on a log whose transcription is 1.5 million words against a
short recognizer text; its peak resident memory (ru_maxrss) is compared with that of a process that only
parses the same file with lxml, measured in the same test. Splitting the text into a string per word
(str.split, a pattern's sub, jiwer's own word lists) held 15 times the text. The commands here meet the bound on
this shape; tests/benchmarks/bench_huge_text.py measures every command on the harsher shapes of
tests/support/huge_text.py, where some do not yet (docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import REPO, command_environment

WORDS = 1_500_000
_PEAK = """import resource, runpy, sys
sys.argv = {argv!r}
try:
    {body}
except SystemExit:
    pass
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_kb(body: str, argv: list[str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK.format(argv=argv, body=body)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=command_environment(),
    )
    return int(done.stderr.strip().splitlines()[-1])


def huge_log(path: Path) -> None:
    words = " ".join(["boston", "to", "fly"] * (WORDS // 3))
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="huge:1" stime="1" etime="9">
<GC_TURN id="1" stime="3" etime="4"><GC_OPERATION name="parse" server="nl" location="l:1" turnid="1" \
stime="3" etime="4" type_new_turn="user"><GC_DATA key=":input_string" type="text_input" \
type_utt_text="asr">i want to fly to boston</GC_DATA></GC_OPERATION><GC_ANNOT><GC_DATA key=":transcription" \
type_utt_text="transcription">{words}, fly</GC_DATA></GC_ANNOT></GC_TURN>
</GC_SESSION></GC_LOG>
""",
        encoding="utf-8",
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["info", "{log}", "-j", "1"],
        ["export", "{log}", "--to", "csv", "-o", "{out}/csv", "-j", "1"],
        ["export", "{log}", "--to", "lmc", "-o", "{out}/x.jsonl", "-j", "1"],
        ["export", "{log}", "--to", "convlab", "-o", "{out}/convlab", "-j", "1"],
        ["extract", "{log}", "-o", "{out}/a.csv", "-j", "1"],
        ["agree", "a={log}", "b={log}", "-j", "1"],
        ["search", "boston", "{log}", "-j", "1"],
    ],
    ids=lambda command: " ".join(part for part in command[:3] if "{" not in part),
)
def test_a_huge_transcription_costs_at_most_three_bare_trees(tmp_path: Path, command: list[str]):
    log = tmp_path / "huge-hublog.xml"
    huge_log(log)
    bare = peak_kb("from lxml import etree; etree.parse(sys.argv[1], etree.XMLParser(huge_tree=True))", ["x", str(log)])
    argv = [part.format(log=log, out=tmp_path) for part in command]
    peak = peak_kb("runpy.run_module('annotator', run_name='__main__')", ["annotator", *argv])
    assert peak <= 3 * bare, f"{peak / 1e3:.0f} MB against a bare tree of {bare / 1e3:.0f} MB"
