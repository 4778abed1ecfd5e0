"""ConvLab unified datasets: the sample logs and generated logs pass a faithful re-implementation
of ConvLab-3's check.py, splits are deterministic, preprocess.py rebuilds the data, and an export
read back and exported again keeps every dialogue, turn and utterance. Reading datasets is tested in
tests/imports/test_convlab_import.py."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from annotator.export.convlab import export_convlab, ratio_splits
from annotator.export.dialogue_text import ExportOptionError, ExportOptions
from annotator.imports.convlab import import_convlab
from annotator.log.text import clean_text
from tests.support.convlab_checker import ConvLabCheckError, check_dataset_folder
from tests.support.format_strategies import gen_sessions, write_generated_log

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _dialogues(folder: Path) -> list[dict]:
    with zipfile.ZipFile(folder / "data.zip") as archive:
        return json.loads(archive.read("data/dialogues.json"))


def test_sample_logs_make_a_dataset_convlab_accepts(transcribed_corpus: Path, tmp_path: Path):
    report = export_convlab([transcribed_corpus], tmp_path / "out")
    folder = tmp_path / "out" / "communicator"
    assert report.output == folder and report.sessions == 3 and not report.warnings
    checked = check_dataset_folder(folder)
    dialogues = checked["dialogues"]
    assert [d["dialogue_id"] for d in dialogues] == [f"communicator-train-{i}" for i in range(3)]
    assert [d["session_id"] for d in dialogues] == [f"travel:20261121:00{i}" for i in (1, 2, 3)]
    first = dialogues[0]
    assert first["original_id"] == "travel:20261121:001" and first["task_completion"] == "1"
    assert first["log_file"] == "travel-20261121-001/travel-20261121-001-hublog.xml"
    assert first["user_text"] == "prefer-transcription" and first["times_synthetic"] is False
    assert [t["speaker"] for t in first["turns"]] == ["system", "user"] * 6
    user = first["turns"][1]
    # Without reference concepts, the user turn's acts and state are the parse's (it misheard Austin)
    assert user["utterance"] == "i want to fly to boston" and "db_results" not in user
    assert user["state"] == {"concepts": {"destination": "Austin"}}
    assert user["dialogue_acts"]["non-categorical"] == [
        {"intent": "flight_query", "domain": "concepts", "slot": "destination", "value": "Austin"}
    ]
    part = user["log_turns"][0]
    assert part == {
        "turn_id": "2",
        "start_time": 1795269605.904,
        "end_time": 1795269608.663,
        "audio": "travel-20261121-001-turn02-user.wav",
        "text_source": "transcription",
        "asr_text": "i want to fly to austin",
        "transcription": "i want to fly to boston",
        "wer": pytest.approx(1 / 6),
        "concepts": "flight_query(:destination=Austin)",
        "concepts_source": "parse",
    }
    system = first["turns"][0]
    assert "state" not in system and system["db_results"] == {}
    assert system["dialogue_acts"]["binary"] == [{"intent": "prompt", "domain": "general", "slot": "destination"}]
    # 002 is in milliseconds with absolute audio paths: times still in seconds, paths as written
    second = dialogues[1]
    assert second["start_time"] == pytest.approx(1795273200.12)
    assert second["turns"][1]["log_turns"][0]["audio"].startswith("/home/communicator/logs/")
    assert {"intent": "error_message", "domain": "general", "slot": ""} in second["turns"][4]["dialogue_acts"]["binary"]
    assert "Zürich" in json.dumps(dialogues[2], ensure_ascii=False)


def test_ontology_declares_acts_as_python_literals(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path)
    with zipfile.ZipFile(tmp_path / "communicator" / "data.zip") as archive:
        assert sorted(archive.namelist()) == ["data/dialogues.json", "data/ontology.json"]
        ontology = json.loads(archive.read("data/ontology.json"))
    assert set(ontology) == {"domains", "intents", "state", "dialogue_acts"}
    # The user turns' concept frames add the "concepts" domain, its slots and its state
    binary = [entry for entry in ontology["dialogue_acts"]["binary"] if "'domain': 'general'" in entry]
    assert binary and all("'system': True" in entry and "true" not in entry for entry in binary)
    assert {ast.literal_eval(entry)["intent"] for entry in binary} == {"prompt", "error_message", "help_message"}
    assert ontology["domains"]["general"] == {"description": ontology["domains"]["general"]["description"], "slots": {}}
    assert set(ontology["domains"]) == {"general", "concepts"}
    assert set(ontology["state"]) == {"concepts"} and set(ontology["state"]["concepts"].values()) == {""}
    assert set(ontology["state"]["concepts"]) == set(ontology["domains"]["concepts"]["slots"])


def test_every_file_is_utf8_without_bom_with_lf(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path)
    folder = tmp_path / "communicator"
    texts = {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix in (".json", ".md", ".py")}
    with zipfile.ZipFile(folder / "data.zip") as archive:
        texts.update({name: archive.read(name) for name in archive.namelist()})
    for name, raw in texts.items():
        assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw, name
        raw.decode("utf-8")
    dummy = json.loads(texts["dummy_data.json"])
    assert dummy == _dialogues(folder)[:10]
    readme = texts["README.md"].decode()
    assert "| train | 3 | 36 |" in readme and "prefer-transcription" in readme


def test_readme_statistics_and_split_options(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path, ExportOptions(dataset="travel_calls", split="test", text="asr"))
    folder = tmp_path / "travel_calls"
    dialogues = check_dataset_folder(folder)["dialogues"]
    assert [d["dialogue_id"] for d in dialogues] == [f"travel_calls-test-{i}" for i in range(3)]
    assert dialogues[0]["turns"][1]["utterance"] == "i want to fly to austin"
    assert dialogues[0]["user_text"] == "asr"
    shuffled = json.loads((folder / "shuffled_dial_ids.json").read_text())
    assert len(shuffled) == 10 and all(sorted(order["test"]) == [0, 1, 2] for order in shuffled)


def test_split_ratios_are_deterministic_and_cut_as_asked():
    splits = ratio_splits(100, (0.8, 0.1, 0.1), seed=7)
    assert splits == ratio_splits(100, (0.8, 0.1, 0.1), seed=7)
    assert [splits.count(s) for s in ("train", "validation", "test")] == [80, 10, 10]
    assert splits != ratio_splits(100, (0.8, 0.1, 0.1), seed=8)
    assert [ratio_splits(7, (1, 1, 1), 0).count(s) for s in ("train", "validation", "test")] == [3, 2, 2]
    assert ratio_splits(3, (0, 0, 1), 5) == ["test"] * 3


def test_split_ratios_export_twice_gives_the_same_bytes(transcribed_corpus: Path, tmp_path: Path):
    options = ExportOptions(split_ratios=(0.4, 0.3, 0.3), seed=3)
    export_convlab([transcribed_corpus], tmp_path / "a", options)
    export_convlab([transcribed_corpus], tmp_path / "b", options)
    first, second = (tmp_path / x / "communicator" for x in "ab")
    for name in ("data.zip", "dummy_data.json", "shuffled_dial_ids.json", "README.md"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert sorted(d["data_split"] for d in check_dataset_folder(first)["dialogues"]) == ["test", "train", "validation"]


@pytest.mark.parametrize(
    "options, message",
    [
        (ExportOptions(dataset="my-data"), "no '-'"),
        (ExportOptions(dataset=""), "letters, digits"),
        (ExportOptions(split="dev"), "expected one of train"),
        (ExportOptions(split="train", split_ratios=(1, 0, 0)), "exclude each other"),
        (ExportOptions(text="words"), "--text words"),
    ],
)
def test_bad_options_are_one_line_errors(transcribed_corpus: Path, tmp_path: Path, options, message):
    with pytest.raises(ExportOptionError, match=message) as raised:
        export_convlab([transcribed_corpus], tmp_path / "out", options)
    assert "\n" not in str(raised.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_preprocess_py_rebuilds_the_dataset_by_calling_the_tool(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path, ExportOptions(split_ratios=(0.5, 0.5, 0.0), seed=11))
    folder = tmp_path / "communicator"
    before = {name: (folder / name).read_bytes() for name in ("data.zip", "dummy_data.json", "README.md")}
    for name in before:
        (folder / name).unlink()
    result = subprocess.run([sys.executable, "preprocess.py"], cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert {name: (folder / name).read_bytes() for name in before} == before
    namespace: dict = {}
    exec(compile((folder / "preprocess.py").read_text(), "preprocess.py", "exec"), namespace)
    assert callable(namespace["preprocess"]), "ConvLab's check.py -p imports preprocess() from it"


def test_round_trip_of_the_sample_logs(transcribed_corpus: Path, tmp_path: Path):
    export_convlab([transcribed_corpus], tmp_path / "one", ExportOptions(split_ratios=(1, 1, 1), seed=2))
    import_convlab(tmp_path / "one" / "communicator" / "data.zip", tmp_path / "logs")
    export_convlab([tmp_path / "logs"], tmp_path / "two")
    original, again = (_dialogues(tmp_path / x / "communicator") for x in ("one", "two"))
    assert _essence(again) == _essence(original)
    assert all(d["times_synthetic"] for d in again)
    assert [d["original_id"] for d in again] == [d["original_id"] for d in original]
    check_dataset_folder(tmp_path / "two" / "communicator")


def _essence(dialogues: list[dict]) -> dict:
    return {
        d["dialogue_id"]: (
            d["data_split"],
            d["session_id"],
            [(t["speaker"], t["utterance"], t["utt_idx"]) for t in d["turns"]],
        )
        for d in dialogues
    }


def _export_generated(tmp_path: Path, sessions) -> tuple[Path, list[dict]]:
    for old in tmp_path.glob("**/*"):
        if old.is_file():
            old.unlink()
    log = write_generated_log(tmp_path / "gen-hublog.xml", sessions)
    export_convlab([log], tmp_path / "out")
    folder = tmp_path / "out" / "communicator"
    return folder, check_dataset_folder(folder)["dialogues"]


@PROPERTY
@given(sessions=gen_sessions())
@pytest.mark.slow
def test_generated_logs_pass_the_checker_and_keep_every_turn(tmp_path: Path, sessions):
    folder, dialogues = _export_generated(tmp_path, sessions)
    with_user = [s for s in sessions if any(t.side == "user" for t in s.turns)]
    assert [d["session_id"] for d in dialogues] == [s.session_id for s in with_user]
    for session, dialogue in zip(with_user, dialogues):
        sided = [t for t in session.turns if t.side is not None]
        merged = [part["turn_id"] for turn in dialogue["turns"] for part in turn["log_turns"]]
        assert merged == [t.turn_id for t in sided], "every GC_TURN with a side, in order"
        for turn in dialogue["turns"]:
            assert turn["utterance"] == clean_text(turn["utterance"])
            assert (turn["speaker"] == "user") == ("state" in turn) == ("db_results" not in turn)


@PROPERTY
@given(sessions=gen_sessions())
@pytest.mark.slow
def test_generated_logs_survive_export_import_export(tmp_path: Path, sessions):
    folder, first = _export_generated(tmp_path, sessions)
    import_convlab(folder, tmp_path / "logs")
    export_convlab([tmp_path / "logs"], tmp_path / "again")
    assert _essence(_dialogues(tmp_path / "again" / "communicator")) == _essence(first)


# The checker itself must catch what check.py catches, or passing it would prove nothing.
def _valid_dataset(tmp_path: Path, transcribed_corpus: Path) -> Path:
    export_convlab([transcribed_corpus], tmp_path)
    return tmp_path / "communicator"


def _rewrite(folder: Path, change) -> None:
    with zipfile.ZipFile(folder / "data.zip") as archive:
        ontology = json.loads(archive.read("data/ontology.json"))
        dialogues = json.loads(archive.read("data/dialogues.json"))
    change(ontology, dialogues)
    with zipfile.ZipFile(folder / "data.zip", "w") as archive:
        archive.writestr("data/ontology.json", json.dumps(ontology))
        archive.writestr("data/dialogues.json", json.dumps(dialogues))
    (folder / "dummy_data.json").write_text(json.dumps(dialogues[:10]), encoding="utf-8")


def _set(container, key, value):
    container[key] = value


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda o, d: o.pop("intents"), "no intents"),
        (
            lambda o, d: _set(
                o["dialogue_acts"], "binary", [e.replace("True", "true") for e in o["dialogue_acts"]["binary"]]
            ),
            "not a Python literal",
        ),
        (
            lambda o, d: _set(
                o["domains"]["general"]["slots"],
                "city",
                {"description": "", "is_categorical": True, "possible_values": []},
            ),
            "without possible values",
        ),
        (lambda o, d: _set(d[0], "dialogue_id", "communicator-train-x"), "wrong dialogue id format"),
        (lambda o, d: _set(d[1], "dialogue_id", d[0]["dialogue_id"]), "multiple dialogue id"),
        (lambda o, d: _set(d[0]["turns"][3], "utt_idx", 7), "wrong utt_idx"),
        (lambda o, d: _set(d[0]["turns"][1], "speaker", "system"), "alternatively"),
        (lambda o, d: _set(d[0]["turns"][0], "state", {}), "state cannot present"),
        (lambda o, d: _set(d[0]["turns"][1], "db_results", {}), "db_results cannot present"),
        (
            lambda o, d: d[0]["turns"][1]["dialogue_acts"]["binary"].append(
                {"intent": "prompt", "domain": "general", "slot": "destination"}
            ),
            "not declared for the user",
        ),
    ],
)
def test_the_checker_catches_what_check_py_catches(transcribed_corpus: Path, tmp_path: Path, change, message):
    folder = _valid_dataset(tmp_path, transcribed_corpus)
    check_dataset_folder(folder)
    _rewrite(folder, change)
    with pytest.raises(ConvLabCheckError, match=message):
        check_dataset_folder(folder)


def test_the_checker_refuses_a_dash_in_the_dataset_name(transcribed_corpus: Path, tmp_path: Path):
    folder = _valid_dataset(tmp_path, transcribed_corpus)
    renamed = folder.rename(tmp_path / "communi-cator")
    _rewrite(renamed, lambda o, d: [_set(x, "dataset", "communi-cator") for x in d])
    with pytest.raises(ConvLabCheckError, match="wrong dialogue id format"):
        check_dataset_folder(renamed)
