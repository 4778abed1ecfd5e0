"""A DOCTYPE naming an external DTD opens, is never followed, is kept byte for byte, and the log is
validated against the shipped DTD; entity declarations stay refused; an internal subset changes
nothing that is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.validation import validate_document
from annotator.errors import UnsafeLogError
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from tests.support.doctype_logs import BODY, ConnectionCounter, doctype_log, poisoned_dtd

PUBLIC_ID = "-//DARPA//DTD Communicator Log Standard 11//EN"


def _doctypes(folder: Path, counter: ConnectionCounter) -> dict[str, str]:
    poisoned = poisoned_dtd(folder, counter)
    return {
        "system-relative": '<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd">',
        "public": f'<!DOCTYPE GC_LOG PUBLIC "{PUBLIC_ID}" "gc_log.dtd">',
        "absolute-path": f'<!DOCTYPE GC_LOG SYSTEM "{poisoned}">',
        "file-url": f'<!DOCTYPE GC_LOG SYSTEM "file://{poisoned}">',
        "http-url": f'<!DOCTYPE GC_LOG SYSTEM "{counter.url}">',
        "spacing-and-quotes": f"<!DOCTYPE  GC_LOG\n   PUBLIC\t'{PUBLIC_ID}'\n\t'gc_log.dtd'  >",
    }


@pytest.mark.parametrize(
    "kind", ["system-relative", "public", "absolute-path", "file-url", "http-url", "spacing-and-quotes"]
)
def test_an_external_dtd_is_named_never_read_and_kept(tmp_path: Path, kind: str):
    with ConnectionCounter() as counter:
        doctype = _doctypes(tmp_path, counter)[kind]
        path = tmp_path / "log.xml"
        path.write_text(doctype_log(doctype), encoding="utf-8")
        original = path.read_bytes()
        doc = LogDocument.load(path)
        assert doc.serialize() == original, "unedited: byte-identical"
        set_transcription(doc.sessions[0].turns[1], "to boston")
        saved = doc.save().read_bytes()
        assert saved.startswith(original[: original.index(b"<GC_LOG>")]), "the DOCTYPE is kept byte for byte"
        assert LogDocument.load(path).sessions[0].turns[1].transcription == "to boston"
        validate_document(LogDocument.load(path))
        assert counter.connections == 0, "nothing fetched the named DTD"
        counter.probe()
    assert counter.connections == 1, "the counter does count connections"


def test_validation_uses_the_shipped_dtd_whatever_the_doctype_names(tmp_path: Path):
    plain = tmp_path / "plain.xml"
    named = tmp_path / "named.xml"
    broken_body = BODY.replace("<GC_TURN ", "<NOT_IN_THE_DTD/><GC_TURN ", 1)
    plain.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n\n{broken_body}', encoding="utf-8")
    named.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd">\n{broken_body}',
        encoding="utf-8",
    )
    (tmp_path / "gc_log.dtd").write_text("<!ELEMENT GC_LOG ANY>\n<!ELEMENT NOT_IN_THE_DTD EMPTY>\n")

    def messages(path: Path) -> list[tuple[int | None, str]]:
        return [
            (finding.line, finding.message)
            for finding in validate_document(LogDocument.load(path))
            if finding.code != "named-dtd"
        ]

    assert messages(named) == messages(plain)
    assert any(f.code == "named-dtd" and "gc_log.dtd" in f.message for f in validate_document(LogDocument.load(named)))
    assert any("NOT_IN_THE_DTD" in message for _, message in messages(named)), "the shipped DTD judged it"


INTERNAL_SUBSET = """<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd" [
  <!ELEMENT GC_LOG ANY>
  <!ATTLIST GC_LOG logfile_version CDATA "11" xmlns CDATA "urn:not-ours">
  <!ATTLIST GC_SESSION id NMTOKENS #IMPLIED>
  <!-- a comment with ] and <!ENTITY in it -->
  <?a-pi with ]> in it?>
  <!NOTATION wav SYSTEM "audio/x-wav">
]>"""


def test_an_internal_subset_without_entities_changes_nothing_that_is_read(tmp_path: Path):
    path = tmp_path / "subset.xml"
    body = BODY.replace('id="s1"', 'id="  s1   x "')
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n{INTERNAL_SUBSET}\n{body}', encoding="utf-8")
    original = path.read_bytes()
    doc = LogDocument.load(path)
    assert doc.root.tag == "GC_LOG", "no namespace defaulted in"
    assert doc.root.get("logfile_version") is None, "no attribute defaulted in"
    assert doc.sessions[0].el.get("id") == "  s1   x ", "attribute values as written, not normalised"
    assert doc.serialize() == original
    set_transcription(doc.sessions[0].turns[1], "boston")
    assert doc.serialize().startswith(original[: original.index(b"<GC_LOG>")])


@pytest.mark.parametrize(
    "doctype, named",
    [
        ('<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd" [<!ENTITY x "y">]>', "(x)"),
        ('<!DOCTYPE GC_LOG PUBLIC "p" "gc_log.dtd" [\n <!ENTITY % pe SYSTEM "gc_log.dtd">\n]>', "(pe)"),
        ('<!DOCTYPE GC_LOG [ <!-- fine --> <!ENTITY a "1"> <!ENTITY b "&a;&a;"> ]>', "(a, b)"),
    ],
    ids=["general", "parameter", "two"],
)
def test_entity_declarations_stay_refused(tmp_path: Path, doctype: str, named: str):
    path = tmp_path / "entities.xml"
    path.write_text(doctype_log(doctype), encoding="utf-8")
    with pytest.raises(UnsafeLogError) as caught:
        LogDocument.load(path)
    assert f"refused: the DOCTYPE declares entities {named}" in str(caught.value)


def test_a_parameter_entity_reference_is_refused(tmp_path: Path):
    path = tmp_path / "pe-reference.xml"
    path.write_text(doctype_log('<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd" [ %standard; ]>'), encoding="utf-8")
    with pytest.raises(UnsafeLogError, match="refers to parameter entities"):
        LogDocument.load(path)
