"""`annotator adjudicate` run for real on a copy of sample session 001 with three annotators' human files
(written by the human-file writer) whose agreements and disagreements are planted below."""

from __future__ import annotations

import csv
import resource
import signal
from pathlib import Path

import pytest

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import canonical_without_annotations, extract, fold
from annotator.annotation_files.human_format import write_human_file
from annotator.log.concepts import Concepts
from annotator.log.document import LogDocument
from tests.support import planted_team
from tests.support.cli import run_annotator
from tests.support.dtd_validity import validity_errors

SESSION = planted_team.session_id(1)
BOSTON = Concepts("give_destination", ((":destination", "Boston"),))
AUSTIN = Concepts("give_destination", ((":destination", "Austin"),))
# Beyond planted_team.py's turn 2 (ann2 "austin") and turn 8 (ann3 "next tuesday"):
CHANGED = {
    ("ann2", "4"): "No, Boston Massachusetts.",  # the same words after the WER normalisation: agreed
    ("ann2", "6"): "from detroit please",  # three different values: no majority
    ("ann3", "6"): "from denver please",
    ("ann3", "10"): "yes book it",  # ann2 gives none: ann1 against ann3
}
OMITTED = {("ann2", "10")} | {(name, "12") for name in planted_team.ANNOTATORS}  # no annotator gives turn 12
CONCEPTS = {"ann1": BOSTON, "ann2": BOSTON, "ann3": AUSTIN}  # turn 2
TASK_COMPLETION = {"ann1": "1", "ann2": "0", "ann3": "0"}
IN_THE_LOG = {"6": "the log's own six", "12": "the log's own twelve"}


def annotator_set(name: str) -> AnnotationSet:
    annotations = AnnotationSet()
    for turn_id, text in planted_team.base_transcriptions().items():
        if (name, turn_id) not in OMITTED:
            text = CHANGED.get((name, turn_id), planted_team.PLANTED.get((name, 1, turn_id), text))
            annotations.add_transcription(SESSION, turn_id, text)
    annotations.add_concepts(SESSION, "2", CONCEPTS[name])
    annotations.add_task_completion(SESSION, TASK_COMPLETION[name])
    return annotations


@pytest.fixture
def team(tmp_path) -> Path:
    """The log (already holding IN_THE_LOG) with the three annotators' X-human-NAME.xml beside it."""
    log = planted_team.log_path(tmp_path, 1)
    log.write_bytes(planted_team.raw_log_bytes(1))
    doc = LogDocument.load(log)
    fold(doc, _transcriptions(IN_THE_LOG))
    doc.save(overwrite=True)
    for name in planted_team.ANNOTATORS:
        write_human_file(tmp_path / f"planted-001-human-{name}.xml", annotator_set(name))
    return log


def _transcriptions(texts: dict[str, str]) -> AnnotationSet:
    annotations = AnnotationSet()
    for turn_id, text in texts.items():
        annotations.add_transcription(SESSION, turn_id, text)
    return annotations


def _by_turn(log: Path) -> tuple[dict[str, str], dict[str, Concepts], dict[str, str]]:
    annotations = extract(LogDocument.load(log))
    return (
        {annotations.turn_id(ref): text for ref, text in annotations.transcriptions.items()},
        {annotations.turn_id(ref): value for ref, value in annotations.concepts.items()},
        {ref.id: value for ref, value in annotations.task_completion.items()},
    )


def _record(out: Path) -> dict[tuple[str, str], dict[str, str]]:
    with open(out.with_name(out.stem + ".adjudication.csv"), encoding="utf-8", newline="") as stream:
        return {(row["turn_id"], row["field"]): row for row in csv.DictReader(stream)}


def test_majority_takes_what_most_gave_and_lists_the_rest(team, tmp_path):
    out = tmp_path / "out" / "adjudicated-hublog.xml"
    out.parent.mkdir()
    done = run_annotator("adjudicate", team, "--majority", "-o", out, "--adjudicator", "carol")
    assert done.returncode == 0, done.stderr
    texts, concepts, task = _by_turn(out)
    base = planted_team.base_transcriptions()
    assert texts["2"] == base["2"] and texts["8"] == base["8"]  # two against one
    assert texts["4"] == base["4"]  # agreed after normalisation: the first annotator's text
    assert texts["6"] == IN_THE_LOG["6"] and texts["12"] == IN_THE_LOG["12"]  # left / given by nobody: as the log had
    assert "10" not in texts  # ann1 against ann3, ann2 silent: left
    assert concepts == {"2": BOSTON} and task == {SESSION: "0"}
    assert done.stdout.splitlines() == [
        f"{SESSION} turn 6: ann1 '[noise] from chicago please' / ann2 'from detroit please' / ann3 'from denver please'",
        f"{SESSION} turn 10: ann1 'yes please book it' / ann3 'yes book it'",
        "5 value(s) decided (5 changed in the log), 2 left for a person",
    ]
    record = _record(out)
    assert {key: row["source"] for key, row in record.items()} == {
        ("2", "transcription"): "majority",
        ("2", "concepts"): "majority",
        ("4", "transcription"): "agreed",
        ("6", "transcription"): "left",
        ("8", "transcription"): "majority",
        ("10", "transcription"): "left",
        ("", "task_completion"): "majority",
    }
    row = record["2", "transcription"]
    assert row["value"] == base["2"] and row["session_id"] == SESSION and row["adjudicator"] == "carol"
    assert (
        row["annotators"] == "ann1=i want to fly to boston; ann2=i want to fly to austin; ann3=i want to fly to boston"
    )
    assert record["2", "concepts"]["value"] == BOSTON.compact() and record["6", "transcription"]["value"] == ""
    assert row["time"].endswith("+00:00")


def test_prefer_takes_that_annotators_value_where_they_gave_one(team, tmp_path):
    out = tmp_path / "prefer-ann2.xml"
    done = run_annotator("adjudicate", team, "--prefer", "ann2", "-o", out)
    assert done.returncode == 0, done.stderr
    texts, concepts, task = _by_turn(out)
    assert texts["2"] == "i want to fly to austin" and texts["6"] == "from detroit please"
    assert texts["8"] == "next tuesday morning" and "10" not in texts  # ann2 gave no turn 10: left
    assert concepts == {"2": BOSTON} and task == {SESSION: "0"}
    assert done.stdout.splitlines()[0] == f"{SESSION} turn 10: ann1 'yes please book it' / ann3 'yes book it'"
    assert _record(out)["2", "transcription"]["source"] == "prefer:ann2"
    assert "--prefer ann2" not in done.stderr


def test_prefer_with_two_named_annotators_and_concepts(team, tmp_path):
    out = tmp_path / "prefer-ann3.xml"
    folder = team.parent
    done = run_annotator(
        "adjudicate",
        team,
        f"a={folder / 'planted-001-human-ann1.xml'}",
        f"c={folder / 'planted-001-human-ann3.xml'}",
        "--prefer",
        "c",
        "-o",
        out,
    )
    assert done.returncode == 0, done.stderr
    texts, concepts, task = _by_turn(out)
    assert texts["8"] == "next tuesday" and texts["6"] == "from denver please" and texts["10"] == "yes book it"
    assert concepts == {"2": AUSTIN} and task == {SESSION: "0"}
    assert done.stdout.splitlines() == ["7 value(s) decided (7 changed in the log), 0 left for a person"]


@pytest.mark.slow
def test_majority_of_two_who_disagree_leaves_the_turn(team, tmp_path):
    out = tmp_path / "two.xml"
    folder = team.parent
    done = run_annotator(
        "adjudicate",
        team,
        f"a={folder / 'planted-001-human-ann1.xml'}",
        f"b={folder / 'planted-001-human-ann2.xml'}",
        "--majority",
        "-o",
        out,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"{SESSION} turn 2: a 'i want to fly to boston' / b 'i want to fly to austin'" in lines
    assert f"{SESSION} task completion: a '1' / b '0'" in lines
    texts, _concepts, task = _by_turn(out)
    assert "2" not in texts and task == {}


def test_the_adjudicated_log_is_no_less_valid_and_c14n_equal_outside_gc_annot(team, tmp_path):
    out = tmp_path / "valid.xml"
    assert run_annotator("adjudicate", team, "--majority", "-o", out).returncode == 0
    assert canonical_without_annotations(out.read_bytes()) == canonical_without_annotations(team.read_bytes())
    assert set(validity_errors(out)) <= set(validity_errors(team))


@pytest.mark.slow
def test_writing_over_the_log_needs_force_and_keeps_the_original_once(team):
    original = team.read_bytes()
    kept = team.with_name(team.name.replace(".xml", ".orig.xml"))
    refused = run_annotator("adjudicate", team, "--majority", "-o", team)
    assert refused.returncode == 2 and team.read_bytes() == original and not kept.exists()
    assert len(refused.stderr.splitlines()) == 1
    first = run_annotator("adjudicate", team, "--majority", "-o", team, "--force")
    assert first.returncode == 0, first.stderr
    assert kept.read_bytes() == original and team.read_bytes() != original
    assert f"the original is kept as {kept.name}" in first.stderr
    second = run_annotator("adjudicate", team, "--prefer", "ann2", "-o", team, "--force")
    assert second.returncode == 0 and kept.read_bytes() == original


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--prefer", "dave"], "--prefer dave: not one of the annotators (ann1, ann2, ann3)"),
        (["a=missing.xml", "--majority"], "missing.xml: no such file or folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(team, tmp_path, arguments, message):
    out = tmp_path / "bad.xml"
    done = run_annotator("adjudicate", team, *arguments, "-o", out)
    assert done.returncode == 2 and done.stderr.splitlines() == [f"annotator: {message}"]
    assert not out.exists()


def test_help_says_the_exit_status_is_0_with_turns_left():
    helped = run_annotator("adjudicate", "--help")
    assert helped.returncode == 0 and "the exit status is 0 even when some are left" in " ".join(helped.stdout.split())


def test_a_folder_as_log_is_refused(tmp_path):
    done = run_annotator("adjudicate", tmp_path, "--majority", "-o", tmp_path / "out.xml")
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"annotator: {tmp_path}: not a log file (adjudicate takes one log)"
    ]


def test_a_log_without_team_files_beside_it_is_refused(tmp_path):
    log = planted_team.log_path(tmp_path, 1)
    log.write_bytes(planted_team.raw_log_bytes(1))
    done = run_annotator("adjudicate", log, "--majority", "-o", tmp_path / "out.xml")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "no per-annotator human files" in done.stderr and str(log) in done.stderr


def test_a_record_that_cannot_be_written_leaves_the_log_unwritten(team, tmp_path):
    out = tmp_path / "adjudicated.xml"
    # The sidecar's name is a link into a folder that does not exist: writing through it fails.
    out.with_name("adjudicated.adjudication.csv").symlink_to(tmp_path / "gone" / "record.csv")
    done = run_annotator("adjudicate", team, "--majority", "-o", out, "--force")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "adjudicated.adjudication.csv" in done.stderr or "record.csv" in done.stderr
    assert not out.exists()


def test_a_log_that_cannot_be_written_takes_its_new_record_back(team, tmp_path):
    out = tmp_path / "adjudicated.xml"
    record = out.with_name("adjudicated.adjudication.csv")
    record.write_text("the earlier record\n", encoding="utf-8")
    limit = 4096  # the record (about 1 KB) fits, the log (tens of KB) does not

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    assert team.stat().st_size > limit
    done = run_annotator("adjudicate", team, "--majority", "-o", out, "--force", timeout=300, preexec_fn=small_files)

    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert str(out) in done.stderr and not out.exists()
    assert record.read_text(encoding="utf-8") == "the earlier record\n"
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith(".")) == []  # no temp file left
