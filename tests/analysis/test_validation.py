"""Validation: the DTD (with its quirks told apart), times, turn ids, audio, load notes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from annotator.analysis.validation import Finding, Severity, validate_document, validate_path, worst
from annotator.errors import LogReadError
from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument
from annotator.resources import dtd_path
from tests.support.repository import sample_log_paths
from tests.support.xml_builders import data, log_text, operation, session, write_log

# One element per line, so every check's line can be asserted.
VALID = """<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG>
<GC_SESSION id="travel:001" stime="100.00" etime="120.00">
<GC_TURN id="1" stime="100.00" etime="105.00">
<GC_OPERATION name="paraphrase_reply" server="nl" location="localhost:11000" turnid="1" stime="100.00" etime="100.50" type_new_turn="system">
<GC_DATA key=":reply_string" type="text_output" type_utt_text="system">How can I help you?</GC_DATA>
</GC_OPERATION>
</GC_TURN>
<GC_TURN id="2" stime="105.00" etime="110.00">
<GC_OPERATION name="record" server="audio" location="localhost:15000" turnid="2" stime="105.00" etime="107.00" type_new_turn="user">
<GC_DATA key=":utterance_file" type="audio_input" mime_type="audio/x-wav">u2.wav</GC_DATA>
</GC_OPERATION>
<GC_OPERATION name="recognize" server="recognizer" location="localhost:16000" turnid="2" stime="107.00" etime="108.00">
<GC_DATA key=":input_string" type="text_input" type_utt_text="asr">from boston</GC_DATA>
</GC_OPERATION>
<GC_MESSAGE name="filelog" server="audio" location="localhost:15000" direction="server_to_hub" turnid="2" time="108.50"/>
<GC_EVENT etype="LOCK" name=":hub_get_session_lock" turnid="2" time="109.00"/>
</GC_TURN>
</GC_SESSION>
</GC_LOG>
"""

DTD_CODES = ("dtd", "missing-attribute")


def line_of(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the log")


def edit(old: str, new: str, text: str = VALID) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def write(folder: Path, text: str, name: str = "log.xml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "u2.wav").write_bytes(b"RIFF")
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def findings_of(folder: Path, text: str, **options) -> list[Finding]:
    return validate_document(LogDocument.load(write(folder, text)), **options)


def with_code(findings: list[Finding], code: str) -> list[Finding]:
    return [finding for finding in findings if finding.code == code]


def is_from_dtd(finding: Finding) -> bool:
    return finding.code in DTD_CODES or finding.code.startswith("dtd-quirk")


# --- the API ---------------------------------------------------------------------------------


def test_severities_are_ordered_and_worst_picks_the_highest():
    assert Severity.ERROR > Severity.WARNING > Severity.QUIRK > Severity.INFO
    assert sorted([Severity.QUIRK, Severity.ERROR, Severity.INFO]) == [Severity.INFO, Severity.QUIRK, Severity.ERROR]
    assert worst([]) is None
    found = [Finding("a.xml", 1, Severity.QUIRK, "q"), Finding("a.xml", 2, Severity.WARNING, "w")]
    assert worst(found) is Severity.WARNING


def test_a_finding_prints_as_file_line_severity_message():
    assert (
        str(Finding("logs/a.xml", 12, Severity.ERROR, "it is broken", code="dtd"))
        == "logs/a.xml:12: error: it is broken"
    )
    assert str(Finding("logs/a.xml", None, Severity.WARNING, "a remark")) == "logs/a.xml: warning: a remark"
    assert str(Finding("a.xml", 3, Severity.QUIRK, "q")) == "a.xml:3: quirk: q"


def test_findings_compare_without_their_element():
    from lxml import etree

    one = Finding("a.xml", 1, Severity.INFO, "m", etree.Element("A"), "c")
    other = Finding("a.xml", 1, Severity.INFO, "m", etree.Element("B"), "c")
    assert one == other and hash(one) == hash(other)


# --- the DTD and its quirks ------------------------------------------------------------------------


def test_a_valid_log_gives_only_the_mime_type_quirk(tmp_path: Path):
    findings = findings_of(tmp_path, VALID)
    assert [(f.line, f.severity, f.code) for f in findings] == [
        (line_of(VALID, 'mime_type="audio/x-wav"'), Severity.QUIRK, "dtd-quirk-mime-type")
    ]
    assert findings[0].element.tag == "GC_DATA" and findings[0].element.get("key") == ":utterance_file"
    assert "audio/x-wav" in findings[0].message
    assert worst(findings) is Severity.QUIRK


def test_the_standards_own_examples_are_quirks_not_errors(tmp_path: Path):
    frame = (
        '<GC_DATA key=":rec_scores">\n<GC_FRAME name="scores" type="clause">\n'
        '<GC_DATA key=":nwords" dtype="integer">8</GC_DATA>\n</GC_FRAME>\n</GC_DATA>\n'
    )
    nbest = (
        '<GC_DATA name=":nbest_list">\n<GC_LIST name=":nbest_list">\n'
        '<GC_DATA key=":nbest_list[0]" dtype="string">from boston</GC_DATA>\n</GC_LIST>\n</GC_DATA>\n'
    )
    annot = (
        '<GC_ANNOT turnid="2" tidx="129">\n'
        '<GC_DATA type_utt_text="transcription" dtype="string">from boston</GC_DATA>\n</GC_ANNOT>\n'
    )
    text = edit('<GC_DATA key=":input_string"', frame + nbest + '<GC_DATA key=":input_string"')
    text = edit(
        '<GC_TURN id="2" stime="105.00" etime="110.00">\n',
        '<GC_TURN id="2" stime="105.00" etime="110.00">\n' + annot,
        text,
    )
    findings = findings_of(tmp_path, text)
    assert {f.severity for f in findings} == {Severity.QUIRK}
    got = sorted((f.line, f.code) for f in findings if f.code != "dtd-quirk-mime-type")
    assert got == sorted(
        [
            (line_of(text, '<GC_FRAME name="scores" type="clause">'), "dtd-quirk-frame-type"),
            (line_of(text, '<GC_DATA name=":nbest_list">'), "dtd-quirk-data-name"),  # name not declared
            (line_of(text, '<GC_DATA name=":nbest_list">'), "dtd-quirk-data-name"),  # key missing
            (line_of(text, 'type_utt_text="transcription"'), "dtd-quirk-annot-data-key"),
        ]
    )


def test_nmtoken_on_a_string_attribute_is_a_quirk_on_a_number_an_error(tmp_path: Path):
    text = edit('location="localhost:16000"', 'location="recognizer host/1:16000"')
    text = edit('time="109.00"/>', 'time="109.00" tidx="5/6"/>', text)
    text = edit(
        'type="text_output" type_utt_text',
        'type="text_output" mime_type="text/plain; charset=utf-8" type_utt_text',
        text,
    )
    findings = findings_of(tmp_path, text)
    location = with_code(findings, "dtd-quirk-nmtoken")
    assert [(f.line, f.severity) for f in location] == [(line_of(text, "recognizer host/1"), Severity.QUIRK)]
    assert "a '/' and spaces" in location[0].message
    mime = with_code(findings, "dtd-quirk-mime-type")
    assert [f.line for f in mime] == [line_of(text, "text/plain"), line_of(text, "audio/x-wav")]
    tidx = with_code(findings, "dtd")
    assert [(f.line, f.severity) for f in tidx] == [(line_of(text, 'tidx="5/6"'), Severity.ERROR)]
    assert "tidx '5/6'" in tidx[0].message and "number" in tidx[0].message


def test_a_mime_type_that_is_no_mime_type_is_an_error(tmp_path: Path):
    text = edit('mime_type="audio/x-wav"', 'mime_type="audio@wav"')
    findings = findings_of(tmp_path, text)
    assert [(f.line, f.severity, f.code) for f in findings] == [(line_of(text, "audio@wav"), Severity.ERROR, "dtd")]


def test_dtd_errors_name_what_is_wrong(tmp_path: Path):
    text = edit('<GC_EVENT etype="LOCK"', '<FOO/>\n<GC_EVENT etype="LOCK"')
    text = edit(
        '<GC_TURN id="1" stime="100.00" etime="105.00">\n',
        '<GC_TURN id="1" stime="100.00" etime="105.00">\nstray words\n<GC_ANNOT task_completion="1"/>\n',
        text,
    )
    findings = [f for f in findings_of(tmp_path, text) if f.code == "dtd"]
    by_line = {f.line: f for f in findings}
    assert all(f.severity is Severity.ERROR for f in findings)
    assert "FOO" in by_line[line_of(text, '<GC_TURN id="2"')].message  # content errors are on the parent
    assert "not declared" in by_line[line_of(text, "<FOO/>")].message
    turn_1 = [f for f in findings if f.line == line_of(text, '<GC_TURN id="1"')]
    assert "text 'stray words'" in turn_1[0].message
    annot = by_line[line_of(text, "task_completion")]
    assert "task_completion" in annot.message and "type_task_completion" in annot.message


def test_a_missing_required_attribute_is_reported_once(tmp_path: Path):
    text = edit('server="recognizer" ', "")
    text = edit('<GC_TURN id="1" stime="100.00" ', '<GC_TURN id="1" ', text)
    for options in ({}, {"dtd": False}):
        findings = [f for f in findings_of(tmp_path, text, **options) if f.severity >= Severity.WARNING]
        assert [(f.line, f.code) for f in findings] == [
            (line_of(text, '<GC_TURN id="1"'), "missing-attribute"),
            (line_of(text, 'name="recognize"'), "missing-attribute"),
        ], options
        assert "lacks the required attribute stime" in findings[0].message
        assert "lacks the required attribute server" in findings[1].message


def test_without_the_dtd_no_dtd_findings(tmp_path: Path):
    assert findings_of(tmp_path, VALID, dtd=False) == []


def test_several_complaints_on_one_line_point_at_their_own_elements(tmp_path: Path):
    body = operation(
        "1",
        1000,
        1001,
        "record",
        "audio",
        "",
        data(":a", "u2.wav", 'type="audio_input" mime_type="audio/x-wav"')
        + data(":b", "u2.wav", 'mime_type="audio/basic"'),
    )
    text = log_text([session("s", ['<GC_TURN id="1" stime="1000" etime="1001">' + body + "</GC_TURN>"])])
    path = write_log(tmp_path / "one-line.xml", text)
    (tmp_path / "u2.wav").write_bytes(b"RIFF")
    findings = validate_path(path)
    assert [f.code for f in findings] == ["dtd-quirk-mime-type"] * 2
    assert [f.element.get("key") for f in findings] == [":a", ":b"]


@pytest.mark.skipif(shutil.which("xmllint") is None, reason="xmllint (libxml2-utils) is not installed")
def test_dtd_lines_equal_those_of_xmllint(tmp_path: Path):
    text = edit('server="recognizer" ', "")
    text = edit('<GC_EVENT etype="LOCK"', '<FOO/>\n<GC_EVENT etype="LOCK"', text)
    text = edit('time="108.50"', 'time="108 50" tidx="a/b"', text)
    text = edit(
        "</GC_SESSION>",
        '<GC_OPERATION name="late" server="nl" location="x" turnid="2" stime="1" etime="2"/>\n</GC_SESSION>',
        text,
    )
    text = edit('<GC_DATA key=":reply_string"', '<GC_DATA bogus="1" mime_type="text/plain"', text)
    path = write(tmp_path, text)
    run = subprocess.run(
        ["xmllint", "--noout", "--dtdvalid", str(dtd_path()), str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode != 0
    xmllint_lines = [int(m.group(1)) for m in re.finditer(r"^.*?:(\d+): element \S+: validity error", run.stderr, re.M)]
    ours = [f for f in validate_path(path) if is_from_dtd(f)]
    assert len(xmllint_lines) >= 8
    assert sorted(f.line for f in ours) == sorted(xmllint_lines)


# --- times ---------------------------------------------------------------------------------------


def test_a_time_that_is_no_number_is_an_error(tmp_path: Path):
    text = edit('<GC_TURN id="2" stime="105.00"', '<GC_TURN id="2" stime="soon"')
    text = edit('time="109.00"', 'time="9:05"', text)
    findings = with_code(findings_of(tmp_path, text), "bad-time")
    assert [(f.line, f.severity) for f in findings] == [
        (line_of(text, 'stime="soon"'), Severity.ERROR),
        (line_of(text, 'time="9:05"'), Severity.ERROR),
    ]
    assert findings[0].message == "GC_TURN 2: stime 'soon' is not a number"


def test_a_time_the_dtd_already_rejects_is_not_reported_twice(tmp_path: Path):
    text = edit('time="108.50"', 'time="108 50"')
    findings = [f for f in findings_of(tmp_path, text) if f.line == line_of(text, "108 50")]
    assert [f.code for f in findings] == ["dtd"]
    assert with_code(findings_of(tmp_path, text, dtd=False), "bad-time")


def test_ending_before_starting_is_an_error(tmp_path: Path):
    text = edit('turnid="2" stime="107.00" etime="108.00"', 'turnid="2" stime="107.90" etime="107.40"')
    text = edit('<GC_TURN id="1" stime="100.00" etime="105.00">', '<GC_TURN id="1" stime="100.00" etime="99.00">', text)
    text = edit('etime="120.00"', 'etime="90.00"', text)
    findings = with_code(findings_of(tmp_path, text), "etime-before-stime")
    assert [(f.line, f.severity) for f in findings] == [
        (line_of(text, "<GC_SESSION"), Severity.ERROR),
        (line_of(text, '<GC_TURN id="1"'), Severity.ERROR),
        (line_of(text, 'name="recognize"'), Severity.ERROR),
    ]
    assert (
        findings[2].message
        == "GC_OPERATION 'recognize' (turn 2) ends before it starts: etime 107.40 s < stime 107.90 s"
    )
    assert findings[0].message == "GC_SESSION travel:001 ends before it starts: etime 90.00 s < stime 100.00 s"


def test_activities_outside_their_turn_are_warnings_beyond_a_millisecond(tmp_path: Path):
    text = edit('time="108.50"', 'time="110.50"')
    text = edit('time="109.00"', 'time="110.0005"', text)  # within the tolerance
    text = edit('turnid="2" stime="107.00" etime="108.00"', 'turnid="2" stime="107.00" etime="110.20"', text)
    findings = with_code(findings_of(tmp_path, text), "outside-turn")
    assert [(f.line, f.severity) for f in findings] == [
        (line_of(text, 'name="recognize"'), Severity.WARNING),
        (line_of(text, "<GC_MESSAGE"), Severity.WARNING),
    ]
    assert (
        findings[1].message == "GC_MESSAGE 'filelog' (turn 2) at 110.50 s lies outside its turn (105.00 s to 110.00 s)"
    )


def test_turns_outside_their_session_are_warnings(tmp_path: Path):
    text = edit('<GC_TURN id="1" stime="100.00"', '<GC_TURN id="1" stime="99.00"')
    findings = with_code(findings_of(tmp_path, text), "outside-session")
    assert [(f.line, f.severity) for f in findings] == [(line_of(text, '<GC_TURN id="1"'), Severity.WARNING)]
    assert "GC_SESSION travel:001" in findings[0].message


def test_times_in_milliseconds_are_checked_in_seconds(tmp_path: Path):
    text = VALID
    for seconds in ("100.00", "105.00", "110.00", "120.00", "100.50", "107.00", "108.00", "108.50", "109.00"):
        text = text.replace(f'"{seconds}"', f'"{int(float(seconds) * 1000) + 1_700_000_000_000}"')
    text = edit('"1700000108500"', '"1700000110500"', text)
    findings = with_code(findings_of(tmp_path, text), "outside-turn")
    assert [f.line for f in findings] == [line_of(text, "<GC_MESSAGE")]
    assert "1700000110.50 s" in findings[0].message


# --- turn ids --------------------------------------------------------------------------------------


def test_a_turnid_naming_no_turn_is_a_warning_and_ids_match_numerically(tmp_path: Path):
    text = edit('turnid="2" time="109.00"', 'turnid="7" time="109.00"')
    text = edit('turnid="2" time="108.50"', 'turnid="02" time="108.50"', text)
    text = edit("</GC_SESSION>", '<GC_ANNOT turnid="-1"/>\n</GC_SESSION>', text)
    findings = with_code(findings_of(tmp_path, text), "unknown-turnid")
    assert [(f.line, f.severity) for f in findings] == [
        (line_of(text, 'turnid="7"'), Severity.WARNING),
        (line_of(text, 'turnid="-1"'), Severity.WARNING),
    ]
    assert findings[0].message == "GC_EVENT ':hub_get_session_lock': turnid 7 names no GC_TURN of session travel:001"


def test_a_turn_id_used_twice_is_an_error(tmp_path: Path):
    text = edit('<GC_TURN id="2"', '<GC_TURN id="01"')
    findings = with_code(findings_of(tmp_path, text), "duplicate-turn-id")
    assert [(f.line, f.severity) for f in findings] == [(line_of(text, '<GC_TURN id="01"'), Severity.ERROR)]
    first_line = line_of(text, '<GC_TURN id="1"')
    assert findings[0].message == (
        f"GC_TURN id '01' is already used in session travel:001 by the GC_TURN on line {first_line} (id '1')"
    )


def test_audio_findings_say_what_the_resolver_found(tmp_path: Path):
    # the resolver decides what is refused and why; validation reports its words
    expected = {
        "../../../nonexistent.wav": ("unsafe-audio-path", "climbs out of the log's folder; not opened"),
        "/dev/null": ("unsafe-audio-path", "audio path '/dev/null' points outside the log's folder; not opened"),
        "nowhere.wav": ("missing-audio", "audio file not found: nowhere.wav"),
    }
    for written, (code, words) in expected.items():
        text = edit(">u2.wav<", f">{written}<")
        findings = [f for f in findings_of(tmp_path, text) if "audio" in f.code]
        located = AudioResolver(tmp_path).locate(written)
        assert [f.code for f in findings] == [code] and located.refused == (code == "unsafe-audio-path")
        assert words in findings[0].message and findings[0].message.endswith(located.problem)


# --- audio -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("nowhere.wav", "missing-audio"),
        ("/home/recorder/logs/001/gone.wav", "missing-audio"),
        ("/home/recorder/logs/001/u2.wav", None),  # found by name beside the log
        ("../secret.wav", "unsafe-audio-path"),
        ("../../../nonexistent.wav", "unsafe-audio-path"),
        (r"..\..\nonexistent.wav", "unsafe-audio-path"),
        ("/dev/null", "unsafe-audio-path"),
        ("subfolder", "unsafe-audio-path"),
    ],
)
def test_audio_that_cannot_be_found_or_is_refused(tmp_path: Path, written: str, code: str | None):
    (tmp_path / "secret.wav").write_bytes(b"RIFF")
    (tmp_path / "logs" / "subfolder").mkdir(parents=True)
    text = edit(">u2.wav<", f">{written}<")
    findings = [f for f in findings_of(tmp_path / "logs", text) if "audio" in f.code]
    expected = {"missing-audio": Severity.WARNING, "unsafe-audio-path": Severity.ERROR}
    if code is None:
        assert findings == []
    else:
        assert [(f.line, f.severity, f.code) for f in findings] == [
            (line_of(text, ":utterance_file"), expected[code], code)
        ]
        assert findings[0].message.startswith("GC_TURN 2 input audio: ")
    assert not [f for f in findings_of(tmp_path / "logs", text, audio=False) if "audio" in f.code]


# --- load notes, errors, files ---------------------------------------------------------------------


def test_load_notes_are_warnings_without_a_line(tmp_path: Path):
    text = VALID.replace("<GC_LOG>\n", "").replace("</GC_LOG>\n", "")
    findings = findings_of(tmp_path, text)
    notes = with_code(findings, "load-note")
    assert [(f.line, f.severity) for f in notes] == [(None, Severity.WARNING)]
    assert findings[0] is notes[0], "file-wide findings come first"
    assert str(notes[0]).startswith(f"{tmp_path / 'log.xml'}: warning: the root element is GC_SESSION")


def test_validate_path_lets_read_errors_through(tmp_path: Path):
    broken = tmp_path / "broken.xml"
    broken.write_text("<GC_LOG><GC_SESSION>\n</GC_LOG>\n", encoding="utf-8")
    with pytest.raises(LogReadError):
        validate_path(broken)


def test_findings_are_sorted_single_lines_with_their_elements(tmp_path: Path):
    text = edit('time="108.50"', 'time="110.50"')
    text = edit('<GC_TURN id="2"', '<GC_TURN id="1"', text)
    text = edit('turnid="2" time="109.00"', 'turnid="7" time="109.00"', text)
    text = edit(">u2.wav<", ">nowhere.wav<", text)
    text = edit("</GC_OPERATION>\n</GC_TURN>", "</GC_OPERATION>\nsome\n  stray\ttext\n</GC_TURN>", text)
    findings = findings_of(tmp_path, text)
    assert len(findings) >= 5
    assert [f.line for f in findings] == sorted(f.line for f in findings)
    for finding in findings:
        assert "\n" not in str(finding) and "\t" not in str(finding)
        assert finding.element is not None and finding.element.sourceline == finding.line


@pytest.mark.parametrize("path", sample_log_paths(), ids=lambda p: p.parent.name)
def test_the_sample_logs_have_only_quirks(path: Path):
    findings = validate_path(path)
    assert worst(findings) in (Severity.QUIRK, None), [str(f) for f in findings if f.severity > Severity.QUIRK]
    assert all(f.code.startswith("dtd-quirk") for f in findings)
