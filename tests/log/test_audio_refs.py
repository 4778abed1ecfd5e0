"""Audio paths: relative, absolute from the recording machine, hostile."""

from __future__ import annotations

import os
from pathlib import Path

from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument
from tests.support.xml_builders import data, log_text, operation, session, write_log


def _log_with_audio(folder: Path, written: str) -> LogDocument:
    turn = (
        '<GC_TURN id="1" stime="1000" etime="1001">'
        + operation(
            "1",
            1000,
            1001,
            "record",
            "audio",
            'type_new_turn="user"',
            data(":utterance_file", written, 'type="audio_input" mime_type="audio/x-wav"'),
        )
        + "</GC_TURN>"
    )
    return LogDocument.load(write_log(folder / "log.xml", log_text([session("s", [turn])])))


def _resolve(folder: Path, written: str):
    doc = _log_with_audio(folder, written)
    return AudioResolver(folder).resolve(doc.sessions[0].turns[0], "input")


def test_relative_path(tmp_path: Path):
    (tmp_path / "audio").mkdir()
    (tmp_path / "audio" / "u1.wav").write_bytes(b"RIFF")
    ref = _resolve(tmp_path, "audio/u1.wav")
    assert ref.path == (tmp_path / "audio" / "u1.wav").resolve() and ref.problem is None
    assert ref.mime_type == "audio/x-wav"


def test_absolute_path_from_the_recording_machine_is_found_by_name(tmp_path: Path):
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "call-001-u1.wav").write_bytes(b"RIFF")
    ref = _resolve(tmp_path, "/home/communicator/logs/19991101/001/call-001-u1.wav")
    assert ref.path == (tmp_path / "deep" / "call-001-u1.wav").resolve()
    windows = _resolve(tmp_path, r"C:\logs\001\call-001-u1.wav")
    assert windows.path == (tmp_path / "deep" / "call-001-u1.wav").resolve()


def test_missing_file_is_reported_not_raised(tmp_path: Path):
    ref = _resolve(tmp_path, "nowhere.wav")
    assert ref.path is None and "not found" in ref.problem and "nowhere.wav" in ref.problem


def test_paths_out_of_the_folder_devices_and_folders_are_never_used(tmp_path: Path):
    log_folder = tmp_path / "logs"
    log_folder.mkdir()
    (tmp_path / "secret.wav").write_bytes(b"RIFF")
    climbing = _resolve(log_folder, "../secret.wav")
    assert climbing.path is None and "outside the log's folder" in climbing.problem
    assert _resolve(log_folder, "/dev/zero").problem.endswith("not opened")
    (log_folder / "sub").mkdir()
    assert "folder" in _resolve(log_folder, "sub").problem
    os.symlink(tmp_path / "secret.wav", log_folder / "link.wav")
    assert _resolve(log_folder, "link.wav").path is None, "a symlink out of the folder is not followed"


def test_sample_log_with_absolute_paths_finds_its_audio(absolute_audio_log: Path):
    doc = LogDocument.load(absolute_audio_log)
    resolver = AudioResolver(absolute_audio_log.parent)
    refs = [resolver.resolve(t, d) for t in doc.sessions[0].turns for d in ("input", "output")]
    refs = [r for r in refs if r is not None]
    assert refs and all(os.path.isabs(r.written) for r in refs)
    assert all(r.found and r.path.parent == absolute_audio_log.parent.resolve() for r in refs)


def test_refused_paths_are_told_from_missing_ones(tmp_path: Path):
    log_folder = tmp_path / "logs"
    (log_folder / "sub").mkdir(parents=True)
    (tmp_path / "secret.wav").write_bytes(b"RIFF")
    (log_folder / "here.wav").write_bytes(b"RIFF")
    os.symlink(tmp_path / "secret.wav", log_folder / "link.wav")
    resolver = AudioResolver(log_folder)
    refused = {
        "../secret.wav": "climbs out of the log's folder; not opened",  # exists, outside
        "../../../nowhere.wav": "climbs out of the log's folder; not opened",  # does not even exist
        r"..\..\nowhere.wav": "climbs out of the log's folder; not opened",  # a Windows recording machine
        "/dev/zero": "points outside the log's folder; not opened",
        "sub": "is a folder, not a file; not opened",
        "link.wav": "points outside the log's folder; not opened",
        "bad\x00name.wav": "holds a NUL character; not opened",
    }
    for written, words in refused.items():
        located = resolver.locate(written)
        assert located.path is None and located.refused and words in located.problem, written
    for written in ("nowhere.wav", "/home/recorder/gone.wav", ""):
        located = resolver.locate(written)
        assert located.path is None and not located.refused and located.problem, written
    found = resolver.locate("sub/../here.wav")
    assert found.path == (log_folder / "here.wav").resolve() and not found.refused and found.problem is None
    # a climbing path whose file name is beside the log is found by its name, as recorded paths are
    assert resolver.locate("../elsewhere/here.wav").path == (log_folder / "here.wav").resolve()


def test_audio_refs_carry_the_refused_flag(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    assert _resolve(tmp_path, "sub").refused
    missing = _resolve(tmp_path, "nowhere.wav")
    assert not missing.refused and not missing.found


def test_the_not_found_shortcut_changes_no_answer(tmp_path: Path):
    # Unfindable paths are settled by a stat and the set of file names under the folder; every
    # other path goes through the full resolution. Both must give the same verdicts.
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "deep.wav").write_bytes(b"RIFF")
    (tmp_path / "a" / "named-like-a-folder.wav").mkdir()
    resolver = AudioResolver(tmp_path)
    assert resolver.locate("/recorder/deep.wav").path == (tmp_path / "a" / "b" / "deep.wav").resolve()
    assert resolver.locate("deep.wav").path == (tmp_path / "a" / "b" / "deep.wav").resolve()
    folder_named = resolver.locate("/recorder/named-like-a-folder.wav")
    assert folder_named.path is None and "not found" in folder_named.problem and not folder_named.refused
    unknown = resolver.locate("/recorder/unknown.wav")
    assert unknown == (
        None,
        f"audio file not found: /recorder/unknown.wav (also looked for its name under {tmp_path.resolve()})",
        False,
    )
    (tmp_path / "unknown.wav").write_bytes(b"RIFF")  # the names are read once per resolver
    assert AudioResolver(tmp_path).locate("/recorder/unknown.wav").path == (tmp_path / "unknown.wav").resolve()
