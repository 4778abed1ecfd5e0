"""DialBB test scenarios: the format's rules, a replay through DialBB's real test tool (dialbb-test)
with an application that answers each user line with the scenario's next system line, and the
import back."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from annotator.analysis.validation import validate_document
from annotator.export.dialbb import export_dialbb, scenario_text
from annotator.export.dialogue_text import ExportOptions
from annotator.imports.dialbb import import_dialbb
from annotator.log.document import LogDocument
from tests.formats.conftest import peer_tool
from tests.formats.generated_logs import gen_sessions, write_generated_log

APP = Path(__file__).parent / "dialbb_app" / "config.yml"
DIALBB_TEST = peer_tool("DIALBB_TEST", "dialbb-test", venv=".venv-dialbb")
needs_dialbb = pytest.mark.skipif(
    DIALBB_TEST is None,
    reason="DialBB's test tool is not installed. Its full dependency set is heavy (LangChain, PySide6...), so: "
    "python3 -m venv .venv-dialbb && .venv-dialbb/bin/pip install --no-deps dialbb==2.0.2 && "
    ".venv-dialbb/bin/pip install pymongo==4.20.0 python-dotenv==1.2.2 PyYAML==6.0.3 (found there, at the "
    "top of the checkout), or put dialbb-test on PATH, or set DIALBB_TEST to it",
)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def replay(scenario: Path, folder: Path) -> tuple[list[str], str]:
    """Run dialbb-test over SCENARIO with the replaying application: (its --output lines, its stdout)."""
    output = folder / "replayed.txt"
    environment = {**os.environ, "DIALBB_REPLAY_SCENARIO": str(scenario)}
    result = subprocess.run(
        [DIALBB_TEST, str(APP), str(scenario), "--output", str(output)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return output.read_text(encoding="utf-8").splitlines(), result.stdout


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


SAY = st.lists(
    st.sampled_from(["hello", "Zürich", "I'd", "book", "it.", "[noise]", "50%", "----init"]), min_size=1, max_size=5
).map(" ".join)


@st.composite
def scenarios(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        lines.append("----init")
        first = draw(st.sampled_from(["System: ", "User: "]))
        other = "User: " if first == "System: " else "System: "
        # with a user line: a session without one is skipped on export, with a warning
        count = draw(st.integers(1 if first == "User: " else 2, 6))
        lines += [(first, other)[i % 2] + draw(SAY) for i in range(count)]
    return "".join(line + "\n" for line in lines)


@PROPERTY
@given(scenario=scenarios())
def test_export_of_import_gives_the_scenario_back(tmp_path: Path, scenario: str):
    for old in tmp_path.glob("**/*"):
        if old.is_file():
            old.unlink()
    source = tmp_path / "scenario.txt"
    source.write_text(scenario, encoding="utf-8")
    report = import_dialbb(source, tmp_path / "logs")
    assert len(report.files) == scenario.splitlines().count("----init")
    export_dialbb([tmp_path / "logs"], tmp_path / "again.txt")
    assert (tmp_path / "again.txt").read_text(encoding="utf-8") == scenario


@needs_dialbb
def test_dialbb_test_output_imports(transcribed_corpus: Path, tmp_path: Path):
    scenario = tmp_path / "scenario.txt"
    export_dialbb([transcribed_corpus], scenario)
    replay(scenario, tmp_path)
    report = import_dialbb(tmp_path / "replayed.txt", tmp_path / "logs")
    assert [p.name for p in report.files] == [f"replayed-00{i}-hublog.xml" for i in (1, 2, 3)]
    export_dialbb([tmp_path / "logs"], tmp_path / "again.txt")
    assert (tmp_path / "again.txt").read_text(encoding="utf-8") == scenario.read_text(encoding="utf-8")


def test_imported_scenario_logs_are_valid_and_marked(tmp_path: Path):
    source = tmp_path / "my scenario.txt"
    source.write_text(
        "User: before any init\n----init\nSystem: Hello.\nUser: hi\nSystem:\n\n----init\n", encoding="utf-8"
    )
    report = import_dialbb(source, tmp_path / "logs")
    assert [p.name for p in report.files] == ["my_scenario-001-hublog.xml", "my_scenario-002-hublog.xml"]
    assert report.warnings == [f"{source}:7: session 3: skipped, it has no utterance"]
    doc = LogDocument.load(report.files[1])
    assert validate_document(doc, audio=False) == []
    session = doc.sessions[0]
    assert session.id == "my_scenario-002"
    assert [(t.speaker, t.asr_text or t.system_text) for t in session.turns] == [("system", "Hello."), ("user", "hi")]
    event = session.turns[0].events[0]
    assert event.etype == "IMPORT" and {d.key: d.text for d in event.data}[":synthetic_times"] == "true"


def test_import_names_the_line_it_cannot_read(tmp_path: Path):
    from annotator.imports import ImportFormatError

    source = tmp_path / "scenario.txt"
    source.write_text("----init\nSystem: Hi\nBot: hello\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"scenario.txt:3: expected"):
        import_dialbb(source, tmp_path / "logs")
