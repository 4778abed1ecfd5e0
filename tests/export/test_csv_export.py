"""CSV export: columns, one row per thing, seconds, audio paths, formula safety, round trips."""

from __future__ import annotations

import csv
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from annotator.analysis.metrics import SESSION_METRIC_COLUMNS, session_metrics
from annotator.analysis.metrics_scan import SessionPass
from annotator.errors import LogReadError
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_cells import duration_cell, seconds_cell
from annotator.export.csv_export import EVENT_COLUMNS, SESSION_COLUMNS, TURN_COLUMNS, export_csv
from annotator.export.csv_rows import event_lines
from annotator.log.document import LogDocument
from annotator.log.text import clean_text
from tests.support.csv_exports import read
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log

SESSION_MINIMUM = [
    "file",
    "session_id",
    "stime",
    "etime",
    "duration_s",
    "n_turns",
    "n_user_turns",
    "n_system_turns",
    "task_completion",
    "n_transcribed",
    "wer",
    "recognition_s",
    "synthesis_s",
]
TURN_MINIMUM = [
    "file",
    "session_id",
    "turn_id",
    "index",
    "speaker",
    "stime",
    "etime",
    "duration_s",
    "n_operations",
    "asr_text",
    "system_text",
    "audio_input",
    "audio_output",
    "transcription",
    "wer",
    "response_latency",
]
EVENT_MINIMUM = [
    "file",
    "session_id",
    "turn_id",
    "element",
    "name",
    "server",
    "location",
    "tidx",
    "stime",
    "etime",
    "duration_s",
    "type",
]
ACTIVITY_XPATH = "//GC_OPERATION | //GC_MESSAGE | //GC_EVENT"
MS_LOG = "travel-20261121-002/travel-20261121-002-hublog.xml"


def raw_rows(out: Path, name: str) -> list[list[str]]:
    with open(out / name, encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


@pytest.fixture
def exported(corpus: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    export_csv([corpus], out)
    return out


# --- columns and rows ----------------------------------------------------------------------------


def test_headers_are_the_minimum_columns_in_order_then_extras(exported: Path):
    sessions, turns, events = (raw_rows(exported, name)[0] for name in ("sessions.csv", "turns.csv", "events.csv"))
    assert sessions[: len(SESSION_MINIMUM)] == SESSION_MINIMUM
    assert sessions[len(SESSION_MINIMUM) :] == [c for c in SESSION_METRIC_COLUMNS if c not in SESSION_MINIMUM] + [
        "oracle_wer",
        "nbest_truth_share",
        "time_spent_s",
        "reviewed",
        "reviewed_by",
        "session_occurrence",
    ]
    assert turns[-5:-2] == ["flags", "comment", "time_spent_s"]
    assert turns[-2:] == ["session_occurrence", "turn_occurrence"]
    assert turns[: len(TURN_MINIMUM)] == TURN_MINIMUM
    assert events[: len(EVENT_MINIMUM)] == EVENT_MINIMUM
    assert (sessions, turns, events) == (SESSION_COLUMNS, TURN_COLUMNS, EVENT_COLUMNS)
    assert len(set(sessions)) == len(sessions)


def test_one_row_per_session_turn_and_element_in_document_order(corpus: Path, exported: Path):
    logs = sorted(corpus.rglob("*-hublog.xml"))
    trees = {path.relative_to(corpus).as_posix(): etree.parse(str(path)) for path in logs}
    sessions, turns, events = (read(exported, n) for n in ("sessions.csv", "turns.csv", "events.csv"))
    assert list(sessions["file"]) == list(trees)  # sorted, one session per sample log
    for file, tree in trees.items():
        assert (sessions["file"] == file).sum() == int(tree.xpath("count(//GC_SESSION)"))
        log_turns = turns[turns["file"] == file]
        assert list(log_turns["turn_id"]) == [t.get("id") for t in tree.xpath("//GC_TURN")]
        assert list(log_turns["index"]) == [str(i) for i in range(len(log_turns))]
        elements = tree.xpath(ACTIVITY_XPATH)
        log_events = events[events["file"] == file]
        assert list(log_events["element"]) == [el.tag for el in elements]
        assert list(log_events["name"]) == [el.get("name") for el in elements]
        assert list(log_events["turn_id"]) == [el.getparent().get("id") for el in elements]
        assert list(log_events["turnid"]) == [el.get("turnid") for el in elements]
        assert list(log_events["type"]) == [
            el.get("etype") if el.tag == "GC_EVENT" else el.get("type") or "" for el in elements
        ]
        assert log_turns["n_operations"].astype(int).sum() == len(tree.xpath("//GC_TURN/GC_OPERATION"))


def test_files_are_utf8_without_bom_with_lf_line_ends(exported: Path, corpus: Path):
    for name in ("sessions.csv", "turns.csv", "events.csv"):
        raw = (exported / name).read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf")
        assert b"\r\n" not in raw and raw.endswith(b"\n")
        raw.decode("utf-8")
    # the Latin-1 sample log's Zürich comes out as UTF-8
    assert "Zürich" in (exported / "turns.csv").read_text(encoding="utf-8")


def test_file_column_is_relative_to_the_given_folder_or_the_files_parent(corpus: Path, tmp_path: Path):
    log = corpus / MS_LOG
    export_csv([log], tmp_path / "one")
    assert set(read(tmp_path / "one", "turns.csv")["file"]) == {log.name}
    other = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    export_csv([log, other], tmp_path / "two")
    assert list(read(tmp_path / "two", "sessions.csv")["file"]) == [MS_LOG, other.relative_to(corpus).as_posix()]


def test_a_folder_exports_every_log_below_it_but_not_annotation_files_or_backups(corpus: Path, tmp_path: Path):
    nested = corpus / "more" / "deeper"
    nested.mkdir(parents=True)
    shutil.copy(corpus / MS_LOG, nested / "copy-hublog.xml")
    shutil.copy(corpus / MS_LOG, nested / "copy-hublog.orig.xml")
    (nested / "call-human.xml").write_text('<GC_LOG_ANNOTATIONS annot_version="2"/>', encoding="utf-8")
    (nested / "renamed-annotations.xml").write_text(
        '<?xml version="1.0"?>\n<!-- MITRE -->\n<GC_LOG_ANNOTATIONS annot_version="2"><GC_SESSION id="s"/>'
        "</GC_LOG_ANNOTATIONS>",
        encoding="utf-8",
    )
    summary = export_csv([corpus], tmp_path / "out")
    files = list(read(tmp_path / "out", "sessions.csv")["file"])
    assert files == sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*-hublog.xml"))
    assert "more/deeper/copy-hublog.xml" in files
    assert summary.skipped == [nested / "renamed-annotations.xml"]
    assert len(summary.logs) == 4 and summary.sessions == 4 and not summary.errors


# --- values --------------------------------------------------------------------------------------


def test_millisecond_log_gives_seconds_equal_to_raw_over_1000(corpus: Path, exported: Path):
    tree = etree.parse(str(corpus / MS_LOG))
    turns = read(exported, "turns.csv")
    turns = turns[turns["file"] == MS_LOG]
    for el, (_, row) in zip(tree.xpath("//GC_TURN"), turns.iterrows()):
        assert float(row["stime"]) == int(el.get("stime")) / 1000
        assert float(row["etime"]) == int(el.get("etime")) / 1000
        assert float(row["duration_s"]) == pytest.approx((int(el.get("etime")) - int(el.get("stime"))) / 1000)
    events = read(exported, "events.csv")
    events = events[events["file"] == MS_LOG]
    for el, (_, row) in zip(tree.xpath(ACTIVITY_XPATH), events.iterrows()):
        raw = el.get("stime") or el.get("time")
        assert float(row["stime"]) == int(raw) / 1000
    session = read(exported, "sessions.csv").set_index("file").loc[MS_LOG]
    root = tree.xpath("//GC_SESSION")[0]
    assert float(session["stime"]) == int(root.get("stime")) / 1000
    assert float(session["duration_s"]) == pytest.approx(34.825)


def test_times_are_plain_decimals_with_millisecond_precision(exported: Path):
    for name, columns in (("events.csv", ["stime", "etime", "duration_s"]), ("turns.csv", ["stime", "etime"])):
        frame = read(exported, name)
        for column in columns:
            for cell in frame[column]:
                assert "e" not in cell.lower()
                assert cell == "" or float(cell) >= 0
    assert seconds_cell(1e-05) == "0.000010" and seconds_cell(1e16) == "10000000000000000.000000"
    assert seconds_cell(941473394.66) == "941473394.66" and seconds_cell(None) == ""


def test_absolute_audio_paths_of_the_recording_machine_resolve_to_the_local_files(corpus: Path, exported: Path):
    turns = read(exported, "turns.csv")
    turns = turns[turns["file"] == MS_LOG]
    folder = (corpus / MS_LOG).parent
    written = list(turns["audio_input_written"]) + list(turns["audio_output_written"])
    assert all(w.startswith("/home/communicator/") for w in written if w)
    found = [cell for cell in list(turns["audio_input"]) + list(turns["audio_output"]) if cell]
    assert len(found) == len(turns)  # one audio file per turn
    for cell in found:
        assert "/" not in cell and (folder / cell).is_file()
    users = turns[turns["speaker"] == "user"]
    assert all(cell.endswith("-user.wav") for cell in users["audio_input"])
    assert all(cell == "" for cell in users["audio_output"])


def test_missing_audio_file_gives_an_empty_cell(corpus: Path, tmp_path: Path):
    (corpus / MS_LOG).parent.joinpath("travel-20261121-002-turn02-user.wav").unlink()
    export_csv([corpus / MS_LOG], tmp_path / "out")
    turns = read(tmp_path / "out", "turns.csv")
    assert turns.loc[1, "audio_input"] == "" and turns.loc[1, "audio_input_written"].endswith("turn02-user.wav")
    assert turns.loc[3, "audio_input"] == "travel-20261121-002-turn04-user.wav"


def test_metric_cells_match_the_metrics_and_missing_ones_are_empty_never_zero(corpus: Path, exported: Path):
    sessions = read(exported, "sessions.csv").set_index("file")
    turns = read(exported, "turns.csv")
    for path in sorted(corpus.rglob("*-hublog.xml")):
        file = path.relative_to(corpus).as_posix()
        doc = LogDocument.load(path)
        metrics = session_metrics(doc.sessions[0])
        row = sessions.loc[file]
        for name in SESSION_METRIC_COLUMNS:
            value = metrics.values[name]
            if value is None:
                assert row[name] == "", (file, name)
            elif isinstance(value, str):
                assert row[name] == value
            else:
                assert float(row[name]) == pytest.approx(value), (file, name)
        assert row["wer"] == row["word_error_rate"]
        log_turns = turns[turns["file"] == file].reset_index()
        assert list(log_turns["speaker"]) == [turn.speaker or "" for turn in doc.sessions[0].turns]
        assert list(log_turns["transcription"]) == [turn.transcription or "" for turn in doc.sessions[0].turns]
        for index, wer in metrics.turn_wer.items():
            assert log_turns.loc[index, "wer"] == ("" if wer is None else repr(wer))
        for index in range(len(log_turns)):
            latency = metrics.turn_response_latency.get(index)
            assert log_turns.loc[index, "response_latency"] == ("" if latency is None else repr(latency))
    # 002 and 003 are not annotated: no transcriptions, no task completion, no WER
    for file in (MS_LOG, "travel-20261121-003/travel-20261121-003-hublog.xml"):
        assert sessions.loc[file, ["task_completion", "wer", "mean_user_words_per_turn"]].tolist() == ["", "", ""]
        assert sessions.loc[file, "n_transcribed"] == "0"
    annotated = sessions.loc["travel-20261121-001/travel-20261121-001-hublog.xml"]
    assert annotated["task_completion"] == "1" and annotated["n_transcribed"] == annotated["n_user_turns"] != "0"
    assert float(annotated["wer"]) > 0


def test_a_log_without_markers_leaves_the_cells_empty(tmp_path: Path):
    bare = (
        '<GC_TURN id="1" stime="1000" etime="1001">'
        '<GC_OPERATION name="op" server="hub" location="l:1" turnid="1" stime="x" etime="1001"/></GC_TURN>'
    )
    path = write_log(tmp_path / "bare.xml", log_text([session("s", [bare], start="abc", end=2000)]))
    export_csv([path], tmp_path / "out")
    row = read(tmp_path / "out", "sessions.csv").iloc[0]
    assert row["stime"] == "" and row["duration_s"] == "" and row["etime"] == "2000.0"
    for name in (
        "wer",
        "recognition_s",
        "synthesis_s",
        "response_latency",
        "task_completion",
        "time_to_completion",
        "error_messages",
        "mean_system_turn_s",
        "parse_success_rate",
    ):
        assert row[name] == "", name
    assert row[["n_turns", "n_user_turns", "n_transcribed"]].tolist() == ["1", "0", "0"]  # counted, truly zero
    turn = read(tmp_path / "out", "turns.csv").iloc[0]
    assert turn["speaker"] == "" and turn["asr_text"] == "" and turn["wer"] == "" and turn["response_latency"] == ""
    event = read(tmp_path / "out", "events.csv").iloc[0]
    assert event["stime"] == "" and event["etime"] == "1001.0" and event["duration_s"] == ""


def test_turn_ids_stay_as_written_and_elements_outside_turns_have_no_turn_id(tmp_path: Path):
    stray = '<GC_EVENT etype="LOCK" name=":lock" turnid="-1" time="999.5"/>'
    turns = [system_turn("-01", 1000, "hello"), user_turn("02", 1002, "hi", turnid="2")]
    path = write_log(tmp_path / "log.xml", log_text([session("s", turns, extra=stray)]))
    export_csv([path], tmp_path / "out")
    assert list(read(tmp_path / "out", "turns.csv")["turn_id"]) == ["-01", "02"]
    events = read(tmp_path / "out", "events.csv")
    assert list(events["turn_id"]) == ["", "-01", "02", "02"]
    assert list(events["turnid"]) == ["-1", "-01", "2", "2"]
    assert events.loc[0, ["element", "type", "stime", "duration_s"]].tolist() == ["GC_EVENT", "LOCK", "999.5", "0.0"]


# --- formula safety and round trips ---------------------------------------------------------------


def test_turn_facts_and_audio_cells_agree_with_the_views(corpus: Path, tmp_path: Path):
    nested = data(
        ":nbest", '<GC_LIST name=":n">' + data(":n0", "boston", 'type="text_input_hypothesis"') + "</GC_LIST>"
    )
    fallback = (
        '<GC_TURN id="3" stime="1004" etime="1005">'
        '<GC_ANNOT turnid="3"><GC_DATA key=":x" type="text_input audio_input">not activity data</GC_DATA>'
        "</GC_ANNOT>"
        + operation(
            "3",
            1004,
            1005,
            "recognize",
            "recognizer",
            "",
            data(":in", " i   want\n to fly ", 'type="text_input"')
            + nested
            + data(":in2", "", 'type="text_input"')
            + data(":wav", "gone.wav", 'type="  audio_input  mime"'),
        )
        + '<GC_MESSAGE name="m" direction="server_to_hub" server="s" location="l:1" turnid="3" time="1004.5">'
        + data(":out", "spoken", 'type="text_output audio_outputs"')
        + "</GC_MESSAGE>"
        + "</GC_TURN>"
    )
    empty = '<GC_TURN id="4" stime="1006" etime="1007"/>'
    extra = write_log(
        tmp_path / "edge.xml",
        log_text([session("s", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yes"), fallback, empty])]),
    )
    paths = sorted(corpus.rglob("*-hublog.xml")) + [extra]
    for path in paths:
        doc = LogDocument.load(path)
        cells = AudioCells(doc.folder)
        for s in doc.sessions:
            walk = SessionPass(s).run()  # the facts the export uses
            for turn, facts in zip(s.turns, walk.facts, strict=True):
                assert facts.asr_text == turn.asr_text
                assert facts.system_text == turn.system_text
                assert facts.n_operations == len(turn.operations)
                assert (facts.n_messages, facts.n_events) == (len(turn.messages), len(turn.events))
                assert (facts.speaker, facts.transcription) == (turn.speaker, turn.transcription)
                for direction, data_el in (("input", facts.audio_input), ("output", facts.audio_output)):
                    written = None if data_el is None else clean_text(data_el.text)
                    ref = cells.resolver.resolve(turn, direction)
                    assert written == (None if ref is None else ref.written)
                    expected = "" if ref is None or ref.path is None else ref.path.relative_to(cells.folder).as_posix()
                    assert cells.cell(written) == expected


# --- errors, progress, atomicity -------------------------------------------------------------------


def test_unreadable_log_raises_and_leaves_previous_files_intact(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    export_csv([corpus], out)
    before = {name: (out / name).read_bytes() for name in ("sessions.csv", "turns.csv", "events.csv", "words.csv")}
    broken = corpus / "zz-broken" / "broken-hublog.xml"
    broken.parent.mkdir()
    broken.write_text("<GC_LOG><GC_SESSION id='x' stime='1' etime='2'>", encoding="utf-8")
    with pytest.raises(LogReadError) as raised:
        export_csv([corpus], out)
    assert "broken-hublog.xml" in str(raised.value) and "\n" not in str(raised.value)
    assert {name: (out / name).read_bytes() for name in before} == before
    assert sorted(p.name for p in out.iterdir()) == ["events.csv", "sessions.csv", "turns.csv", "words.csv"]  # no temp


def test_skip_unreadable_collects_the_errors_and_exports_the_rest(corpus: Path, tmp_path: Path):
    broken = corpus / "broken-hublog.xml"
    broken.write_text("not xml at all", encoding="utf-8")
    seen: list[int] = []

    def progress(items, total=None):
        seen.append(total)
        return items

    summary = export_csv([corpus], tmp_path / "out", progress=progress, skip_unreadable=True)
    assert seen == [4]
    assert [error.path for error in summary.errors] == [str(broken)]
    assert len(summary.logs) == 3 and len(read(tmp_path / "out", "sessions.csv")) == 3
    assert "3 log(s)" in str(summary) and "1 log(s) unreadable" in str(summary)


# --- one pass: the events rows read inside the metrics' pass --------------------------------------

ODD_NESTING = (
    '<GC_EVENT etype="LOCK" name=":stray" turnid="1" time="999.5"/>'  # outside any turn
    '<GC_ANNOT turnid="2"><GC_DATA key=":transcription">hello there</GC_DATA>'
    '<GC_MESSAGE name="in-annot" turnid="2" time="999.7"/></GC_ANNOT><!-- a comment -->'
)


def _odd_log(folder: Path) -> Path:
    nested = (
        '<GC_TURN id="3" stime="1004" etime="1006"><!-- note -->'
        + operation(
            "3",
            1004,
            1005,
            "outer",
            "nl",
            'type_new_turn="user"',
            data(":d", '<GC_OPERATION name="in-data" turnid="3" stime="1004.2" etime="1004.4"/>'),
        )
        + '<GC_ANNOT><GC_EVENT etype="X" name="in-turn-annot" turnid="3" time="1005.5"/></GC_ANNOT>'
        + '<GC_OTHER><GC_MESSAGE name="in-other" turnid="3" time="1005.7"/></GC_OTHER>'
        + "</GC_TURN>"
    )
    turns = [system_turn("1", 1000, "hello"), user_turn("2", 1002, "hi there"), nested]
    return write_log(folder / "odd.xml", log_text([session("s", turns, extra=ODD_NESTING)]))


def test_the_fused_pass_gives_the_rows_and_metrics_of_separate_passes(corpus: Path, tmp_path: Path):
    for path in sorted(corpus.rglob("*-hublog.xml")) + [_odd_log(tmp_path)]:
        doc = LogDocument.load(path)
        for s in doc.sessions:
            plain: list[str] = []
            fused: list[str] = []
            assert event_lines("f", s, plain.append) == len(plain)
            walk = SessionPass(s)
            assert event_lines("f", s, fused.append, walk) == len(fused)
            assert fused == plain
            assert session_metrics(s, walk) == session_metrics(s)
            assert [f.speaker for f in walk.facts] == [t.speaker for t in s.turns]


def test_elements_outside_turns_or_nested_get_rows_in_document_order_but_say_nothing_about_turns(tmp_path: Path):
    path = _odd_log(tmp_path)
    export_csv([path], tmp_path / "out")
    events = read(tmp_path / "out", "events.csv")
    elements = etree.parse(str(path)).xpath(ACTIVITY_XPATH)
    assert list(events["name"]) == [el.get("name") or "" for el in elements]
    assert events.set_index("name").loc[["in-data", "in-turn-annot", "in-other"], "turn_id"].tolist() == ["3"] * 3
    assert events.set_index("name").loc[[":stray", "in-annot"], "turn_id"].tolist() == ["", ""]
    turns = read(tmp_path / "out", "turns.csv")
    assert turns["n_operations"].tolist() == ["1", "2", "1"] and turns["n_events"].tolist() == ["0", "0", "0"]
    assert turns["transcription"].tolist() == ["", "hello there", ""]
    assert turns["speaker"].tolist() == ["system", "user", "user"]


def test_a_session_pass_walks_once_and_whole():
    doc_text = log_text([session("s", [system_turn("1", 1000, "hello"), user_turn("2", 1002, "hi")])])
    with tempfile.TemporaryDirectory() as folder:
        s = LogDocument.load(write_log(Path(folder) / "log.xml", doc_text)).sessions[0]
        walk = SessionPass(s)
        next(iter(walk))
        with pytest.raises(RuntimeError):
            walk.run()  # left half done: its facts are partial
        with pytest.raises(RuntimeError):
            list(walk)
        assert len(SessionPass(s).run().facts) == 2


@given(
    st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=-2e9, max_value=2e9)
    | st.integers(-(10**9), 10**9).map(lambda n: n / 1000)
    | st.sampled_from([0.0, -0.0, 1e-4, 9.99995e-5, 5e-7])
)
def test_duration_cells_are_the_rounded_repr(value: float):
    # duration_cell formats instead of calling round(); the text must be what round gives
    assert duration_cell(value) == seconds_cell(round(value, 6))
