"""`annotator assign`: every session to one annotator, the overlap to two, balanced, the same for a seed."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.team.assign import ASSIGNMENT_FILE, read_assignment
from annotator.team.mode import set_team_mode
from tests.support.cli import run_annotator
from tests.support.team_corpora import make_corpus


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def _assign(corpus: Path, *extra: str) -> int:
    return main(["assign", str(corpus), "--annotators", "a,b,c", "--overlap", "0.2", "--seed", "7", *extra])


def test_every_session_goes_to_one_annotator_and_the_overlap_to_two_balanced(team_corpus, capsys):
    assert _assign(team_corpus) == 0
    rows = _rows(team_corpus / ASSIGNMENT_FILE)
    assert list(rows[0]) == ["log", "session_id", "annotators", "double"]
    assert len(rows) == 14 and len({(row["log"], row["session_id"]) for row in rows}) == 14
    doubles = [row for row in rows if row["double"] == "1"]
    assert len(doubles) == 3  # 0.2 * 14 = 2.8, rounded
    for row in rows:
        names = row["annotators"].split(";")
        assert len(names) == (2 if row["double"] == "1" else 1) and len(set(names)) == len(names)
        assert set(names) <= {"a", "b", "c"}
    load = Counter(name for row in rows for name in row["annotators"].split(";"))
    assert sum(load.values()) == 17 and max(load.values()) - min(load.values()) <= 1
    said = capsys.readouterr().err
    assert "assigned 14 session(s), 3 of them to two annotators" in said and "is not in team mode yet" in said
    set_team_mode(team_corpus, True)
    assert _assign(team_corpus) == 0
    assert "team mode" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "logs, annotators, overlap",
    [(5, "a,b", 0.5), (23, "a,b,c,d", 0.2), (40, "x,y,z", 1.0), (9, "solo", 0.0), (12, "a,b,c,d,e", 0.33)],
)
def test_loads_differ_by_at_most_one_for_any_shape(tmp_path, logs, annotators, overlap):
    corpus = make_corpus(tmp_path / "c", logs)
    assert main(["assign", str(corpus), "--annotators", annotators, "--overlap", str(overlap), "--seed", "s"]) == 0
    rows = read_assignment(corpus / ASSIGNMENT_FILE)
    load = Counter({name: 0 for name in annotators.split(",")})
    load.update(name for row in rows for name in row.annotators)
    assert max(load.values()) - min(load.values()) <= 1
    assert sum(row.double for row in rows) == int(overlap * logs + 0.5)


def test_the_same_seed_gives_the_same_bytes_and_another_seed_differs(team_corpus, tmp_path):
    outputs = [tmp_path / name for name in ("one.csv", "two.csv", "other.csv")]
    for output, seed in zip(outputs, ("7", "7", "8")):
        assert (
            main(
                [
                    "assign",
                    str(team_corpus),
                    "--annotators",
                    "a,b,c",
                    "--overlap",
                    "0.2",
                    "--seed",
                    seed,
                    "-o",
                    str(output),
                ]
            )
            == 0
        )
    assert outputs[0].read_bytes() == outputs[1].read_bytes()
    assert outputs[0].read_bytes() != outputs[2].read_bytes()


def test_sessions_added_later_keep_the_earlier_rows_and_join_them(team_corpus, tmp_path):
    assert _assign(team_corpus) == 0
    before = {
        (row.session.log, row.session.session_id): row.annotators
        for row in read_assignment(team_corpus / ASSIGNMENT_FILE)
    }
    make_corpus(tmp_path / "more", 20)
    for path in sorted((tmp_path / "more").rglob("travel-01[4-9]-hublog.xml")):
        target = team_corpus / path.relative_to(tmp_path / "more")
        target.write_bytes(path.read_bytes())
    assert _assign(team_corpus) == 0
    after = read_assignment(team_corpus / ASSIGNMENT_FILE)
    assert len(after) == 20
    assert {
        key: names
        for key, names in (((row.session.log, row.session.session_id), row.annotators) for row in after)
        if key in before
    } == before
    assert sum(row.double for row in after) == 4  # topped up to 0.2 * 20
    load = Counter(name for row in after for name in row.annotators)
    assert max(load.values()) - min(load.values()) <= 1


@pytest.mark.slow
def test_bad_arguments_are_one_line_and_exit_2(team_corpus, tmp_path):
    cases = [
        (["--annotators", "a,a"], "different names"),
        (["--annotators", "a b"], "letters, digits"),
        (["--annotators", "a", "--overlap", "0.5"], "at least two annotators"),
        (["--annotators", "a,b", "--overlap", "1.5"], "between 0 and 1"),
    ]
    for extra, said in cases:
        done = run_annotator("assign", team_corpus, "--seed", "1", *extra, timeout=120)
        assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    log = next(team_corpus.rglob("*-hublog.xml"))
    before = log.read_bytes()
    done = run_annotator("assign", team_corpus, "--seed", "1", "--annotators", "a,b", "-o", log, timeout=120)
    assert done.returncode == 2 and str(log) in done.stderr and log.read_bytes() == before
    broken = tmp_path / "broken.csv"
    broken.write_text("who,what\n")
    done = run_annotator("assign", team_corpus, "--seed", "1", "--annotators", "a,b", "-o", broken, timeout=120)

    assert (
        done.returncode == 2
        and done.stderr
        == f"annotator: {broken}:1: not an assignment file: the columns must be log, session_id, annotators, double\n"
    )
