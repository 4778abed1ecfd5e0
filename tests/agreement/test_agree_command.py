"""`annotator agree` run for real on generated double and triple annotations with planted disagreements
(tests/support/planted_team.py says what was planted; every figure below follows from it by hand)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.annotation_files.annotation_csv import write_annotation_csv
from annotator.annotation_files.fold import read_annotations
from tests.support import planted_team
from tests.support.cli import run_annotator

W = planted_team.WORDS_PER_SESSION * planted_team.SESSIONS  # 110 words in all of one annotator's turns


def read_table(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_a_team_corpus_pairs_every_annotator_found_beside_the_logs(team_run):
    _report, figures = team_run
    rows = {(row["annotator_a"], row["annotator_b"]): row for row in read_table(figures / "pairs.csv")}
    assert list(rows) == [("ann1", "ann2"), ("ann1", "ann3"), ("ann2", "ann3"), ("overall", "overall")]
    expected = {  # turns, WER A against B, B against A, identical turns, Cohen's kappa
        ("ann1", "ann2"): (30, 1 / W, 1 / W, 29, 8 / 13),
        ("ann1", "ann3"): (29, 1 / (W - 4), 1 / (W - 3), 28, 8 / 13),
        ("ann2", "ann3"): (29, 2 / (W - 4), 2 / (W - 3), 27, 1 / 6),
    }
    for pair, (turns, a_b, b_a, identical, kappa) in expected.items():
        row = rows[pair]
        assert int(row["turns"]) == turns
        assert float(row["wer_a_against_b"]) == pytest.approx(a_b, abs=5e-5)
        assert float(row["wer_b_against_a"]) == pytest.approx(b_a, abs=5e-5)
        assert float(row["wer_mean"]) == pytest.approx((a_b + b_a) / 2, abs=5e-5)
        assert int(row["identical_turns"]) == identical
        assert float(row["cohens_kappa"]) == pytest.approx(kappa, abs=5e-5)
        assert int(row["task_completion_sessions"]) == 5
    assert int(rows["overall", "overall"]["turns"]) == 88
    assert int(rows["overall", "overall"]["identical_turns"]) == 84


def test_fleiss_kappa_and_krippendorff_alpha_over_the_three_annotators(team_run):
    _report, figures = team_run
    rows = {row["figure"]: row for row in read_table(figures / "task_completion.csv")}
    # By hand (Fleiss 1971's formulas): P-bar = 11/15, P-bar_e = 113/225, kappa = 52/112. Alpha (nominal,
    # Krippendorff's coincidence matrix): o(0,1) + o(1,0) = 4 of n = 15 values, n0 = 8, n1 = 7: 1 - 14*4/112 = 0.5.
    assert float(rows["fleiss_kappa"]["value"]) == pytest.approx(52 / 112, abs=5e-5)
    assert float(rows["krippendorff_alpha"]["value"]) == pytest.approx(0.5, abs=5e-5)
    assert rows["fleiss_kappa"]["sessions"] == rows["krippendorff_alpha"]["sessions"] == "5"


@pytest.mark.slow
def test_the_most_disagreeing_turns_come_first(team_run):
    _report, figures = team_run
    top = read_table(figures / "disagreements.csv")
    assert [(row["session_id"], row["turn_id"], row["annotator_a"], row["annotator_b"]) for row in top] == [
        (planted_team.session_id(1), "8", "ann1", "ann3"),
        (planted_team.session_id(1), "8", "ann2", "ann3"),
        (planted_team.session_id(1), "2", "ann1", "ann2"),
    ]
    assert float(top[0]["wer"]) == pytest.approx((1 / 2 + 1 / 3) / 2, abs=5e-5)
    assert top[2]["transcription_b"] == "i want to fly to austin"
    assert len(read_table(figures / "turns.csv")) == 88


def test_per_session_rows_hold_each_pairs_words_and_task_completion(team_run):
    _report, figures = team_run
    rows = read_table(figures / "sessions.csv")
    assert len(rows) == planted_team.SESSIONS * 3
    last = [row for row in rows if row["session_id"] == planted_team.session_id(5)]
    assert [(row["annotator_a"], row["annotator_b"], row["turns"]) for row in last] == [
        ("ann1", "ann2", "6"),
        ("ann1", "ann3", "5"),
        ("ann2", "ann3", "5"),
    ]
    second = next(
        row for row in rows if row["session_id"] == planted_team.session_id(2) and row["annotator_b"] == "ann3"
    )
    assert (second["task_completion_a"], second["task_completion_b"], second["identical_share"]) == ("1", "0", "1.0000")


@pytest.mark.slow
def test_named_works_in_every_format_give_the_same_figures(tmp_path, team_run):
    # ann1 as one human file, ann2 as an annotations CSV, ann3 as annotated logs (its files folded in).
    _report, team_figures = team_run
    human = planted_team.merged_human_file(tmp_path / "one.xml", "ann1")
    table = tmp_path / "two.csv"
    write_annotation_csv(table, read_annotations(planted_team.merged_human_file(tmp_path / "two.xml", "ann2")))
    logs = planted_team.annotated_logs(tmp_path / "logs", "ann3")
    done = run_annotator(
        "agree", f"ann1={human}", f"ann2={table}", f"ann3={logs}", "--csv", tmp_path / "figures", "--jobs", "1"
    )
    assert done.returncode == 0, done.stderr
    assert read_table(tmp_path / "figures" / "pairs.csv") == read_table(team_figures / "pairs.csv")
    assert done.stdout.splitlines()[0].startswith("annotator_a\tannotator_b\tturns")


@pytest.mark.slow
def test_a_file_is_named_by_the_annotator_it_records_else_by_its_name(tmp_path):
    first = planted_team.merged_human_file(tmp_path / "first.xml", "ann1")
    first.write_bytes(first.read_bytes().replace(b"<GC_LOG_ANNOTATIONS ", b'<GC_LOG_ANNOTATIONS annotator="alice" '))
    second = planted_team.merged_human_file(tmp_path / "second.xml", "ann2")
    second.write_bytes(second.read_bytes().replace(b"<GC_SESSION ", b'<GC_SESSION annotator="bob" ', 1))
    third = planted_team.merged_human_file(tmp_path / "third.xml", "ann3")
    done = run_annotator("agree", first, second, third, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[:2] for line in done.stdout.splitlines()[1:4]] == [
        ["alice", "bob"],
        ["alice", "third"],
        ["bob", "third"],
    ]


def test_a_corpus_names_its_annotators_itself(tmp_path):
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", ("ann1", "ann2"))
    done = run_annotator("agree", f"someone={corpus}", "--jobs", "1")
    assert done.returncode == 2
    assert done.stderr == (
        f"annotator: {corpus}: holds per-annotator human files, which name their annotators; give it without someone=\n"
    )


@pytest.mark.parametrize("problem", ["missing", "not xml", "one annotator", "conflict", "bad report name"])
def test_bad_input_is_one_line_naming_the_file_and_exit_2(tmp_path, problem):
    good = planted_team.merged_human_file(tmp_path / "good.xml", "ann1")
    other = planted_team.merged_human_file(tmp_path / "other.xml", "ann2")
    arguments: list[str | Path] = [good, other]
    named = str(tmp_path / "missing.xml")
    if problem == "missing":
        arguments = [good, tmp_path / "missing.xml"]
    elif problem == "not xml":
        broken = tmp_path / "broken.xml"
        broken.write_text("<GC_LOG_ANNOTATIONS>\n<GC_SESSION id='x'>\n</GC_LOG_ANNOTATIONS>\n")
        arguments, named = [good, broken], f"{broken}:3"
    elif problem == "one annotator":
        arguments, named = [good], "at least two annotators"
    elif problem == "conflict":
        arguments, named = [f"a={good}", f"a={other}", f"b={other}"], "annotator a: the annotation files disagree"
    else:
        arguments, named = [good, other, "-o", tmp_path / "report.txt"], "report.txt: the report must end in .html"
    done = run_annotator("agree", *arguments, "--jobs", "1")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("annotator: "), done.stderr
    assert named in done.stderr
    assert "Traceback" not in done.stderr


def test_without_the_agreement_libraries_the_command_says_how_to_install_them(tmp_path):
    # The libraries made unimportable in the child (an install that lost them): its one line names them.
    first = planted_team.merged_human_file(tmp_path / "first.xml", "ann1")
    second = planted_team.merged_human_file(tmp_path / "second.xml", "ann3")
    script = (
        "import sys; sys.modules['statsmodels'] = sys.modules['krippendorff'] = None; "
        "from annotator.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "agree", str(first), str(second)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2
    assert done.stderr == (
        "annotator: agreement figures need statsmodels and krippendorff, which this "
        "install lacks: pip install statsmodels krippendorff\n"
    )
