"""Every encoding name Python or IANA knows is read (libxml2 knows fewer), kept in the declaration
byte for byte, and written back in that encoding; a name nobody knows is reported as unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from annotator.errors import LogReadError
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import session, system_turn, user_turn

EDIT = "ja, nach Zürich € ✓"


def said(codec: str) -> str:
    """Words with what CODEC can hold of accented Latin, Cyrillic and Japanese letters."""
    return " ".join(word for word in ("Málaga", "Köln", "Москва", "東京", "Zürich") if _encodable(word, codec))


def _encodable(character: str, codec: str) -> bool:
    try:
        character.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def _root(text: str) -> str:
    """The root element as lxml writes it, so that an unedited root comes out as it went in."""
    built = "<GC_LOG>" + session("s", [system_turn("1", 1000, text), user_turn("2", 1002, "ja")]) + "</GC_LOG>"
    return etree.tostring(etree.fromstring(built), encoding="unicode")


def _log(declared: str, codec: str, quote: str = '"') -> bytes:
    text = (
        f"<?xml version={quote}1.0{quote} encoding={quote}{declared}{quote}?>\n"
        f"<!-- {said(codec)} -->\n" + _root(said(codec)) + "\n"
    )
    return text.encode(codec)


CASES = [  # (declared name, the codec the bytes really are in)
    ("latin-1", "latin-1"),
    ("latin1", "latin-1"),
    ("l1", "latin-1"),
    ("iso8859-1", "latin-1"),
    ("ISO_8859-1", "latin-1"),
    ("iso_8859_1", "latin-1"),
    ("latin_1", "latin-1"),
    ("cp819", "latin-1"),
    ("cp1252", "cp1252"),
    ("windows-1252", "cp1252"),
    ("utf8", "utf-8"),
    ("utf_8", "utf-8"),
    ("U8", "utf-8"),
    ("UTF-16LE", "utf-16-le"),
    ("utf-16-le", "utf-16-le"),
    ("UTF-16BE", "utf-16-be"),
    ("UTF-32LE", "utf-32-le"),
    ("cp437", "cp437"),
    ("ibm437", "cp437"),
    ("mac-roman", "mac-roman"),
    ("koi8_r", "koi8-r"),
    ("iso8859_15", "iso8859-15"),
    ("shift-jis", "shift-jis"),
    ("euc_jp", "euc-jp"),
]


@pytest.mark.parametrize("declared, codec", CASES, ids=[declared for declared, _ in CASES])
def test_every_known_name_is_read_and_written_back_in_it(tmp_path: Path, declared: str, codec: str):
    path = tmp_path / "log.xml"
    path.write_bytes(_log(declared, codec))
    original = path.read_bytes()
    doc = LogDocument.load(path)
    assert doc.sessions[0].turns[0].system_text == said(codec)
    assert doc.serialize() == original
    set_transcription(doc.sessions[0].turns[1], EDIT)
    doc.save()
    saved = path.read_bytes()
    declaration = original[: original.index("\n".encode(codec))]
    assert saved.startswith(declaration), "the declaration is kept byte for byte"
    assert EDIT.encode(codec, "xmlcharrefreplace") in saved, "written in the declared encoding"
    again = LogDocument.load(path)
    assert again.sessions[0].turns[1].transcription == EDIT
    assert again.sessions[0].turns[0].system_text == said(codec)


def test_single_quotes_and_an_alias_libxml2_lacks(tmp_path: Path):
    path = tmp_path / "log.xml"
    path.write_bytes(_log("latin-1", "latin-1", quote="'"))
    assert LogDocument.load(path).serialize() == path.read_bytes()


@pytest.mark.parametrize("name", ["klingon", "base64", "rot13", "unicode_escape", "undefined"])
def test_an_unknown_encoding_is_named_as_unknown(tmp_path: Path, name: str):
    path = tmp_path / "log.xml"
    path.write_bytes(_log(name, "latin-1"))
    with pytest.raises(LogReadError) as caught:
        LogDocument.load(path)
    assert f"unknown encoding '{name}' declared at line 1" in str(caught.value)
    assert "do not match" not in str(caught.value)


def test_a_name_holding_a_nul_byte_is_a_one_line_error_not_a_crash(tmp_path: Path):
    """Found by tests/safety/test_fuzz.py: codecs.lookup raises ValueError, not LookupError, on a NUL."""
    path = tmp_path / "log.xml"
    path.write_bytes(_log("utf-8", "latin-1").replace(b'encoding="utf-8"', b'encoding="utf\x008"'))
    with pytest.raises(LogReadError) as caught:
        LogDocument.load(path)
    assert f"{path}:1:" in str(caught.value) and "\n" not in str(caught.value)


def test_bytes_that_do_not_match_an_alias_name_the_offset_line_and_column(tmp_path: Path):
    path = tmp_path / "log.xml"
    data = _log("utf_8", "latin-1")
    path.write_bytes(data)
    with pytest.raises(LogReadError) as caught:
        LogDocument.load(path)
    offset = data.index("á".encode("latin-1"))
    message = str(caught.value)
    assert f"do not match the declared encoding utf_8 at byte offset {offset}" in message
    assert message.startswith(f"{path}:2:"), "line and column of the first bad byte"


def test_a_utf16_log_that_declares_a_single_byte_encoding_is_refused(tmp_path: Path):
    path = tmp_path / "log.xml"
    path.write_bytes(b"\xff\xfe" + _log("ISO-8859-1", "utf-16-le"))
    with pytest.raises(LogReadError, match="do not match the declared encoding ISO-8859-1"):
        LogDocument.load(path)
