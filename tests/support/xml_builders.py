"""Small, valid Communicator logs built in tests (real XML text, written to disk)."""

from __future__ import annotations

from pathlib import Path


def operation(
    turnid: str, stime: float, etime: float, name: str = "op", server: str = "nl", attrs: str = "", body: str = ""
) -> str:
    return (
        f'<GC_OPERATION name="{name}" server="{server}" location="localhost:1100" turnid="{turnid}" '
        f'stime="{stime}" etime="{etime}" {attrs}>{body}</GC_OPERATION>'
    )


def data(key: str, text: str, attrs: str = "") -> str:
    return f'<GC_DATA key="{key}" {attrs}>{text}</GC_DATA>'


def user_turn(turn_id: str, start: float, heard: str, turnid: str | None = None, extra: str = "") -> str:
    turnid = turnid or turn_id
    return (
        f'<GC_TURN id="{turn_id}" stime="{start}" etime="{start + 2}">{extra}'
        + operation(
            turnid,
            start,
            start + 1,
            "record",
            "audio",
            'type_new_turn="user"',
            data(":utterance_file", f"u{turn_id}.wav", 'type="audio_input"'),
        )
        + operation(
            turnid,
            start + 1,
            start + 1.5,
            "recognize",
            "recognizer",
            "",
            data(":input_string", heard, 'type="text_input" type_utt_text="asr"'),
        )
        + "</GC_TURN>"
    )


def system_turn(turn_id: str, start: float, said: str, audio: str | None = None) -> str:
    """A system turn saying SAID; AUDIO names the file its prompt was played from (audio_output)."""
    played = "" if audio is None else data(":audio_file", audio, 'type="audio_output"')
    return (
        f'<GC_TURN id="{turn_id}" stime="{start}" etime="{start + 2}">'
        + operation(
            turn_id,
            start,
            start + 0.5,
            "paraphrase_reply",
            "nl",
            'type_new_turn="system"',
            data(":reply_string", said, 'type="text_output" type_utt_text="system"') + played,
        )
        + "</GC_TURN>"
    )


def session(session_id: str, turns: list[str], start: float = 1000.0, end: float = 2000.0, extra: str = "") -> str:
    return f'<GC_SESSION id="{session_id}" stime="{start}" etime="{end}">{extra}{"".join(turns)}</GC_SESSION>'


def log_text(sessions: list[str], encoding: str = "UTF-8") -> str:
    return f'<?xml version="1.0" encoding="{encoding}"?>\n<GC_LOG>{"".join(sessions)}</GC_LOG>\n'


def write_log(path: Path, text: str, encoding: str = "UTF-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


# A parse that failed (:input_parse_successful 0), as a user turn's extra operation: a sign of doubt.
FAILED_PARSE = operation("2", 1, 2, "parse", "nl", "", data(":input_parse_successful", "0"))
