"""What lxml gives and its type stubs (lxml-stubs) describe wrongly or leave out, typed once here.

The stubs declare `_Element.sourceline` without a type (it reads as `...`), give attribute
names and values as `str | bytes` (lxml hands out str under Python 3), so that `attrib.update()`
takes no dict[str, str] and `attrib.pop()` no default but a string, and know nothing of a DTD's declarations (`iterelements()`,
`iterentities()`), of the entries of an `_ErrorLog` or of `DocInfo.system_url`. Each helper is
the plain lxml access under the type lxml gives, so the callers stay checked instead of seeing Any.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol, cast

from lxml import etree


class DtdContent(Protocol):
    """A node of an element's content model (lxml's _DTDElementContentDecl)."""

    @property
    def name(self) -> str | None: ...  # the element's name where type is "element"
    @property
    def type(self) -> str | None: ...  # "pcdata", "element", "seq" or "or"
    @property
    def occur(self) -> str | None: ...  # "once", "opt", "mult" or "plus"
    @property
    def left(self) -> DtdContent | None: ...
    @property
    def right(self) -> DtdContent | None: ...


class DtdAttribute(Protocol):
    """An <!ATTLIST entry (lxml's _DTDAttributeDecl)."""

    @property
    def name(self) -> str: ...
    @property
    def default(self) -> str | None: ...  # "none", "required", "implied" or "fixed"


class DtdElement(Protocol):
    """An <!ELEMENT declaration (lxml's _DTDElementDecl)."""

    @property
    def name(self) -> str: ...
    @property
    def type(self) -> str | None: ...  # "undefined", "empty", "any", "mixed" or "element"
    @property
    def content(self) -> DtdContent | None: ...
    def iterattributes(self) -> Iterator[DtdAttribute]: ...


class DtdEntity(Protocol):
    """An <!ENTITY declaration (lxml's _DTDEntityDecl)."""

    @property
    def name(self) -> str: ...


class _Declarations(Protocol):
    def iterelements(self) -> Iterator[DtdElement]: ...
    def iterentities(self) -> Iterator[DtdEntity]: ...


class LogEntry(Protocol):
    """One message of libxml2's error log (lxml's _LogEntry)."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def path(self) -> str | None: ...  # the XPath of the element concerned


class _Attributes(Protocol):
    def pop(self, key: str, default: None, /) -> str | None: ...
    def update(self, attributes: Mapping[str, str], /) -> None: ...


class _SystemUrl(Protocol):
    @property
    def system_url(self) -> str | None: ...


def source_line(el: etree._Element) -> int | None:
    """The line EL starts on in what it was parsed from (None for an element made in memory)."""
    return cast("int | None", el.sourceline)


def attribute_dict(el: etree._Element) -> dict[str, str]:
    """`dict(el.attrib)`: lxml's attribute names and values are str."""
    return cast("dict[str, str]", dict(el.attrib))


def pop_attribute(el: etree._Element, name: str) -> str | None:
    """`el.attrib.pop(name, None)`: remove the attribute NAME if EL has it; its value or None."""
    return cast(_Attributes, el.attrib).pop(name, None)


def update_attributes(el: etree._Element, attributes: Mapping[str, str]) -> None:
    """`el.attrib.update(attributes)`: set each of ATTRIBUTES on EL, in order."""
    cast(_Attributes, el.attrib).update(attributes)


def element_declarations(dtd: etree.DTD) -> Iterator[DtdElement]:
    """`dtd.iterelements()`: DTD's <!ELEMENT declarations in order."""
    return cast(_Declarations, dtd).iterelements()


def entity_declarations(dtd: etree.DTD) -> Iterator[DtdEntity]:
    """`dtd.iterentities()`: DTD's <!ENTITY declarations in order."""
    return cast(_Declarations, dtd).iterentities()


def internal_subset(tree: etree._ElementTree) -> etree.DTD | None:
    """The DTD of TREE's internal subset, None when its DOCTYPE has none (or there is no DOCTYPE)."""
    return cast("etree.DTD | None", tree.docinfo.internalDTD)


def log_entries(log: etree._ErrorLog) -> Iterable[LogEntry]:
    """LOG itself, whose iteration gives its entries oldest first."""
    return cast("Iterable[LogEntry]", log)


def system_url(docinfo: etree.DocInfo) -> str | None:
    """The system identifier (DTD path or URL) the DOCTYPE names, or None."""
    return cast(_SystemUrl, docinfo).system_url
