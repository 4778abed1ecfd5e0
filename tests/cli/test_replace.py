"""`annotator replace`, run for real as a subprocess on copies of the sample logs with planted words."""

from __future__ import annotations

from pathlib import Path

from annotator.annotation_files.fold import canonical_without_annotations
from annotator.log.document import LogDocument
from annotator.team.mode import set_team_mode
from tests.support.cli import run_annotator
from tests.support.planted_logs import plant


def _transcriptions(log: Path) -> dict[str, str | None]:
    session = LogDocument.load(log).sessions[0]
    return {turn.id: turn.transcription for turn in session.turns if turn.speaker == "user"}


def _planted_corpus(corpus: Path) -> tuple[Path, Path]:
    first = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    second = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    plant(first, {"04": "from the mile high city", "08": "on friday evening the mile"})
    plant(second, {"8": "no the mile zurich"})
    for log in (first, second):
        log.with_name(log.name.replace(".xml", ".orig.xml")).unlink(missing_ok=True)
    return first, second


def test_replace_across_a_corpus_prints_each_change_and_keeps_the_originals(corpus: Path):
    first, second = _planted_corpus(corpus)
    raw = {log: log.read_bytes() for log in (first, second)}
    untouched = corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
    untouched_bytes = untouched.read_bytes()
    done = run_annotator("replace", corpus, "--find", "The Mile", "--replace", "mile")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        f"{first}: session travel:20261121:002, turn 04: 'from the mile high city' -> 'from mile high city'",
        f"{first}: session travel:20261121:002, turn 08: 'on friday evening the mile' -> 'on friday evening mile'",
        f"{second}: session travel:20261121:003, turn 8: 'no the mile zurich' -> 'no mile zurich'",
    ]
    assert "replaced 3 transcription(s) in 2 log(s)" in done.stderr
    assert _transcriptions(first)["04"] == "from mile high city"
    assert _transcriptions(second)["8"] == "no mile zurich"
    for log in (first, second):
        kept = log.with_name(log.name.replace(".xml", ".orig.xml"))
        assert kept.read_bytes() == raw[log]
        assert canonical_without_annotations(log.read_bytes()) == canonical_without_annotations(raw[log])
    assert untouched.read_bytes() == untouched_bytes  # nothing to replace: not even rewritten
    assert not untouched.with_name(untouched.name.replace(".xml", ".orig.xml")).exists()


def test_dry_run_writes_nothing(corpus: Path):
    first, second = _planted_corpus(corpus)
    before = {path: path.read_bytes() for path in corpus.rglob("*") if path.is_file()}
    done = run_annotator("replace", first, second, "--find", "mile", "--replace", "smile", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 3
    assert "would replace 3 transcription(s) in 2 log(s) (dry run: nothing written)" in done.stderr
    assert {path: path.read_bytes() for path in corpus.rglob("*") if path.is_file()} == before


def test_regex_groups_and_case_sensitivity(annotated_log: Path):
    done = run_annotator(
        "replace",
        annotated_log,
        "--find",
        r"(\w+) massachusetts",
        "--replace",
        r"\1 mass",
        "--regex",
        "--case-sensitive",
    )
    assert done.returncode == 0, done.stderr
    assert _transcriptions(annotated_log)["4"] == "no boston mass"
    nothing = run_annotator("replace", annotated_log, "--find", "BOSTON", "--replace", "x", "--case-sensitive")
    assert nothing.returncode == 0 and nothing.stdout == ""
    assert "replaced 0 transcription(s) in 0 log(s)" in nothing.stderr


def test_a_replacement_that_empties_a_transcription_removes_it(annotated_log: Path):
    done = run_annotator("replace", annotated_log, "--find", "thank you bye", "--replace", "")
    assert done.returncode == 0, done.stderr
    assert "'thank you bye' -> (removed)" in done.stdout
    assert _transcriptions(annotated_log)["12"] is None


def test_a_bad_regex_is_one_line_and_exit_2(annotated_log: Path):
    before = annotated_log.read_bytes()
    done = run_annotator("replace", annotated_log, "--find", "(boston", "--replace", "x", "--regex")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "annotator: bad regular expression '(boston': missing ), unterminated subpattern at position 0"
    ]
    assert annotated_log.read_bytes() == before


def test_a_replacement_naming_a_missing_group_is_one_line(annotated_log: Path):
    done = run_annotator("replace", annotated_log, "--find", "boston", "--replace", r"\2", "--regex")
    assert done.returncode == 2 and done.stderr.startswith("annotator: bad replacement '\\\\2': no such group")
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_unreadable_log_is_one_line_and_nothing_is_written(corpus: Path):
    first, _ = _planted_corpus(corpus)
    (corpus / "zz-broken-hublog.xml").write_text("<GC_LOG><GC_SESSION>")
    before = first.read_bytes()
    done = run_annotator("replace", corpus, "--find", "mile", "--replace", "smile")
    assert done.returncode == 2
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("annotator: ") and "zz-broken-hublog.xml" in errors[0]
    assert first.read_bytes() == before


def test_a_log_in_team_mode_is_refused(corpus: Path, annotated_log: Path):
    set_team_mode(corpus, True)
    before = annotated_log.read_bytes()
    done = run_annotator("replace", annotated_log, "--find", "boston", "--replace", "austin")
    assert done.returncode == 2 and "in team mode" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert annotated_log.read_bytes() == before
