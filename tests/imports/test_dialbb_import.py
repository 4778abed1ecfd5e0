"""DialBB test scenarios read back (annotator.imports.dialbb): export(import(x)) gives the scenario back, what
dialbb-test writes imports, the logs an import writes are valid and marked, and a line it cannot read is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.analysis.validation import validate_document
from annotator.export.dialbb import export_dialbb
from annotator.imports.dialbb import import_dialbb
from annotator.log.document import LogDocument
from tests.support.dialbb_replay import needs_dialbb, replay

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


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
@pytest.mark.slow
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
