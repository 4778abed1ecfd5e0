"""Small Communicator logs for marker tests, written as real XML files.

    text = log(session(turn(op("greet", new_turn="system")), turn(op("parse", concept("help"), new_turn="user"))))
    path = write(tmp_path, "sender", text)

Elements get no times unless given (the markers do not need them).
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr


def _attrs(**attributes: object) -> str:
    return "".join(f" {name}={quoteattr(str(value))}" for name, value in attributes.items() if value is not None)


def data(
    key: str,
    text: str = "",
    type: str | None = None,
    utt: str | None = None,
    error: bool = False,
    help: bool = False,
    body: str = "",
) -> str:
    attrs = _attrs(
        key=key,
        type=type,
        type_utt_text=utt,
        type_error_msg="true" if error else None,
        type_help_msg="true" if help else None,
    )
    return f"<GC_DATA{attrs}>{_escape(text)}{body}</GC_DATA>"


def frame(name: str, *children: str) -> str:
    return f'<GC_FRAME name="{name}">{"".join(children)}</GC_FRAME>'


def concept(frame_name: str, *slots: str) -> str:
    """A parse result: GC_DATA type="concept" whose first GC_FRAME is FRAME_NAME."""
    return data(":parse_frame", type="concept", body=frame(frame_name, *slots))


def asr(text: str) -> str:
    return data(":input_string", text, type="text_input", utt="asr")


def system_text(text: str, error: bool = False, help: bool = False) -> str:
    return data(":reply_string", text, type="text_output", utt="system", error=error, help=help)


def op(
    name: str,
    *children: str,
    server: str = "nl",
    new_turn: str | None = None,
    prompt: str | None = None,
    stime: float | None = None,
    etime: float | None = None,
    **extra: str,
) -> str:
    attrs = _attrs(
        name=name,
        server=server,
        location="localhost:1",
        turnid="1",
        stime=stime,
        etime=etime,
        type_new_turn=new_turn,
        type_prompt=prompt,
        **extra,
    )
    return f"<GC_OPERATION{attrs}>{''.join(children)}</GC_OPERATION>"


def msg(
    name: str,
    *children: str,
    server: str = "hub",
    new_turn: str | None = None,
    time: float | None = None,
    prompt: str | None = None,
) -> str:
    attrs = _attrs(
        name=name,
        direction="server_to_hub",
        server=server,
        location="localhost:1",
        turnid="1",
        time=time,
        type_new_turn=new_turn,
        type_prompt=prompt,
    )
    return f"<GC_MESSAGE{attrs}>{''.join(children)}</GC_MESSAGE>"


def event(
    etype: str,
    name: str = ":hub_event",
    server: str | None = "hub",
    time: float | None = None,
    new_turn: str | None = None,
) -> str:
    attrs = _attrs(etype=etype, name=name, server=server, turnid="1", time=time, type_new_turn=new_turn)
    return f"<GC_EVENT{attrs}/>"


def annot(*children: str, task_completion: str | None = None) -> str:
    return f"<GC_ANNOT{_attrs(type_task_completion=task_completion)}>{''.join(children)}</GC_ANNOT>"


def transcription(text: str) -> str:
    return annot(data(":transcription", text, utt="transcription"))


def turn(*elements: str, id: str = "1", stime: float | None = None) -> str:
    return f"<GC_TURN{_attrs(id=id, stime=stime)}>{''.join(elements)}</GC_TURN>"


def session(*children: str, id: str = "s", stime: float | None = None) -> str:
    return f"<GC_SESSION{_attrs(id=id, stime=stime)}>{''.join(children)}</GC_SESSION>"


def log(*sessions: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG>{"".join(sessions)}</GC_LOG>\n'


def write(folder: Path, sender: str, text: str) -> Path:
    path = folder / f"{sender}.xml"
    path.write_text(text, encoding="utf-8")
    return path


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
