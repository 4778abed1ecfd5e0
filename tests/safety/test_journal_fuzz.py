"""A journal on disk is not trusted: any bytes are either a journal this program wrote or set aside
with a one-line message, never an exception; and a restore sets every value or none.
About 300 examples in the default run; FUZZ_SCALE=N runs N times as many."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from annotator.annotation_files.fold import extract
from annotator.errors import AnnotationFileError
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.fuzzing import fuzz_settings
from tests.support.repository import SAMPLE_LOGS

SESSION = SAMPLE_LOGS / "travel-20261121-001"
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def valid_journal() -> tuple[bytes, dict]:
    """The bytes of a journal this program wrote (two transcriptions, one task completion), and as JSON."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = _copy_session(folder)
        doc = LogDocument.load(log)
        journal = RecoveryJournal(doc, folder / "journals")
        set_transcription(doc.sessions[0].user_turns[0], "first words")
        set_transcription(doc.sessions[0].user_turns[1], "second words")
        set_task_completion(doc.sessions[0], "0")
        journal.record(doc)
        raw = journal.file.read_bytes()
    return raw, json.loads(raw)


def _copy_session(folder: Path) -> Path:
    shutil.copytree(SESSION, folder / "call", dirs_exist_ok=True)
    return folder / "call" / f"{SESSION.name}-hublog.xml"


def offer(raw: bytes) -> tuple[str, LogDocument | None]:
    """Put RAW where a dead window's journal would be and open the log: 'offered', 'set aside' or 'nothing'.
    Whatever is offered is restored, and must change all of its values or none."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = _copy_session(folder)
        doc = LogDocument.load(log)
        journal = RecoveryJournal(doc, folder / "journals")
        journal.folder.mkdir()
        (journal.folder / f"{journal.stem}.deadbeef0000.json").write_bytes(raw)
        found = journal.leftovers()
        for message in found.set_aside:
            assert "\n" not in message and "could not be read" in message
        if found.set_aside:
            assert not found.entries and len(list(journal.folder.glob("*.unreadable"))) == 1
            return "set aside", None
        if not found.entries:
            return "nothing", None
        before = extract(doc)
        try:
            journal.restore(doc, found.entries)
        except AnnotationFileError:
            assert extract(doc) == before and not doc.is_modified, "nothing restored"
            return "refused", None
        assert journal.restore(doc, found.entries) == [], "every value was set the first time"
        return "offered", doc


@pytest.mark.parametrize(
    ("name", "change", "expected"),
    [
        ("a position past any log", lambda c: c["transcriptions"][0].update(session=10**400), "offered"),  # by id
        ("an id the log lacks", lambda c: c["transcriptions"][0].update(turn_id="none"), "refused"),
        ("1e400 for a position", lambda c: c["transcriptions"][0].update(turn=float("inf")), "set aside"),
        ("a float position", lambda c: c["transcriptions"][0].update(turn=1.0), "set aside"),
        ("true for a position", lambda c: c["task_completion"][0].update(session=True), "set aside"),
        ("a negative position", lambda c: c["transcriptions"][0].update(turn=-1), "set aside"),
        ("a control character", lambda c: c["transcriptions"][1].update(text="sec\x01ond"), "set aside"),
        ("a lone surrogate", lambda c: c["transcriptions"][1].update(text="\ud800"), "set aside"),
        ("a task completion the app never sets", lambda c: c["task_completion"][0].update(value="banana"), "set aside"),
        ("a missing field", lambda c: c["transcriptions"][0].pop("turn_id"), "set aside"),
        ("a wrong date", lambda c: c.update(written="yesterday"), "set aside"),
        ("another format", lambda c: c.update(format=2), "set aside"),
        ("edits not a list", lambda c: c.update(transcriptions={"0": 1}), "set aside"),
    ],
)
def test_a_corrupted_journal_is_set_aside_or_refused_whole(valid_journal, name, change, expected):
    content = json.loads(valid_journal[0])
    change(content)
    raw = json.dumps(content).replace("Infinity", "1e400").encode("utf-8", "surrogatepass")
    assert offer(raw)[0] == expected, name


def test_a_journal_nested_100000_deep_is_set_aside(valid_journal):
    raw = valid_journal[0][:-2] + b', "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert offer(raw)[0] == "set aside"


def test_the_valid_journal_is_offered_and_restored(valid_journal):
    kind, doc = offer(valid_journal[0])
    assert kind == "offered" and doc.sessions[0].user_turns[1].transcription == "second words"


@fuzz_settings(150)
@given(st.binary(max_size=600))
@pytest.mark.slow
def test_any_bytes_are_a_journal_or_set_aside(raw):
    event(offer(raw)[0])


@fuzz_settings(150)
@given(st.data())
@pytest.mark.slow
def test_any_value_in_any_field_is_a_journal_or_set_aside(valid_journal, data):
    content = json.loads(valid_journal[0])
    path = data.draw(
        st.sampled_from(
            [
                "format",
                "log",
                "sha256",
                "written",
                "transcriptions",
                "task_completion",
                "transcriptions.0",
                "transcriptions.1.session",
                "transcriptions.1.turn",
                "transcriptions.0.turn_id",
                "transcriptions.0.text",
                "transcriptions.1.was",
                "task_completion.0.value",
                "task_completion.0.session",
            ]
        )
    )
    *parents, last = path.split(".")
    target = content
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[int(last) if isinstance(target, list) else last] = data.draw(JSON)
    event(offer(json.dumps(content).encode("utf-8", "surrogatepass"))[0])
