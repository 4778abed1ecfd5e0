"""Sessions (and turns) that share an id: validate reports them, extract, fold and the exports
keep them apart by occurrence, and an annotation that names a shared id without saying which
one is refused, never spread over all of them or given to the first."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from annotator.analysis.validation import Severity, validate_document
from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.annotation_files.fold import extract, extract_all, fold, fold_many, read_annotations, write_annotations
from annotator.annotation_files.human_format import read_human_file
from annotator.errors import AnnotationFileError
from annotator.log.annotations import set_task_completion
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

COMPLETION = ["1", "0", "1"]


def _three_sessions(completion: list[str | None] = COMPLETION) -> str:
    sessions = []
    for number, value in enumerate(completion, start=1):
        extra = "" if value is None else f'<GC_ANNOT type_task_completion="{value}"/>'
        start = 1000.0 * number
        sessions.append(
            session(
                "s",
                [system_turn("1", start, "hi"), user_turn("2", start + 2, f"heard {number}")],
                start,
                start + 10,
                extra,
            )
        )
    return log_text(sessions).replace("</GC_SESSION>", "</GC_SESSION>\n")  # one session a line


def _write(folder: Path, text: str, name: str = "log.xml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_log(folder / name, text)


def _completion(path: Path) -> list[str | None]:
    return [s.task_completion for s in LogDocument.load(path).sessions]


def test_validate_reports_a_repeated_session_id_as_an_error(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions()))
    found = [f for f in validate_document(doc, audio=False) if f.code == "duplicate-session-id"]
    assert [(f.severity, f.line) for f in found] == [(Severity.ERROR, 3), (Severity.ERROR, 4)]
    assert found[0].message == "GC_SESSION id 's' is already used by the GC_SESSION on line 2"


def test_the_cli_validate_says_so(tmp_path: Path):
    result = run_annotator("validate", "--no-audio", "--hide-quirks", _write(tmp_path, _three_sessions()))
    assert result.returncode == 1
    assert "log.xml:3: error: GC_SESSION id 's' is already used by the GC_SESSION on line 2" in result.stdout


def test_extract_numbers_sessions_that_share_an_id(tmp_path: Path):
    annotations = extract(LogDocument.load(_write(tmp_path, _three_sessions())))
    assert annotations.task_completion == {SessionRef("s", 1): "1", SessionRef("s", 2): "0", SessionRef("s", 3): "1"}


@pytest.mark.parametrize("suffix", [".csv", ".xml"])
@pytest.mark.slow
def test_extract_then_fold_gives_1_0_1_back(tmp_path: Path, suffix: str):
    log = _write(tmp_path / "in", _three_sessions())
    raw = _write(tmp_path / "raw", _three_sessions([None, None, None]))
    table = tmp_path / f"annotations{suffix}"
    assert run_annotator("extract", log, "-o", table).returncode == 0
    result = run_annotator("fold", raw, table, "-o", tmp_path / "folded.xml")
    assert result.returncode == 0, result.stderr
    assert _completion(tmp_path / "folded.xml") == COMPLETION


def test_the_csv_says_which_session_in_its_own_column(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions()))
    write_annotations(tmp_path / "a.csv", extract(doc), [doc])
    with open(tmp_path / "a.csv", newline="", encoding="utf-8") as stream:
        rows = [
            (row["session_id"], row["session_occurrence"], row["task_completion"]) for row in csv.DictReader(stream)
        ]
    assert rows == [("s", "1", "1"), ("s", "2", "0"), ("s", "3", "1")]


def test_the_human_file_says_which_session_in_an_attribute(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions()))
    write_annotations(tmp_path / "a.xml", extract(doc), [doc])
    text = (tmp_path / "a.xml").read_text(encoding="utf-8")
    assert text.count('<GC_SESSION id="s" session_occurrence=') == 3
    assert read_human_file(tmp_path / "a.xml") == extract(doc)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("a.csv", "session_id,task_completion\ns,1\n"),
        (
            "a.xml",
            '<GC_LOG_ANNOTATIONS annot_version="2"><GC_SESSION id="s"><GC_ANNOT type_task_completion="1"/>'
            "</GC_SESSION></GC_LOG_ANNOTATIONS>",
        ),
    ],
)
def test_fold_refuses_a_shared_id_without_its_occurrence(tmp_path: Path, name: str, content: str):
    raw = _write(tmp_path, _three_sessions([None, None, None]))
    (tmp_path / name).write_text(content, encoding="utf-8")
    result = run_annotator("fold", raw, tmp_path / name, "-o", tmp_path / "folded.xml")
    assert result.returncode == 2 and not (tmp_path / "folded.xml").exists()
    assert result.stderr.count("\n") == 1
    assert (
        "ambiguous session ids: s names 3 sessions (line 2, line 3, line 4), "
        "say which with session_occurrence 1 to 3; nothing was folded"
    ) in result.stderr


def test_an_occurrence_beyond_the_sessions_is_an_unknown_session(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions([None, None, None])))
    annotations = AnnotationSet()
    annotations.add_task_completion("s", "1", session_occurrence=4)
    with pytest.raises(AnnotationFileError, match=r"unknown session ids: s \(session_occurrence 4\)"):
        fold(doc, annotations)


def test_a_unique_id_with_occurrence_1_is_that_session(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions([None])))
    annotations = AnnotationSet()
    annotations.add_task_completion("s", "0", session_occurrence=1)
    assert fold(doc, annotations) == 1 and doc.sessions[0].task_completion == "0"


def test_two_annotations_for_one_session_must_agree(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _three_sessions([None])))
    annotations = AnnotationSet()
    annotations.add_task_completion("s", "0", session_occurrence=1)
    annotations.add_task_completion("s", "1")
    with pytest.raises(AnnotationFileError, match=r"two values for one place: session s: '0' and '1'"):
        fold(doc, annotations)
    assert doc.sessions[0].task_completion is None


def test_sessions_sharing_an_id_across_logs_count_in_the_order_given(tmp_path: Path):
    docs = [LogDocument.load(_write(tmp_path, _three_sessions([None]), name)) for name in ("a.xml", "b.xml")]
    annotations = AnnotationSet()
    annotations.add_task_completion("s", "0", session_occurrence=2)
    assert fold_many(docs, annotations) == 1
    assert [doc.sessions[0].task_completion for doc in docs] == [None, "0"]
    set_task_completion(docs[0].sessions[0], "1")
    assert extract_all(docs).task_completion == {SessionRef("s", 1): "1", SessionRef("s", 2): "0"}
    ambiguous = AnnotationSet(task_completion={SessionRef("s"): "1"})
    with pytest.raises(AnnotationFileError, match=r"s names 2 sessions \(a.xml:2, b.xml:2\)"):
        fold_many(docs, ambiguous)


def test_each_log_takes_the_human_file_beside_it(tmp_path: Path):
    corpus = tmp_path / "corpus"
    for name, value in (("a", "1"), ("b", "0")):
        _write(corpus, _three_sessions([value]), f"{name}-hublog.xml")
        (corpus / f"{name}-human.xml").write_text(
            f'<GC_LOG_ANNOTATIONS annot_version="2"><GC_SESSION id="s"><GC_ANNOT type_task_completion="{value}"/>'
            "</GC_SESSION></GC_LOG_ANNOTATIONS>",
            encoding="utf-8",
        )
        _write(tmp_path / "raw", _three_sessions([None]), f"{name}-hublog.xml")
        (tmp_path / "raw" / f"{name}-human.xml").write_bytes((corpus / f"{name}-human.xml").read_bytes())
    result = run_annotator("fold", tmp_path / "raw", "-o", tmp_path / "folded")
    assert result.returncode == 0, result.stderr
    assert [_completion(tmp_path / "folded" / f"{name}-hublog.xml") for name in "ab"] == [["1"], ["0"]]


# --- turns sharing an id inside one session ---------------------------------------------------------


def _repeated_turns(transcribed: bool) -> str:
    annot = '<GC_ANNOT turnid="2"><GC_DATA key=":transcription" type_utt_text="transcription">{}</GC_DATA></GC_ANNOT>'
    turns = [
        system_turn("1", 1000, "hi"),
        user_turn("2", 1002, "boston", extra=annot.format("to boston") if transcribed else ""),
        user_turn("02", 1006, "denver", extra=annot.format("to denver") if transcribed else ""),
    ]
    return log_text([session("s", turns)])


def test_validate_reports_a_repeated_turn_id_as_an_error(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path, _repeated_turns(False)))
    found = [f for f in validate_document(doc, audio=False) if f.code == "duplicate-turn-id"]
    assert [f.severity for f in found] == [Severity.ERROR]


def test_turns_sharing_an_id_are_extracted_apart_and_fold_back(tmp_path: Path):
    doc = LogDocument.load(_write(tmp_path / "in", _repeated_turns(True)))
    annotations = extract(doc)
    assert annotations.transcriptions == {
        TurnRef(SessionRef("s"), 2, 1): "to boston",
        TurnRef(SessionRef("s"), 2, 2): "to denver",
    }
    for suffix in (".csv", ".xml"):
        write_annotations(tmp_path / f"a{suffix}", annotations, [doc])
        # the log the rows were written for, unannotated (its name is the one the rows' file column holds)
        raw = LogDocument.load(_write(tmp_path / f"raw{suffix.replace('.', '-')}", _repeated_turns(False)))
        assert fold(raw, read_annotations(tmp_path / f"a{suffix}")) == 2
        assert [turn.transcription for turn in raw.sessions[0].turns] == [None, "to boston", "to denver"]


def test_fold_refuses_a_shared_turn_id_without_its_occurrence(tmp_path: Path):
    raw = LogDocument.load(_write(tmp_path, _repeated_turns(False)))
    before = raw.serialize()
    (tmp_path / "a.csv").write_text("session_id,turn_id,transcription\ns,2,to boston\n", encoding="utf-8")
    with pytest.raises(AnnotationFileError) as raised:
        fold(raw, read_annotations(tmp_path / "a.csv"))
    assert "ambiguous turns: s turn 2 names 2 GC_TURNs (line 2, line 2), say which with turn_occurrence 1 to 2" in str(
        raised.value
    )
    assert raw.serialize() == before


@pytest.mark.parametrize("cell", ["0", "-1", "x", "1.5", "٢"])
def test_an_occurrence_must_be_a_whole_number_from_1(tmp_path: Path, cell: str):
    (tmp_path / "a.csv").write_text(f"session_id,task_completion,session_occurrence\ns,1,{cell}\n", encoding="utf-8")
    with pytest.raises(AnnotationFileError, match=f"row 2: session_occurrence '{cell}' is not a whole number from 1"):
        read_annotations(tmp_path / "a.csv")
