"""DTD validation in pieces finds exactly what validating the whole tree at once finds: the same
complaints about the same elements on the same lines, whatever the fan-out at which elements are
split (1 splits every element with a child, a huge one none)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annotator.analysis.dtd_quirks import dtd_problems
from annotator.log.document import LogDocument
from tests.support.hostile_corpus import hostile_cases
from tests.support.repository import sample_log_paths
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log

WHOLE = 10**9


def _broken_session(number: int) -> str:
    turns = [system_turn(str(i), 1000 + i, "hi") for i in range(1, 6)]
    turns += [
        user_turn("6", 1006, "x", extra="stray text <x a='1'/><GC_TURN/>"),  # text and undeclared/misplaced elements
        '<GC_TURN id="7 7" stime="1007" etime="1_008"><GC_ANNOT foo="1"/></GC_TURN>',  # bad NMTOKENs
        '<GC_TURN id="8" stime="1008" etime="1009">'
        + operation("8", 1008, 1009, body=data(":k", "v", 'mime_type="audio/x-wav"') * 6 + "<GC_FRAME type='clause'/>")
        + "<!-- a comment --><?pi x?></GC_TURN>",
        '<GC_TURN id="9" stime="1" etime="2"><GC_DATA name=":nbest"><GC_LIST><GC_DATA>a</GC_DATA></GC_LIST></GC_DATA>'
        "</GC_TURN>",
    ]
    return session(f"s{number}", turns, extra="<GC_ANNOT turnid='1'><GC_DATA>no key</GC_DATA></GC_ANNOT>loose")


def _signature(doc: LogDocument, fan_out: int) -> Counter:
    return Counter(
        (p.line, p.code, p.message, p.attribute, doc.tree.getpath(p.element) if p.element is not None else None)
        for p in dtd_problems(doc.tree, fan_out)
    )


def _same_either_way(path: Path) -> None:
    doc = LogDocument.load(path)
    whole = _signature(doc, WHOLE)
    for fan_out in (0, 1, 2, 5):
        assert _signature(doc, fan_out) == whole, fan_out


def test_a_log_broken_in_every_way_the_dtd_notices(tmp_path: Path):
    path = write_log(
        tmp_path / "broken.xml",
        log_text([_broken_session(n) for n in range(4)]).replace("<GC_LOG>", "<GC_LOG undeclared='1'>text<GC_OTHER/>"),
    )
    assert len(dtd_problems(LogDocument.load(path).tree, WHOLE)) > 40  # the test means something
    _same_either_way(path)


@pytest.mark.slow
def test_a_log_longer_than_65535_lines(tmp_path: Path):
    """libxml2 keeps line numbers above 65535 elsewhere: a piece's root must still get its own."""
    turns = "\n".join(f'<GC_TURN id="{i}" stime="{i}"/>' for i in range(300))
    sessions = "\n".join(
        f'<GC_SESSION id="s{n}" stime="1" etime="2" extra="x">\n{turns}\n</GC_SESSION>' for n in range(240)
    )
    path = write_log(tmp_path / "long.xml", f'<?xml version="1.0"?>\n<GC_LOG>\n{sessions}\n</GC_LOG>\n')
    doc = LogDocument.load(path)
    assert doc.tree.getroot()[-1].sourceline > 70000
    whole = _signature(doc, WHOLE)
    assert max(line for line, *_ in whole) > 70000
    assert _signature(doc, 100) == whole


@pytest.mark.parametrize("path", sample_log_paths(), ids=lambda p: p.name)
def test_the_sample_logs(path: Path):
    _same_either_way(path)


@pytest.mark.parametrize("path", [case.path for case in hostile_cases() if not case.refused], ids=lambda p: p.name)
def test_the_hostile_logs_that_load(path: Path):
    _same_either_way(path)
