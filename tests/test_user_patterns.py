"""Users' regular expressions run with a time limit: `replace --regex` and the markers' text_matches,
run for real as subprocesses on a log whose transcription makes a backtracking pattern explode."""

from __future__ import annotations

import pickle
import subprocess
import time
from pathlib import Path

import pytest

from annotator.user_patterns import LIMIT_S, PatternError, PatternTooSlow, UserPattern
from tests.support.cli import run_annotator
from tests.support.planted_logs import plant

EXPLODING = "a" * 40 + "!"  # `(a+)+$` under Python's re: about 2**40 steps
# Nested quantifiers the regex package cannot simplify: exponential there too, so the limit is what ends it.
TOO_SLOW = "(a|a)+$"
# Generous for a busy machine: the pattern runs LIMIT_S per text, twice per text in a replacement's plan.
QUICK_S = 30 * LIMIT_S


def _annotator(*args: str | Path, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """The finished command and how long it took (seconds)."""
    started = time.monotonic()
    done = run_annotator(*args, cwd=cwd, timeout=QUICK_S * 2)
    return done, time.monotonic() - started


@pytest.fixture
def exploding_log(annotated_log: Path) -> Path:
    plant(annotated_log, {"2": EXPLODING})
    annotated_log.with_name(annotated_log.name.replace(".xml", ".orig.xml")).unlink(missing_ok=True)
    return annotated_log


def test_the_issues_pattern_runs_in_bounded_time_and_changes_nothing(exploding_log: Path):
    before = exploding_log.read_bytes()
    done, took = _annotator("replace", exploding_log, "--find", "(a+)+$", "--replace", "x", "--regex")
    assert done.returncode == 0, done.stderr
    assert took < QUICK_S
    assert exploding_log.read_bytes() == before


@pytest.mark.slow
def test_a_pattern_past_the_limit_is_refused_in_one_line_and_nothing_is_written(exploding_log: Path):
    before = exploding_log.read_bytes()
    done, took = _annotator("replace", exploding_log, "--find", TOO_SLOW, "--replace", "x", "--regex")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"annotator: regular expression '{TOO_SLOW}' took longer than")
    assert took < QUICK_S
    assert exploding_log.read_bytes() == before


@pytest.mark.slow
def test_a_text_matches_marker_past_the_limit_is_one_line_naming_the_log(exploding_log: Path, tmp_path: Path):
    (tmp_path / "markers.yml").write_text(f"slow:\n  text_matches: '{TOO_SLOW}'\n")
    done, took = _annotator("markers", "--config", "markers.yml", exploding_log, "-o", "out.csv", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(exploding_log) in lines[0] and "took longer than" in lines[0]
    assert took < QUICK_S


def test_the_issues_pattern_as_a_marker_ends(exploding_log: Path, tmp_path: Path):
    (tmp_path / "markers.yml").write_text("nested:\n  text_matches: '(a+)+$'\n")
    done, took = _annotator("markers", "--config", "markers.yml", exploding_log, "-o", "out.csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert took < QUICK_S


def test_python_re_syntax_and_messages_are_kept():
    assert [m.span() for m in UserPattern(r"(?<!\w)b\w+n\b", ignore_case=True).finditer("Boston, bin")] == [
        (0, 6),
        (8, 11),
    ]
    assert UserPattern("a.b", literal=True).search("axb") is None
    with pytest.raises(PatternError, match=r"^bad regular expression '\(x': missing \), unterminated subpattern"):
        UserPattern("(x")
    with pytest.raises(PatternError, match="bad regular expression"):
        UserPattern(r"\p{L}")  # the regex package's own syntax is not what users are told they may type


def test_a_pattern_crosses_to_worker_processes_as_its_source():
    pattern = UserPattern("b.ston", ignore_case=True)
    again = pickle.loads(pickle.dumps(pattern))
    assert again == pattern and again.search("BOSTON") is not None


@pytest.mark.slow
def test_the_limit_is_a_one_line_error_of_its_own():
    with pytest.raises(PatternTooSlow) as raised:
        list(UserPattern(TOO_SLOW).finditer(EXPLODING))
    assert "\n" not in str(raised.value)


def test_nested_counted_repetitions_are_refused_before_compiling():
    started = time.monotonic()
    with pytest.raises(PatternError, match=r"too large: its counted repetitions spell out 1,000,000 items"):
        UserPattern("(a{1000}){1000}")  # the regex package took 3 s to compile it, with no limit
    assert time.monotonic() - started < 1.0
    assert UserPattern(r"\d{4}-\d{2}-\d{2}").search("on 2026-11-29") is not None
