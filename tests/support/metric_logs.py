"""Hand-built logs for the metrics tests: a clock in seconds or milliseconds, and operations, messages,
events, transcriptions and turns written on it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from annotator.log.document import LogDocument
from tests.support.xml_builders import data, log_text, write_log

EPOCH = 930254400.0  # an epoch start, so that the milliseconds form is recognised as milliseconds

Clock = Callable[[float], str]


def seconds_clock(t: float) -> str:
    return f"{EPOCH + t:.3f}"


def millis_clock(t: float) -> str:
    return str(round((EPOCH + t) * 1000))


def op(
    clock: Clock,
    turnid: str,
    start: float,
    end: float,
    name: str = "op",
    server: str = "nl",
    attrs: str = "",
    body: str = "",
) -> str:
    return (
        f'<GC_OPERATION name="{name}" server="{server}" location="l:1" turnid="{turnid}" '
        f'stime="{clock(start)}" etime="{clock(end)}" {attrs}>{body}</GC_OPERATION>'
    )


def message(clock: Clock, turnid: str, at: float, attrs: str = "") -> str:
    return (
        f'<GC_MESSAGE name="note" direction="server_to_hub" server="audio" location="l:1" '
        f'turnid="{turnid}" time="{clock(at)}" {attrs}/>'
    )


def event(clock: Clock, turnid: str, at: float, attrs: str = "") -> str:
    return f'<GC_EVENT etype="LOCK" name=":lock" turnid="{turnid}" time="{clock(at)}" {attrs}/>'


def transcription(turnid: str, text: str) -> str:
    return (
        f'<GC_ANNOT turnid="{turnid}"><GC_DATA type_utt_text="transcription" dtype="string">{text}</GC_DATA></GC_ANNOT>'
    )


def system_said(text: str, attrs: str = "") -> str:
    return data(":reply_string", text, f'type="text_output" type_utt_text="system" {attrs}')


def asr(text: str) -> str:
    return data(":input_string", text, 'type="text_input" type_utt_text="asr"')


def turn(clock: Clock, turn_id: str, start: float, end: float, body: str) -> str:
    return f'<GC_TURN id="{turn_id}" stime="{clock(start)}" etime="{clock(end)}">{body}</GC_TURN>'


def session(
    clock: Clock, turns: list[str], start: float = 0.0, end: float = 30.0, extra: str = "", session_id: str = "s"
) -> str:
    return (
        f'<GC_SESSION id="{session_id}" stime="{clock(start)}" etime="{clock(end)}">'
        f"{extra}{''.join(turns)}</GC_SESSION>"
    )


def load(tmp_path: Path, *sessions: str, name: str = "log.xml") -> LogDocument:
    return LogDocument.load(write_log(tmp_path / name, log_text(list(sessions))))
