"""ConvLab unified datasets read back (annotator.imports.convlab): the logs an import writes are valid and marked
as synthetic, export(import(x)) keeps every dialogue, turn and utterance of a dataset another tool wrote, and what
is not a dataset is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.analysis.validation import validate_document
from annotator.export.convlab import export_convlab
from annotator.export.dialogue_text import ExportOptions
from annotator.imports.convlab import import_convlab
from annotator.log.document import LogDocument
from tests.support.convlab_checker import check_dataset_folder

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_import_writes_valid_logs_marked_as_synthetic(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path / "out")
    report = import_convlab(tmp_path / "out" / "communicator", tmp_path / "logs")
    assert [p.name for p in report.files] == [f"communicator-train-{i:05d}-hublog.xml" for i in range(3)]
    raw = report.files[0].read_bytes()
    assert raw.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<!-- Imported by') and b"\r" not in raw
    doc = LogDocument.load(report.files[0])
    assert validate_document(doc, audio=False) == []
    session = doc.sessions[0]
    assert session.id == "travel:20261121:001"
    assert [t.id for t in session.turns] == [str(i) for i in range(1, 13)]
    assert session.turns[1].asr_text == "i want to fly to boston" and session.turns[1].audio_data("input") is None
    assert session.turns[0].system_text.startswith("Welcome to the Communicator")
    assert session.stime == 0.0 and all(a.etime <= b.stime for a, b in zip(session.turns, session.turns[1:]))


SPEECH = st.lists(
    st.sampled_from(["hello", "Zürich", "a", "I'd", "book", "it.", "[noise]", "User:", "50%"]), max_size=5
).map(" ".join)


@st.composite
def convlab_datasets(draw) -> list[dict]:
    """Valid ConvLab dialogues as another tool would write them (no extra attributes of ours), each with a
    user turn: sessions without one are skipped on export (see the test after this one)."""
    dialogues = []
    numbers = {"train": 0, "validation": 0, "test": 0}
    for _ in range(draw(st.integers(1, 6))):
        split = draw(st.sampled_from(list(numbers)))
        first = draw(st.sampled_from(["user", "system"]))
        turns = []
        for position in range(draw(st.integers(1 if first == "user" else 2, 7))):
            speaker = first if position % 2 == 0 else ("system" if first == "user" else "user")
            turns.append(
                {
                    "speaker": speaker,
                    "utterance": draw(SPEECH),
                    "utt_idx": position,
                    "dialogue_acts": {"categorical": [], "non-categorical": [], "binary": []},
                }
            )
        dialogues.append(
            {
                "dataset": "other",
                "data_split": split,
                "dialogue_id": f"other-{split}-{numbers[split]}",
                "original_id": draw(st.sampled_from(["SNG01.json", "a b", "x"])),
                "domains": [],
                "goal": {"description": "", "inform": {}, "request": {}},
                "turns": turns,
            }
        )
        numbers[split] += 1
    return dialogues


@PROPERTY
@given(dataset=convlab_datasets())
@pytest.mark.slow
def test_export_of_import_keeps_every_dialogue_turn_and_utterance(tmp_path: Path, dataset):
    for old in tmp_path.glob("**/*"):
        if old.is_file():
            old.unlink()
    source = tmp_path / "dialogues.json"
    source.write_text(json.dumps(dataset), encoding="utf-8")
    report = import_convlab(source, tmp_path / "logs")
    assert len(report.files) == len(dataset)
    export_convlab([tmp_path / "logs"], tmp_path / "out", ExportOptions(dataset="other"))
    exported = check_dataset_folder(tmp_path / "out" / "other")["dialogues"]
    assert {d["dialogue_id"]: [(t["speaker"], t["utterance"], t["utt_idx"]) for t in d["turns"]] for d in exported} == {
        d["dialogue_id"]: [(t["speaker"], t["utterance"], t["utt_idx"]) for t in d["turns"]] for d in dataset
    }
    assert {d["dialogue_id"]: (d["data_split"], d["original_id"]) for d in exported} == {
        d["dialogue_id"]: (d["data_split"], d["original_id"]) for d in dataset
    }


def test_a_dialogue_without_user_turn_comes_back_as_a_warning(tmp_path: Path):
    source = tmp_path / "dialogues.json"
    source.write_text(
        json.dumps(
            [{"dialogue_id": "x-train-0", "turns": [{"speaker": "system", "utterance": "Goodbye.", "utt_idx": 0}]}]
        ),
        encoding="utf-8",
    )
    import_convlab(source, tmp_path / "logs")
    report = export_convlab([tmp_path / "logs"], tmp_path / "out")
    assert report.sessions == 0
    assert report.warnings == ["x-train-00000-hublog.xml: session x-train-0: skipped, it has no user turn"]


def test_import_refuses_what_is_not_a_dataset(tmp_path: Path):
    from annotator.imports import ImportFormatError

    bad = tmp_path / "dialogues.json"
    bad.write_text('[{"turns": [{"speaker": "bot", "utterance": "hi"}]}]', encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"dialogue 0 .*turn 0: the speaker must be"):
        import_convlab(bad, tmp_path / "logs")
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"dialogues.json:1:2: not JSON"):
        import_convlab(bad, tmp_path / "logs")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ImportFormatError, match="no data.zip"):
        import_convlab(empty, tmp_path / "out")
