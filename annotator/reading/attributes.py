"""An element's attributes read in one pass, whatever their number.

lxml looks each attribute's value up by name from the start of the element's attribute list, so
`dict(el.attrib)`, `el.items()` and `el.values()` are quadratic in the attributes of one element
(20,000 attributes: 6 s), and so is `el.get(name)` once per attribute. An XPath `@*` hands the
attribute nodes over in one walk, each with its own value. Elements with few attributes, nearly all
of them, keep the direct route, which is faster there.
"""

from __future__ import annotations

from typing import cast

from lxml import etree

from annotator.reading.lxml_types import attribute_dict

_FEW = 32  # up to this many attributes, lxml's own walk costs less than an XPath evaluation
_ALL_ATTRIBUTES = etree.XPath("@*")


def attributes_of(el: etree._Element) -> dict[str, str]:
    """EL's attributes, name to value, in document order ("{uri}name" for one in a namespace)."""
    if len(el.attrib) <= _FEW:
        return attribute_dict(el)
    # `@*` gives one string result per attribute, its name in attrname.
    nodes = cast("list[etree._ElementUnicodeResult]", _ALL_ATTRIBUTES(el))
    return {cast(str, value.attrname): str(value) for value in nodes}


def childless_copy(el: etree._Element) -> etree._Element:
    """A new element with EL's tag and attributes and nothing inside. Setting many attributes one by one
    is quadratic in lxml as well (each is looked for among those already set), so a copy of many is
    parsed from its start tag, which libxml2 reads in one pass."""
    attributes = attributes_of(el)
    if len(attributes) <= _FEW:
        return etree.Element(el.tag, attributes)
    prefixes = {uri: prefix for prefix, uri in el.nsmap.items() if prefix}
    declared = " ".join(f"xmlns:{prefix}={_quoted(uri)}" for uri, prefix in prefixes.items())
    written = " ".join(f"{_qualified(name, prefixes)}={_quoted(value)}" for name, value in attributes.items())
    start = f"<{_qualified(el.tag, prefixes)} {declared} {written}/>"
    return etree.fromstring(start, etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True))


def _qualified(name: str, prefixes: dict[str, str]) -> str:
    if not name.startswith("{"):
        return name
    uri, _, local = name[1:].partition("}")
    return f"{prefixes[uri]}:{local}"


def _quoted(value: str) -> str:
    escaped = (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace('"', "&quot;")
        .replace("\t", "&#9;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
    )
    return f'"{escaped}"'
