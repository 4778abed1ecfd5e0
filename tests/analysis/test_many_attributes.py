"""An element with thousands of attributes: validation names each undeclared one once, on the right
element, and the attributes are read whole, namespaced ones included, whether the element is validated
whole or in pieces. (That the cost stays linear is measured by tests/benchmarks/bench_validate.py
--shape attributes: lxml's own readers looked each value up from the start of the list.)"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from annotator.analysis.dtd_pieces import complaints
from annotator.analysis.dtd_quirks import _VALIDATION_LOCK, dtd_problems, shipped_dtd
from annotator.analysis.validation import validate_document
from annotator.log.document import LogDocument
from annotator.reading.attributes import attributes_of, childless_copy
from tests.support.hostile_shapes import many_attributes_log

ATTRIBUTES = 3_000


def test_every_undeclared_attribute_is_named_once_on_its_element(tmp_path: Path):
    path = tmp_path / "attributes-hublog.xml"
    text = many_attributes_log(ATTRIBUTES)
    extra = " ".join(f'x{number}="{number}"' for number in range(ATTRIBUTES))  # before the element's own as well
    path.write_text(
        text.replace(f" {extra}/>", "/>").replace("<GC_OPERATION ", f"<GC_OPERATION {extra} "), encoding="utf-8"
    )
    findings = validate_document(LogDocument.load(path), audio=False)
    named = [finding.message for finding in findings if "is not declared" in finding.message]
    assert named == [
        f"GC_OPERATION 'greet' (turn 1): attribute x{number} is not declared in the DTD" for number in range(ATTRIBUTES)
    ]
    assert {finding.line for finding in findings if "is not declared" in finding.message} == {3}


def _wide_element_with_many_attributes(namespaced: bool = True) -> etree._Element:
    """A GC_SESSION with more children than validation takes whole, and many attributes (some namespaced)."""
    attributes = " ".join(f'n:a{number}="v &amp; {number}"' for number in range(50)) if namespaced else ""
    attributes += " " + " ".join(f'b{number}="&#9;{number}&lt;"' for number in range(50))
    turns = "".join(f'<GC_TURN id="{number}" stime="1"/>' for number in range(200))
    declaration = ' xmlns:n="urn:n"' if namespaced else ""
    text = f'<GC_LOG{declaration}><GC_SESSION {attributes} id="s" stime="1" etime="2">{turns}</GC_SESSION></GC_LOG>'
    return etree.fromstring(text)


def test_attributes_are_read_whole_and_copied_exactly():
    session = _wide_element_with_many_attributes()[0]
    assert attributes_of(session) == dict(session.attrib) and len(attributes_of(session)) == 103
    assert list(attributes_of(session)) == list(session.attrib)
    copy = childless_copy(session)
    assert (copy.tag, dict(copy.attrib), len(copy)) == (session.tag, dict(session.attrib), 0)


def test_a_wide_element_with_many_attributes_is_validated_in_pieces_as_whole():
    root = _wide_element_with_many_attributes(namespaced=False)
    whole = [(p.message, p.attribute) for p in dtd_problems(root.getroottree(), fan_out=10**9)]
    pieces = [(p.message, p.attribute) for p in dtd_problems(root.getroottree())]
    assert len(whole) > 50 and sorted(pieces) == sorted(whole)
    assert any(c.element is root[0] for c in complaints(root, shipped_dtd(), _VALIDATION_LOCK)), "it was split"
