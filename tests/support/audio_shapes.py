"""A log with every shape of turn audio the audio lane must draw, written with real WAV files.

Times are seconds; the session starts at 1000, so a segment's x is the raw time minus 1000.

| turn | side | audio carried by | heard (the segment) | file |
| --- | --- | --- | --- | --- |
| 1 | system | synthesize (0.2-0.7) | play_audio, type_start_utt/type_end_utt (0.8-3.9) | sys1.wav |
| 2 | user | record, no utterance marks (4.5-6.5) | the carrier (4.5-6.5) | user2.wav |
| 3 | system | a filelog GC_MESSAGE (9.8), no marks | the turn (7-10) | sys3.wav |
| 4 | system | a filelog GC_MESSAGE (13.6) | play_audio (start, 10.5) to wait (end, 13.5) | sys4.wav |
| 5 | user | record, marked (14.2-15.8) | 14.2-15.8 | gone.wav: missing |
| 6 | user | record (16.2-17.8) | 16.2-17.8 | a_folder: a folder |
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.repository import SAMPLE_LOGS
from tests.support.xml_builders import data, log_text, operation, session, write_log

SOURCE_WAV = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-turn01-system.wav"
FOUND = ("sys1.wav", "user2.wav", "sys3.wav", "sys4.wav")
# turn id -> (side, start, end, written path, found)
EXPECTED = {
    "1": ("system", 0.8, 3.9, "sys1.wav", True),
    "2": ("user", 4.5, 6.5, "user2.wav", True),
    "3": ("system", 7.0, 10.0, "sys3.wav", True),
    "4": ("system", 10.5, 13.5, "sys4.wav", True),
    "5": ("user", 14.2, 15.8, "gone.wav", False),
    "6": ("user", 16.2, 17.8, "a_folder", False),
}


def _turn(turn_id: str, start: float, end: float, body: str) -> str:
    return f'<GC_TURN id="{turn_id}" stime="{start}" etime="{end}">{body}</GC_TURN>'


def _filelog(turn_id: str, time: float, wav: str) -> str:
    """The standard's example: the audio server logs the synthesised file in a message."""
    return (
        f'<GC_MESSAGE name="filelog" direction="server_to_hub" server="audio" location="localhost:15000" '
        f'turnid="{turn_id}" time="{time}">'
        + data(":synth_log_filename", wav, 'type="audio_output" dtype="string"')
        + "</GC_MESSAGE>"
    )


def _reply(turn_id: str, start: float, text: str) -> str:
    return operation(
        turn_id,
        start,
        start + 0.1,
        "paraphrase_reply",
        "nl",
        'type_new_turn="system"',
        data(":reply_string", text, 'type="text_output" type_utt_text="system"'),
    )


def _record(turn_id: str, start: float, end: float, wav: str, marks: bool) -> str:
    attrs = 'type_new_turn="user"' + (' type_start_utt="user" type_end_utt="user"' if marks else "")
    return operation(
        turn_id,
        start,
        end,
        "record_utterance",
        "audio",
        attrs,
        data(":utterance_file", wav, 'type="audio_input" mime_type="audio/x-wav"'),
    )


def audio_shapes_xml() -> str:
    turns = [
        _turn(
            "1",
            1000.0,
            1004.0,
            _reply("1", 1000.0, "Where to?")
            + operation(
                "1",
                1000.2,
                1000.7,
                "synthesize",
                "synthesizer",
                "",
                data(":synth_filename", "sys1.wav", 'type="audio_output" mime_type="audio/x-wav"'),
            )
            + operation("1", 1000.2, 1000.7, "synthesis_duration", "synthesizer", 'type="synthesis_duration"')
            + operation("1", 1000.8, 1003.9, "play_audio", "audio", 'type_start_utt="system" type_end_utt="system"'),
        ),
        _turn("2", 1004.0, 1007.0, _record("2", 1004.5, 1006.5, "user2.wav", marks=False)),
        _turn("3", 1007.0, 1010.0, _reply("3", 1007.0, "Boston. Right?") + _filelog("3", 1009.8, "sys3.wav")),
        _turn(
            "4",
            1010.0,
            1014.0,
            _reply("4", 1010.0, "When?")
            + operation("4", 1010.5, 1011.0, "play_audio", "audio", 'type_start_utt="system"')
            + operation("4", 1011.0, 1013.5, "wait_for_playback", "audio", 'type_end_utt="system"')
            + _filelog("4", 1013.6, "sys4.wav"),
        ),
        _turn("5", 1014.0, 1016.0, _record("5", 1014.2, 1015.8, "gone.wav", marks=True)),
        _turn("6", 1016.0, 1018.0, _record("6", 1016.2, 1017.8, "a_folder", marks=True)),
    ]
    return log_text([session("audio-shapes", turns, start=1000.0, end=1018.0)])


def write_audio_shapes(folder: Path) -> Path:
    """The log above in FOLDER with its four audio files and the folder named as a file."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in FOUND:
        shutil.copyfile(SOURCE_WAV, folder / name)
    (folder / "a_folder").mkdir(exist_ok=True)
    return write_log(folder / "audio-shapes-hublog.xml", audio_shapes_xml())
