"""Every byte outside the root element is kept exactly: load and save with no edit is byte-identical,
and an edit changes the root element only (docs/reading-logs.md: losslessly).

Each case is built from three parts, the bytes before the root, the root element as lxml writes it
(the part an edit rewrites), and the bytes after it, so the test knows where each part lies.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import session, system_turn, user_turn

# As lxml writes it, so that the unedited root comes out as it went in.
ROOT = etree.tostring(
    etree.fromstring(
        "<GC_LOG>" + session("s", [system_turn("1", 1000, "Málaga?"), user_turn("2", 1002, "köln")]) + "</GC_LOG>"
    ),
    encoding="unicode",
)
BOMS = {
    "utf-8": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
    "utf-32-le": codecs.BOM_UTF32_LE,
    "utf-32-be": codecs.BOM_UTF32_BE,
}


def _write(folder: Path, before: bytes, root: bytes, after: bytes, name: str = "log.xml") -> Path:
    path = folder / name
    path.write_bytes(before + root + after)
    return path


def _check_kept(path: Path, before: bytes, after: bytes) -> None:
    """Unedited: byte-identical. Edited: the same bytes before and after the root, a new root between."""
    original = path.read_bytes()
    doc = LogDocument.load(path)
    assert doc.serialize() == original
    set_transcription(doc.sessions[0].turns[1], "to köln € <now> & later")
    edited = doc.serialize()
    assert edited.startswith(before) and edited.endswith(after)
    assert edited != original
    doc.save()
    reloaded = LogDocument.load(path)
    assert reloaded.sessions[0].turns[1].transcription == "to köln € <now> & later"
    assert reloaded.serialize() == path.read_bytes()


NAMED_CASES = {
    "bom-without-declaration": (codecs.BOM_UTF8, "\n"),
    "bom-before-declaration": (codecs.BOM_UTF8 + b'<?xml version="1.0" encoding="UTF-8"?>\n', "\n"),
    "prolog-over-4-kb": (b'<?xml version="1.0"?>\n<!--' + b" long prolog " * 400 + b"-->\n", "\n"),
    "prolog-over-one-chunk": (b'<?xml version="1.0"?>\n<!--' + b"x" * (3 << 20) + b"-->\n\n", "\n"),
    "trailing-comment-newline": (b'<?xml version="1.0"?>\n', "\n<!-- the end -->\n"),
    "trailing-comment-crlf": (b'<?xml version="1.0"?>\r\n', "\r\n<!-- the\r\nend -->\r\n\r\n"),
    "epilogue-over-4-kb": (b"<?xml version='1.0'?>", "\n" + "<?pi " + "after " * 1000 + "?>\n"),
    "epilogue-over-one-chunk": (b"", "\n<!--" + "y" * (3 << 20) + "-->\n"),
    "epilogue-that-names-the-root": (b"", "\n<!-- </GC_LOG> -->\n<?x </GC_LOG><?y?>\n"),
    "whitespace-inside-the-doctype": (b'<?xml version="1.0"?>\n<!DOCTYPE   GC_LOG \n\t >\n', ""),
    "doctype-internal-subset": (
        b'<?xml version="1.0"?>\n<!DOCTYPE GC_LOG [\n <!ELEMENT GC_LOG ANY>\n'
        b' <!-- ]> -->\n <!ATTLIST GC_LOG a CDATA "]>">\n]  >\n',
        "\n",
    ),
    "no-trailing-newline": (b'<?xml version="1.0" standalone="yes" ?>', ""),
    "doctype-literal-holding-markup": (b'<?xml version="1.0"?>\n<!DOCTYPE GC_LOG  SYSTEM "odd>name[.dtd"\t>\n', "\n"),
    "trailing-comment-after-a-long-prolog": (b"<!--" + b"p" * 5000 + b"-->\n", "\n<!-- c -->\n"),
}


@pytest.mark.parametrize("name", list(NAMED_CASES))
def test_named_cases_keep_their_bytes(tmp_path: Path, name: str):
    before, after_text = NAMED_CASES[name]
    after = after_text.encode("utf-8")
    _check_kept(_write(tmp_path, before, ROOT.encode("utf-8"), after), before, after)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("bom", [True, False], ids=["bom", "no-bom"])
@pytest.mark.parametrize("quote", ['"', "'"])
def test_utf16_and_utf32_keep_declaration_bom_and_everything(tmp_path: Path, codec: str, bom: bool, quote: str):
    declared = {"utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32-le": "UTF-32", "utf-32-be": "UTF-32"}[codec]
    if not bom:
        declared = codec.upper().replace("-LE", "LE").replace("-BE", "BE")  # UTF-16LE: no BOM needed
    declaration = f"<?xml version={quote}1.0{quote} encoding={quote}{declared}{quote}?>"
    before = (BOMS[codec] if bom else b"") + (declaration + "\n<!-- vor der Wurzel: ü 😀 -->\n").encode(codec)
    after = "\n<!-- nach der Wurzel -->\n".encode(codec)
    path = _write(tmp_path, before, ROOT.encode(codec), after)
    assert LogDocument.load(path).sessions[0].turns[0].system_text == "Málaga?"
    _check_kept(path, before, after)


# --- generated prologs and epilogues -------------------------------------------------------------------

_text = st.text(
    st.characters(codec="latin-1", exclude_categories=("Cs", "Cc")) | st.sampled_from("\n\t]>?<-'\"€"), max_size=30
)
_comment = _text.filter(lambda s: "--" not in s and not s.endswith("-")).map(lambda s: f"<!--{s}-->")
_pi = st.tuples(st.sampled_from(["pi", "hub-log", "x.y"]), _text.filter(lambda s: "?>" not in s)).map(
    lambda t: f"<?{t[0]} {t[1]}?>"
)
_space = st.lists(st.sampled_from([" ", "\n", "\t", "\r\n"]), max_size=4).map("".join)
_misc = st.lists(st.tuples(_space, _comment | _pi), max_size=4).map(lambda items: "".join(a + b for a, b in items))
_literal = st.sampled_from(['"gc_log.dtd"', "'gc_log.dtd'", '"http://127.0.0.1:9/x.dtd"'])
_external = st.sampled_from(["", " SYSTEM {}", " PUBLIC '-//X//Y//EN' {}", '\n PUBLIC "p"\t{}'])
_declarations = st.lists(
    st.sampled_from(
        [
            "<!ELEMENT GC_LOG ANY>",
            '<!ATTLIST GC_LOG a CDATA "]>">',
            "<!-- <!ENTITY no 'x'> -->",
            "<?pi ]>?>",
            "<!NOTATION n SYSTEM 'n'>",
        ]
    ),
    max_size=3,
    unique=True,
).map("\n".join)


@st.composite
def _doctype(draw) -> str:
    if not draw(st.booleans()):
        return ""
    external = draw(_external).format(draw(_literal))
    subset = f" [{draw(_declarations)}]" if draw(st.booleans()) else ""
    return f"<!DOCTYPE{draw(st.sampled_from([' ', '  ', chr(10)]))}GC_LOG{external}{subset}{draw(_space)}>"


@st.composite
def _outside(draw) -> tuple[str, bytes, bytes]:
    encoding = draw(st.sampled_from(["utf-8", "latin-1", "utf-16-le", "utf-16-be"]))
    quote = draw(st.sampled_from(['"', "'"]))
    declared = {"utf-8": "UTF-8", "latin-1": "ISO-8859-1", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}[encoding]
    declaration = f"<?xml version={quote}1.0{quote} encoding={quote}{declared}{quote}{draw(_space)}?>"
    if encoding == "utf-8" and not draw(st.booleans()):
        declaration = ""
    bom = BOMS.get(encoding, b"") if draw(st.booleans()) or encoding.startswith("utf-16") else b""
    text_before = declaration + draw(_misc) + draw(_doctype()) + draw(_misc) + draw(_space)
    text_after = draw(_misc) + draw(_space)
    encode = (
        (lambda s: s.encode(encoding, "xmlcharrefreplace")) if encoding == "latin-1" else (lambda s: s.encode(encoding))
    )
    return (
        encoding,
        bom + encode(text_before.replace("€", "E") if encoding == "latin-1" else text_before),
        encode(text_after.replace("€", "E") if encoding == "latin-1" else text_after),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_outside())
@pytest.mark.slow
def test_generated_prologs_and_epilogues_round_trip(tmp_path: Path, case):
    encoding, before, after = case
    path = _write(tmp_path, before, ROOT.encode(encoding), after)
    _check_kept(path, before, after)
