"""Hostile ConvLab datasets and DialBB scenarios through `annotator import`: exit status 0 or 2, one line.

A 5000-digit dialogue id ended in exit 70 "internal error". Hand-made hostile sources,
then hypothesis: generated ConvLab JSON (odd ids, speakers, utterances, nesting) and
byte-mutated DialBB scenarios. Whatever is imported must load as a log. About 300
examples in the default run; FUZZ_SCALE=N runs N times as many.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.cli.main import main
from annotator.log.document import LogDocument

SCALE = int(os.environ.get("FUZZ_SCALE", "1"))


def run_import(source_format: str, source: Path, out: Path, capfd) -> tuple[int, str]:
    if out.exists():
        shutil.rmtree(out)
    status = main(["import", "--from", source_format, str(source), "-o", str(out)])
    return status, capfd.readouterr().err


def assert_clean(status: int, err: str, out: Path) -> None:
    assert status in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("annotator: "), err
        assert not out.exists(), "nothing written"
    else:
        for log in out.glob("*-hublog.xml"):
            assert LogDocument.load(log).sessions, log
            assert len(log.name.encode()) <= 255


def _dialogue(dialogue_id, turns=None) -> dict:
    return {"dialogue_id": dialogue_id, "turns": turns or [{"speaker": "user", "utterance": "hi"}]}


CONVLAB = {
    "5000-digit-id": ([_dialogue("x-train-" + "1" * 5000)], 0),
    "5000-digit-ids-twice": ([_dialogue("x-train-" + "1" * 5000), _dialogue("x-train-" + "1" * 4999 + "2")], 0),
    "5000-character-id": ([_dialogue("x" * 5000)], 0),
    "unicode-digits": ([_dialogue("x-train-\u0663\u0664")], 0),
    "control-characters": ([_dialogue("a\x01b", [{"speaker": "user", "utterance": "a\x00\x1b[31m\ud800"}])], 0),
    "id-of-every-type": ([_dialogue(v) for v in (1, 1.5, True, None, [1], {"a": 1}, "")], 0),
    "deep-json": ("[" * 100000 + "]" * 100000, 2),
    "not-a-list": ({"dialogues": []}, 2),
    "bad-speaker": ([_dialogue("a", [{"speaker": "robot", "utterance": "x"}])], 2),
    "huge-number": ("[" + "1" * 5000 + "]", 2),
    "line-breaks-in-id": ([{"dialogue_id": "a\nb\u2028c\rd", "turns": [None]}], 2),
    "long-id-in-a-message": ([{"dialogue_id": "9" * 5000, "turns": [None]}], 2),
    "turn-ids-recorded": (
        [_dialogue("a", [{"speaker": "user", "utterance": "x", "log_turns": [{"turn_id": "-" * 3000}]}])],
        0,
    ),
}


@pytest.mark.parametrize("name", list(CONVLAB))
def test_hostile_convlab_sources(tmp_path: Path, capfd, name: str):
    value, expected = CONVLAB[name]
    source = tmp_path / "dialogues.json"
    source.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    status, err = run_import("convlab", source, tmp_path / "out", capfd)
    assert_clean(status, err, tmp_path / "out")
    assert status == expected, err
    assert len(err) < 1000, "a message, not the whole input"


def test_a_hostile_zip(tmp_path: Path, capfd):
    source = tmp_path / "data.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("data/dialogues.json", b"\xff\xfe not json")
    assert_clean(*run_import("convlab", source, tmp_path / "out", capfd), tmp_path / "out")
    source.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    assert_clean(*run_import("convlab", source, tmp_path / "out", capfd), tmp_path / "out")


DIALBB = {
    "nul-and-controls": b"----init\nUser: a\x00b\x1bc\nSystem: \x7f\n",
    "not-utf8": b"----init\nUser: caf\xe9\n",
    "unicode-line-breaks": "----init\nUser: a\u2028b\x85c\u2029d\nSystem: ok\n".encode(),
    "long-line": b"----init\nUser: " + b"w " * 200000 + b"\n",
    "only-marks": b"----\n----\n----\n",
    "bom-and-crlf": b"\xef\xbb\xbf----init\r\nUser: hi\r\nSystem: yes\r",
}


@pytest.mark.parametrize("name", list(DIALBB))
def test_hostile_dialbb_scenarios(tmp_path: Path, capfd, name: str):
    source = tmp_path / "scenario.txt"
    source.write_bytes(DIALBB[name])
    assert_clean(*run_import("dialbb", source, tmp_path / "out", capfd), tmp_path / "out")


# --- fuzzing ----------------------------------------------------------------------------------------

ODD_TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(
        [
            "",
            " ",
            "-",
            "x-train-" + "9" * 5000,
            "a-b-c-d",
            "x-train-007",
            "\ud800",
            "\x00",
            "../../etc/passwd",
            "CON",
            "a" * 300,
        ]
    ),
)
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), ODD_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(ODD_TEXT, inner, max_size=3)),
    max_leaves=8,
)
TURNS = st.lists(
    st.one_of(
        JSONISH,
        st.fixed_dictionaries(
            {"speaker": st.sampled_from(["user", "system", "User", ""]), "utterance": st.one_of(ODD_TEXT, JSONISH)},
            optional={
                "log_turns": st.lists(st.fixed_dictionaries({"turn_id": st.one_of(ODD_TEXT, JSONISH)}), max_size=2)
            },
        ),
    ),
    max_size=4,
)
DIALOGUES = st.lists(
    st.one_of(
        JSONISH,
        st.fixed_dictionaries(
            {"dialogue_id": st.one_of(ODD_TEXT, JSONISH), "turns": st.one_of(TURNS, JSONISH)},
            optional={"session_id": ODD_TEXT, "data_split": ODD_TEXT, "dataset": ODD_TEXT, "original_id": JSONISH},
        ),
    ),
    max_size=4,
)
FUZZ = settings(
    max_examples=150 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(dialogues=st.one_of(DIALOGUES, JSONISH))
@pytest.mark.slow
def test_generated_convlab_sources(tmp_path: Path, capfd, dialogues):
    source = tmp_path / "dialogues.json"
    source.write_text(json.dumps(dialogues), encoding="utf-8")
    assert_clean(*run_import("convlab", source, tmp_path / "out", capfd), tmp_path / "out")


SCENARIO = (
    b"----init\nSystem: Welcome.\nUser: I want to fly to Boston.\nSystem: When?\nUser: Friday.\n----init\nUser: hi\n"
)
TOKENS = [
    b"----init\n",
    b"User: ",
    b"System: ",
    b"User:",
    b"\n",
    b"\r",
    b"\r\n",
    b"\x00",
    b"\xff",
    b"\xe2\x80\xa8",
    b"\xc2\x85",
    b"-",
    b"\xef\xbb\xbf",
    b"]]>",
    b"--",
    b"<!--",
    b"&amp;",
    b"\x1b",
]


@FUZZ
@given(data=st.data())
@pytest.mark.slow
def test_mutated_dialbb_scenarios(tmp_path: Path, capfd, data):
    scenario = bytearray(SCENARIO)
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(scenario)))
        if data.draw(st.booleans()):
            scenario[at:at] = data.draw(st.sampled_from(TOKENS))
        else:
            del scenario[at : at + data.draw(st.integers(1, 10))]
    source = tmp_path / "scenario.txt"
    source.write_bytes(bytes(scenario))
    assert_clean(*run_import("dialbb", source, tmp_path / "out", capfd), tmp_path / "out")
