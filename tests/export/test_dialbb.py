"""DialBB test scenarios: the format's rules, and a replay through DialBB's real test tool (dialbb-test)
with an application that answers each user line with the scenario's next system line. Reading scenarios
back is tested in tests/imports/test_dialbb_import.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from annotator.export.dialbb import export_dialbb, scenario_text
from annotator.export.dialogue_text import ExportOptions
from tests.support.dialbb_replay import needs_dialbb, replay
from tests.support.format_strategies import gen_sessions, write_generated_log

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def expected_replay(lines: list[str]) -> list[str]:
    """What dialbb-test writes back when the application answers with the scenario's system lines: for
    each session "----init", the answer to its start, then each user line followed by the answer to it.
    The same lines as the scenario, but for an empty answer ("System: ") where the scenario has none:
    before a session's first user line when it opens with the user, after its last when it ends so."""
    output: list[str] = []
    for line in lines:
        if line.startswith("----"):
            output += [line, "System: "]
        elif line.startswith("User: "):
            output += [line, "System: "]
        else:
            output[-1] = line  # a system line is the answer to what precedes it
    return output


def test_sample_logs_as_a_scenario(transcribed_corpus: Path, tmp_path: Path):
    report = export_dialbb([transcribed_corpus], tmp_path / "scenario.txt")
    raw = (tmp_path / "scenario.txt").read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw and raw.endswith(b"\n")
    lines = raw.decode("utf-8").splitlines()
    assert report.sessions == 3 and report.utterances == 36 and lines.count("----init") == 3
    assert lines[:4] == [
        "----init",
        "System: Welcome to the Communicator travel service. Where would you like to fly?",
        "User: i want to fly to boston",
        "System: Austin. Is that right?",
    ]
    assert "User: <breath> thanks very much goodbye" in lines and "System: Zürich to São Paulo. What date?" in lines
    assert all(line == "----init" or line.startswith(("System: ", "User: ")) and line.strip() == line for line in lines)


@needs_dialbb
def test_sample_logs_replay_cleanly_through_dialbb_test(transcribed_corpus: Path, tmp_path: Path):
    scenario = tmp_path / "scenario.txt"
    export_dialbb([transcribed_corpus], scenario)
    lines = scenario.read_text(encoding="utf-8").splitlines()
    replayed, stdout = replay(scenario, tmp_path)
    assert "Warning" not in stdout and "# of scenarios: 3" in stdout
    # The sample sessions end with the caller's goodbye: dialbb-test adds the (empty) answer to it.
    assert replayed == expected_replay(lines) != lines
    assert [line for line in replayed if line != "System: "] == lines


@needs_dialbb
def test_sessions_that_end_with_the_system_replay_to_the_same_file(transcribed_corpus: Path, tmp_path: Path):
    for log in sorted(transcribed_corpus.glob("*/*-hublog.xml")):  # drop the caller's last turn
        tree = etree.parse(str(log))
        last = tree.getroot().find("GC_SESSION").findall("GC_TURN")[-1]
        last.getparent().remove(last)
        tree.write(str(log), xml_declaration=True, encoding=tree.docinfo.encoding)
    scenario = tmp_path / "scenario.txt"
    export_dialbb([transcribed_corpus], scenario)
    replayed, stdout = replay(scenario, tmp_path)
    assert "Warning" not in stdout
    assert replayed == scenario.read_text(encoding="utf-8").splitlines()


def test_lines_stay_one_utterance():
    assert scenario_text("User: hi\nSystem: there\tyou") == "User : hi System : there you"
    assert scenario_text("UserUser: : x") == "UserUser : : x"
    assert scenario_text("a System:b User:") == "a System:b User:"


@PROPERTY
@given(sessions=gen_sessions(), text=st.sampled_from(["prefer-transcription", "transcription", "asr"]))
@pytest.mark.slow
def test_generated_logs_keep_the_format(tmp_path: Path, sessions, text):
    log = write_generated_log(tmp_path / "gen-hublog.xml", sessions)
    report = export_dialbb([log], tmp_path / "scenario.txt", ExportOptions(text=text))
    lines = (tmp_path / "scenario.txt").read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert lines.count("----init") == report.sessions
    previous = "----init"
    for line in lines:
        if line != "----init":
            label = "User: " if line.startswith("User: ") else "System: "
            utterance = line[len(label) :]
            assert line.startswith(("User: ", "System: ")) and utterance.strip() == utterance != ""
            assert "User: " not in utterance and "System: " not in utterance
            assert not previous.startswith(label), "one line per side's turn: same-side turns are merged"
        previous = line


@needs_dialbb
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sessions=gen_sessions(min_sessions=2))
def test_generated_logs_replay_cleanly(tmp_path: Path, sessions):
    log = write_generated_log(tmp_path / "gen-hublog.xml", sessions)
    scenario = tmp_path / "scenario.txt"
    export_dialbb([log], scenario)
    lines = scenario.read_text(encoding="utf-8").splitlines()
    if not lines:
        return
    replayed, stdout = replay(scenario, tmp_path)
    assert "Warning" not in stdout
    assert replayed == expected_replay(lines)
    assert [line for line in replayed if line != "System: "] == lines
