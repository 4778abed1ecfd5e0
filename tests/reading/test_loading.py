"""Secure loading: hostile and broken inputs are refused with one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.errors import LogReadError, UnsafeLogError
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE GC_LOG [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<GC_LOG><GC_SESSION id="a" stime="1" etime="2">&lol9;</GC_SESSION></GC_LOG>
"""

XXE_FILE = """<?xml version="1.0"?>
<!DOCTYPE GC_LOG [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<GC_LOG><GC_SESSION id="a" stime="1" etime="2">&secret;</GC_SESSION></GC_LOG>
"""

XXE_HTTP = """<?xml version="1.0"?>
<!DOCTYPE GC_LOG [<!ENTITY remote SYSTEM "http://127.0.0.1:9/x">]>
<GC_LOG><GC_SESSION id="a" stime="1" etime="2">&remote;</GC_SESSION></GC_LOG>
"""

QUADRATIC = (
    '<?xml version="1.0"?>\n<!DOCTYPE GC_LOG [<!ENTITY big "'
    + "x" * 50_000
    + '">]>\n<GC_LOG>'
    + "&big;" * 20_000
    + "</GC_LOG>\n"
)


@pytest.mark.parametrize(
    "text, words",
    [
        (BILLION_LAUGHS, "entit"),
        (XXE_FILE, "entit"),
        (XXE_HTTP, "entit"),
        (QUADRATIC, "entit"),
    ],
    ids=["billion-laughs", "xxe-file", "xxe-http", "quadratic-blowup"],
)
def test_hostile_inputs_are_refused_in_one_line(tmp_path: Path, text: str, words: str):
    path = write_log(tmp_path / "hostile.xml", text)
    with pytest.raises(UnsafeLogError) as caught:
        LogDocument.load(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert "refused" in message and words in message
    assert "\n" not in message
    assert "root:" not in message  # the file's content was never read into the message


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"", "is empty"),
        (b"   \n", "only whitespace"),
        (b"\x00\x01\x02\xff\xfe junk", "not well-formed XML"),
        (b'<?xml version="1.0"?>\n<GC_LOG>\n<GC_SESSION id="a"\n stime="1" etime="2">', ":4:"),
        (b"<html><body/></html>", "not a Communicator log: the root element is <html>"),
    ],
    ids=["empty", "whitespace", "binary", "truncated", "not-gc-log"],
)
def test_broken_inputs_name_the_file_and_place(tmp_path: Path, content: bytes, expected: str):
    path = tmp_path / "broken.xml"
    path.write_bytes(content)
    with pytest.raises(LogReadError) as caught:
        LogDocument.load(path)
    assert expected in str(caught.value)
    assert str(caught.value).startswith(str(path))


def test_latin1_bytes_declared_utf8_name_the_byte_offset(tmp_path: Path):
    text = log_text([session("s", [system_turn("1", 1000, "Welcome to Zürich")])])
    data = text.encode("latin-1")
    path = tmp_path / "mislabelled.xml"
    path.write_bytes(data)
    with pytest.raises(LogReadError) as caught:
        LogDocument.load(path)
    offset = data.index("ü".encode("latin-1"))
    assert f"byte offset {offset}" in str(caught.value)
    assert "UTF-8" in str(caught.value)


def test_missing_file_and_folder(tmp_path: Path):
    with pytest.raises(LogReadError, match="No such file"):
        LogDocument.load(tmp_path / "nothing.xml")
    with pytest.raises(LogReadError, match="is a folder"):
        LogDocument.load(tmp_path)


def test_session_root_is_accepted_with_a_note(tmp_path: Path):
    path = write_log(
        tmp_path / "bare.xml",
        '<?xml version="1.0"?>\n' + session("s", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yes")]) + "\n",
    )
    doc = LogDocument.load(path)
    assert [s.id for s in doc.sessions] == ["s"]
    assert len(doc.sessions[0].turns) == 2
    assert any("GC_SESSION" in note for note in doc.notes)


@pytest.mark.parametrize("encoding", ["UTF-8", "ISO-8859-1", "UTF-16", "windows-1252"])
def test_any_declared_encoding_is_read(tmp_path: Path, encoding: str):
    text = log_text([session("s", [system_turn("1", 1000, "Málaga, Köln, Genève")])], encoding)
    path = write_log(tmp_path / "enc.xml", text, encoding)
    doc = LogDocument.load(path)
    assert doc.sessions[0].turns[0].system_text == "Málaga, Köln, Genève"
    assert doc.encoding.upper() == encoding.upper()
    assert doc.serialize() == path.read_bytes()
    assert LogDocument.load(_resaved(doc, path)).sessions[0].turns[0].system_text == "Málaga, Köln, Genève"


def _resaved(doc: LogDocument, path: Path) -> Path:
    return doc.save(path.with_name("resaved.xml"))
