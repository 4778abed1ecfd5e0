"""Logs holding one huge text, every command that reads a log as argv over them, and the peak memory of a process
that only parses one with lxml (the bare tree): for the test and the benchmark that hold each command's peak memory
to a few bare trees (tests/log/test_huge_text_memory.py, tests/benchmarks/bench_huge_text.py).

Two shapes (SHAPES): a 10 MB text as the recognizer's string and as the transcription, which every command reads
(a 20 MB log: most of the bare tree is text a command copies), and a text of 1.5 million short words four times,
also as both alternatives of the n-best list (the n-best oracle and the doubt read them; a list of short words
costs the most against the text)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.cli import run_python_measured
from tests.support.hostile_shapes import huge_transcription_log
from tests.support.repository import REPO

WORDS = 1_500_000
CHARACTERS = 10_000_000
MARKERS = REPO / "resources" / "markers" / "communicator-kpis.yml"
_PHRASE = ["i", "want", "to", "fly", "to", "boston"]


def huge_words(words: int, last: str) -> str:
    """WORDS words of a travel request said over and over, ending with LAST (the sides differ only there)."""
    phrase = " ".join(_PHRASE)
    return " ".join([phrase] * ((words - 1) // len(_PHRASE))) + " " + last


def write_huge_text_log(path: Path, words: int = WORDS) -> None:
    """A one-session log at PATH whose user turn holds a text of WORDS words four times: the recognizer's string,
    the two alternatives of its n-best list and the transcription (1.5 million words: a 23 MB log)."""
    heard, second, said = huge_words(words, "austin"), huge_words(words, "houston"), huge_words(words, "boston")
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="huge:1" stime="1" etime="9">
<GC_TURN id="0" stime="1" etime="2"><GC_OPERATION name="speak" server="tts" location="l:1" turnid="0" stime="1" \
etime="2" type_new_turn="system"><GC_DATA key=":reply_string" type="text_output" dtype="string">where to\
</GC_DATA></GC_OPERATION></GC_TURN>
<GC_TURN id="1" stime="3" etime="4"><GC_OPERATION name="recognize" server="recognizer" location="l:1" turnid="1" \
stime="3" etime="4" type_new_turn="user"><GC_DATA key=":input_string" type="text_input" type_utt_text="asr" \
dtype="string">{heard}</GC_DATA><GC_DATA key=":nbest_list"><GC_LIST name=":nbest_list">\
<GC_DATA key=":nbest_list[0]" type="text_input_hypothesis" dtype="string">{heard}</GC_DATA>\
<GC_DATA key=":nbest_list[1]" type="text_input_hypothesis" dtype="string">{second}</GC_DATA></GC_LIST></GC_DATA>\
</GC_OPERATION><GC_ANNOT><GC_DATA key=":transcription" type_utt_text="transcription">{said}</GC_DATA>\
<GC_DATA key=":task_completion">1</GC_DATA></GC_ANNOT></GC_TURN>
</GC_SESSION></GC_LOG>
""",
        encoding="utf-8",
    )


def write_two_texts_log(path: Path, characters: int = CHARACTERS) -> None:
    """A one-session log at PATH whose user turn holds a text of CHARACTERS as the recognizer's string and as the
    transcription (10 million: a 20 MB log)."""
    path.write_text(huge_transcription_log(characters), encoding="utf-8")


SHAPES: dict[str, Callable[[Path], None]] = {"two texts": write_two_texts_log, "n-best": write_huge_text_log}


def write_annotations_csv(path: Path, words: int = WORDS) -> None:
    """An annotations CSV giving the user turn of either shape a transcription of WORDS words (fold's input)."""
    path.write_text(
        f"session_id,turn_id,transcription,task_completion\nhuge:1,1,{huge_words(words, 'dallas')},\nhuge:1,,,0\n",
        encoding="utf-8",
    )


# name: argv from (the log, the annotations CSV, a fresh folder for the outputs)
HUGE_TEXT_COMMANDS: dict[str, Callable[[Path, Path, Path], list]] = {
    "info": lambda log, csv, out: ["info", log, "-j", "1"],
    "validate": lambda log, csv, out: ["validate", log, "-j", "1"],
    "export csv": lambda log, csv, out: ["export", log, "--to", "csv", "-o", out / "csv", "-j", "1"],
    "export parquet": lambda log, csv, out: ["export", log, "--to", "parquet", "-o", out / "pq", "-j", "1"],
    "export convlab": lambda log, csv, out: ["export", log, "--to", "convlab", "-o", out / "convlab", "-j", "1"],
    "export dialbb": lambda log, csv, out: ["export", log, "--to", "dialbb", "-o", out / "d.txt", "-j", "1"],
    "export lmc": lambda log, csv, out: ["export", log, "--to", "lmc", "-o", out / "x.jsonl", "-j", "1"],
    "export lmc-text": lambda log, csv, out: ["export", log, "--to", "lmc-text", "-o", out / "x.txt", "-j", "1"],
    "export sclite": lambda log, csv, out: ["export", log, "--to", "sclite", "-o", out / "sclite", "-j", "1"],
    "export human": lambda log, csv, out: ["export", log, "--to", "human", "-o", out / "human", "-j", "1"],
    "export textgrid": lambda log, csv, out: ["export", log, "--to", "textgrid", "-o", out / "tg", "-j", "1"],
    "export eaf": lambda log, csv, out: ["export", log, "--to", "eaf", "-o", out / "eaf", "-j", "1"],
    "extract csv": lambda log, csv, out: ["extract", log, "-o", out / "a.csv", "-j", "1"],
    "extract xml": lambda log, csv, out: ["extract", log, "-o", out / "a.xml", "-j", "1"],
    "fold": lambda log, csv, out: ["fold", log, csv, "-o", out / "folded.xml"],
    "replace --dry-run": lambda log, csv, out: ["replace", log, "--find", "boston", "--replace", "austin", "--dry-run"],
    "agree": lambda log, csv, out: ["agree", f"a={log}", f"b={log}", "-o", out / "agree.html", "-j", "1"],
    "adjudicate": lambda log, csv, out: ["adjudicate", log, f"a={log}", f"b={log}", "--majority", "-o", out / "j.xml"],
    "assign": lambda log, csv, out: ["assign", log.parent, "--annotators", "a,b", "--seed", "1", "-o", out / "s.csv"],
    "index": lambda log, csv, out: ["index", log],
    "search": lambda log, csv, out: ["search", "boston", log, "-j", "1"],
    "markers": lambda log, csv, out: [
        *("markers", "--config", MARKERS, log, "-o", out / "m.csv", "--stats-file-prefix", out / "stats", "-j", "1")
    ],
}

_BARE_PARSE = "import sys; from lxml import etree; etree.parse(sys.argv[1], etree.XMLParser(huge_tree=True))"


def bare_tree_peak(log: Path) -> int:
    """The peak resident memory, in bytes, of a process that only parses LOG with lxml."""
    done, peak = run_python_measured("-c", _BARE_PARSE, log)
    assert done.returncode == 0, done.stderr
    return peak
