"""Writers of one log exclude each other: two `fold --force` (or a fold and a replace) over one log at once
never lose an annotation. Each either writes a log holding what it folded, or exits 2 with one line fit
for the command line (no "reload", no "overwrite"), whatever the timing. Real processes, many rounds,
and a deterministic race: a writer holding the save lock changes the log while a fold waits for it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lxml import etree

from annotator.log.document import LogDocument
from tests.support.repository import SAMPLE_LOGS
from tests.support.save_race import finish, hold_and_change, start

SAMPLE = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
SESSIONS = 60  # a log of ~1.5 MB: reading and writing it takes long enough for two runs to overlap
ROUNDS = 6
REFUSAL = (
    "by another program (another fold, replace, adjudicate or a window's save) since this command read it; "
    "nothing written: run the command again"
)


def make_log(path: Path, sessions: int = SESSIONS) -> None:
    """Session 001 of the samples, SESSIONS times, as race:000, race:001..."""
    root = etree.parse(str(SAMPLE)).getroot()
    template = root.find("GC_SESSION")
    root.remove(template)
    for number in range(sessions):
        session = etree.fromstring(etree.tostring(template))
        session.set("id", f"race:{number:03d}")
        root.append(session)
    path.write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))


def completion_csv(path: Path, session: int, value: str) -> Path:
    path.write_text(f"session_id,task_completion\nrace:{session:03d},{value}\n", encoding="utf-8")
    return path


def task_completion(log: Path, session: int) -> str | None:
    return LogDocument.load(log).sessions[session].task_completion


def _assert_refusal(log: Path, status: int, err: str) -> None:
    assert status == 2, err
    assert err.count("\n") == 1 and REFUSAL in err and str(log) in err, err
    assert "reload" not in err and "overwrite" not in err


@pytest.mark.parametrize("round_number", range(ROUNDS))
@pytest.mark.slow
def test_two_folds_at_once_lose_nothing(tmp_path: Path, round_number: int):
    log = tmp_path / "race-hublog.xml"
    make_log(log)
    first, second = 2 * round_number % SESSIONS, (2 * round_number + 1) % SESSIONS
    runs = [
        (first, start("fold", log, completion_csv(tmp_path / "a.csv", first, "0"), "-o", log, "--force")),
        (second, start("fold", log, completion_csv(tmp_path / "b.csv", second, "0"), "-o", log, "--force")),
    ]
    results = [(session, *finish(process)) for session, process in runs]
    for session, status, err in results:
        if status == 0:
            assert task_completion(log, session) == "0", f"the fold of session {session} said done and is lost"
        else:
            _assert_refusal(log, status, err)
            assert task_completion(log, session) == "1"
    assert any(status == 0 for _, status, _ in results), "one of them wins"
    assert LogDocument.load(log.with_name("race-hublog.orig.xml")).sessions[first].task_completion == "1"


@pytest.mark.parametrize("round_number", range(ROUNDS // 2))
@pytest.mark.slow
def test_a_fold_and_a_replace_at_once_lose_nothing(tmp_path: Path, round_number: int):
    log = tmp_path / "race-hublog.xml"
    make_log(log)
    fold = start("fold", log, completion_csv(tmp_path / "a.csv", round_number, "0"), "-o", log, "--force")
    replace = start("replace", log, "--find", "boston", "--replace", "austin")
    (fold_status, fold_err), (replace_status, replace_err) = finish(fold), finish(replace)
    doc = LogDocument.load(log)
    if fold_status == 0:
        assert doc.sessions[round_number].task_completion == "0"
    else:
        _assert_refusal(log, fold_status, fold_err)
    transcribed = " ".join(turn.transcription or "" for turn in doc.sessions[0].turns)
    if replace_status == 0:
        assert "austin" in transcribed and "boston" not in transcribed
    else:
        _assert_refusal(log, replace_status, replace_err.splitlines()[-1] + "\n")
    assert fold_status == 0 or replace_status == 0


@pytest.mark.slow
def test_a_fold_waits_for_a_writer_holding_the_lock_then_refuses(tmp_path: Path):
    """Deterministic: the fold reads the log while the other writer holds the lock, and would save over
    that writer's change. It waits, finds the change under the lock and refuses; both values survive
    where they were written, nothing is lost."""
    log = tmp_path / "race-hublog.xml"
    make_log(log, sessions=4)
    writer = hold_and_change(log, 2.0, session=2)
    started = time.monotonic()
    status, err = finish(start("fold", log, completion_csv(tmp_path / "a.csv", 1, "0"), "-o", log, "--force"))
    assert writer.wait(timeout=60) == 0, writer.stderr.read()
    _assert_refusal(log, status, err)
    assert task_completion(log, 2) == "0", "the other writer's change is in the file"
    assert time.monotonic() - started >= 1.0 or task_completion(log, 1) == "1"


@pytest.mark.slow
def test_a_fold_of_a_folder_over_itself_waits_and_refuses_too(tmp_path: Path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    log = corpus / "race-hublog.xml"
    make_log(log, sessions=4)
    writer = hold_and_change(log, 2.0, session=2)
    status, err = finish(start("fold", corpus, completion_csv(tmp_path / "a.csv", 1, "0"), "-o", corpus, "--force"))
    assert writer.wait(timeout=60) == 0, writer.stderr.read()
    _assert_refusal(log, status, err)
    assert task_completion(log, 2) == "0"
