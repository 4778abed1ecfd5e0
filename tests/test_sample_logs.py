"""The bundled sample_logs/ are what packaging/make_sample_logs.py says they are.

Checked straight on the files with lxml and soundfile (not through annotator),
so a bug in the library cannot hide a broken sample.
"""

from __future__ import annotations

import importlib.util
import posixpath
import sys
from pathlib import Path

import pytest
import soundfile
from lxml import etree

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_logs"
DTD = Path(__file__).parents[1] / "resources" / "gc_log.dtd"
GENERATOR = REPO / "packaging" / "make_sample_logs.py"

# session folder -> (turns, encoding, times in milliseconds, padded GC_TURN ids, annotated)
EXPECTED = {
    "travel-20261121-001": (12, "UTF-8", False, False, True),
    "travel-20261121-002": (10, "UTF-8", True, True, False),
    "travel-20261121-003": (14, "ISO-8859-1", False, False, False),
}
ACTIVITIES = ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")


def log_path(name: str) -> Path:
    return SAMPLES / name / f"{name}-hublog.xml"


def load(name: str) -> etree._ElementTree:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.parse(str(log_path(name)), parser)


def times(element: etree._Element, milliseconds: bool) -> tuple[float, float]:
    if element.get("time") is not None:
        start = end = element.get("time")
    else:
        start, end = element.get("stime"), element.get("etime")
    for value in (start, end):
        assert value is not None and (value.isdigit() if milliseconds else "." in value), (element.tag, value)
    scale = 1000 if milliseconds else 1
    return float(start) / scale, float(end) / scale


def speaker(turn: etree._Element) -> str | None:
    sides = {child.get("type_new_turn") for child in turn.iterchildren(*ACTIVITIES)} - {None}
    assert len(sides) <= 1
    return sides.pop() if sides else None


@pytest.mark.parametrize("name", EXPECTED)
def test_well_formed_with_the_declared_encoding(name: str):
    _turns, encoding, *_ = EXPECTED[name]
    raw = log_path(name).read_bytes()
    assert raw.startswith(b'<?xml version="1.0" encoding="' + encoding.encode() + b'"?>\n<!-- Sample Communicator')
    assert b"<!DOCTYPE" not in raw
    tree = load(name)
    assert tree.docinfo.encoding == encoding
    assert tree.getroot().tag == "GC_LOG" and tree.getroot().get("logfile_version") == "11"
    if encoding == "ISO-8859-1":
        text = raw.decode("latin-1")
        for city in ("Zürich", "São Paulo", "Málaga", "Köln", "Genève"):
            assert city in text
        with pytest.raises(UnicodeDecodeError):
            raw.decode("utf-8")  # really Latin-1 bytes, not UTF-8 mislabelled
    else:
        raw.decode("utf-8")


@pytest.mark.skipif(not DTD.is_file(), reason="resources/gc_log.dtd is not there")
@pytest.mark.parametrize("name", EXPECTED)
def test_valid_against_the_dtd_but_for_the_mime_type_quirk(name: str):
    dtd = etree.DTD(str(DTD))
    tree = load(name)
    dtd.validate(tree)
    errors = [e.message for e in dtd.error_log]
    # The standard's DTD declares mime_type as an NMTOKEN, which cannot hold the "/" of audio/x-wav.
    quirks = [m for m in errors if "mime_type" in m]
    assert [m for m in errors if "mime_type" not in m] == []
    assert len(quirks) == len(tree.findall(".//GC_DATA[@mime_type]")) == EXPECTED[name][0]


@pytest.mark.parametrize("name", EXPECTED)
def test_every_audio_file_is_there_as_8khz_mono_16bit_wav(name: str):
    _turns, _encoding, milliseconds, *_ = EXPECTED[name]
    folder = SAMPLES / name
    tree = load(name)
    referenced = set()
    for data in tree.iter("GC_DATA"):
        if data.get("type") not in ("audio_input", "audio_output") and data.get("key") != ":synth_log_filename":
            continue
        written = data.text
        if milliseconds:  # session 2 keeps the recording machine's absolute paths
            assert posixpath.isabs(written) and not Path(written).exists()
        else:
            assert written == posixpath.basename(written), "relative to the log"
        path = folder / posixpath.basename(written)
        referenced.add(path.name)
        info = soundfile.info(str(path))
        assert (info.format, info.subtype, info.samplerate, info.channels) == ("WAV", "PCM_16", 8000, 1), path.name
    assert referenced == {p.name for p in folder.glob("*.wav")}, "every WAV is referenced, every reference exists"
    # the record and play operations last exactly as long as their audio
    for operation in tree.iter("GC_OPERATION"):
        if operation.get("name") in ("record_utterance", "play_audio"):
            turn = operation.getparent()
            side = "user" if operation.get("name") == "record_utterance" else "system"
            wav = folder / f"{name}-turn{int(turn.get('id')):02d}-{side}.wav"
            start, end = times(operation, milliseconds)
            assert end - start == pytest.approx(soundfile.info(str(wav)).duration, abs=0.0011)


@pytest.mark.parametrize("name", EXPECTED)
def test_turns_alternate_and_times_nest(name: str):
    count, _encoding, milliseconds, padded, annotated = EXPECTED[name]
    session = load(name).getroot().find("GC_SESSION")
    turns = session.findall("GC_TURN")
    assert len(turns) == count
    assert [speaker(t) for t in turns] == ["system", "user"] * (count // 2)
    assert [t.get("id") for t in turns] == [f"{i:02d}" if padded else str(i) for i in range(1, count + 1)]
    session_start, session_end = times(session, milliseconds)
    previous_end = session_start
    tidx = []
    for turn in turns:
        start, end = times(turn, milliseconds)
        assert previous_end <= start < end <= session_end
        previous_end = end
        for child in turn:
            if not isinstance(child.tag, str):
                continue
            assert int(child.get("turnid")) == int(turn.get("id"))
            assert child.get("turnid") == str(int(turn.get("id"))), "turnid written unpadded"
            if child.tag == "GC_ANNOT":
                continue
            child_start, child_end = times(child, milliseconds)
            assert start <= child_start <= child_end <= end, (turn.get("id"), child.get("name"))
            tidx.append(int(child.get("tidx")))
    assert tidx == sorted(set(tidx)), "tidx increases through the session"
    starts = session.findall(".//*[@type_start_task]")
    assert [e.get("type_start_task") for e in starts] == ["total"]
    assert starts[0].getparent() is turns[0]
    if annotated:
        assert session[0].tag == "GC_ANNOT" and session[0].get("type_task_completion") == "1"
        for turn in turns[1::2]:
            annotation = turn[0]
            assert annotation.tag == "GC_ANNOT" and annotation.get("turnid") == turn.get("id")
            assert annotation.find("GC_DATA[@type_utt_text='transcription']").text.strip()
    else:
        assert session.find(".//GC_ANNOT") is None


def test_the_annotated_session_has_recognition_errors():
    session = load("travel-20261121-001").getroot().find("GC_SESSION")
    pairs = [
        (turn.find("GC_ANNOT/GC_DATA").text, turn.find(".//GC_DATA[@type_utt_text='asr']").text)
        for turn in session.findall("GC_TURN")[1::2]
    ]
    assert sum(truth != heard for truth, heard in pairs) == 2
    assert any("[noise]" in truth for truth, _ in pairs)


def test_the_logs_are_what_the_generator_makes_from_the_audio():
    """The logs match the script and the WAV files beside them (rerun the script after changing either)."""
    spec = importlib.util.spec_from_file_location("make_sample_logs", GENERATOR)
    generator = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = generator  # dataclasses look their module up while the script runs
    try:
        spec.loader.exec_module(generator)
    finally:
        del sys.modules[spec.name]
    for session in generator.SESSIONS:
        folder = SAMPLES / session.name
        expected = generator.build_log(session, generator.read_durations(session, folder))
        assert (folder / generator.log_name(session)).read_bytes() == expected, session.name


def test_sample_logs_stay_small():
    total = sum(p.stat().st_size for p in SAMPLES.rglob("*") if p.is_file())
    assert total < 3 * 1024 * 1024
