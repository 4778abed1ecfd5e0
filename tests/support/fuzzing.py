"""Mutated logs for the fuzz tests (tests/safety/test_fuzz.py, tests/fuzz/atheris_fuzz.py, and the CSV export's):
byte- and element-level mutants of valid logs (the sample sessions and small generated ones), the settings that
scale a run (FUZZ_SCALE=N runs N times as many examples), and exercise(): what every log that loads must survive
(validate, metrics, summary, extract, CSV export, Praat and ELAN tiers and WAV, an annotation, save and reload to
the same bytes).
"""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from lxml import etree

from annotator.analysis.doubt import session_doubts
from annotator.analysis.metrics import session_metrics
from annotator.analysis.summary import describe_document
from annotator.analysis.validation import validate_document
from annotator.annotation_files.fold import extract
from annotator.errors import AnnotatorError
from annotator.export.csv_export import export_csv
from annotator.export.eaf_file import eaf_bytes
from annotator.export.praat_elan import session_pair
from annotator.export.session_length import SessionTooLongError
from annotator.export.textgrid_file import textgrid_bytes
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.concepts import parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.reading.loading import make_parser
from tests.support.fold_strategies import generated_logs
from tests.support.hostile_shapes import LOADER_DEPTH_LIMIT, frame_chain
from tests.support.repository import sample_log_paths

SAMPLES = [path.read_bytes() for path in sample_log_paths()]

SCALE = int(os.environ.get("FUZZ_SCALE", "1"))  # FUZZ_SCALE=50: a long hunt


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


HOSTILE_TOKENS = [
    b"<",
    b">",
    b"&",
    b"&amp",
    b"&#0;",
    b"&#x110000;",
    b"&unknown;",
    b"]]>",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"\r",
    b'"',
    b"'",
    b"<?xml version='1.0'?>",
    b'<!DOCTYPE GC_LOG [<!ENTITY a "b">]>',
    b'<!DOCTYPE GC_LOG SYSTEM "file:///etc/passwd">',
    b"<GC_TURN>",
    b"</GC_TURN>",
    b"<GC_SESSION>",
    b"</GC_SESSION>",
    b"<GC_ANNOT>",
    b'turnid="x"',
    b'stime="NaN"',
    b'etime="-inf"',
    b'time="1e400"',
    b"1e308",
    b"-0",
    b"\xe2\x80\xae",
]
JUNK_VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "NaN",
            "nan",
            "inf",
            "-inf",
            "1e400",
            "-1e308",
            "0x10",
            "1,5",
            "1_000",
            "٣",
            "½",
            "9" * 400,
            "-0",
            "+1",
            "1.5.5",
            "../../etc/shadow",
            "/dev/zero",
            ".",
            '=HYPERLINK("x")',
            "\u202e",
            "\t\n",
        ]
    ),
    st.text(st.characters(exclude_categories=("Cs", "Cc", "Cn"), include_characters="\t\n"), max_size=12),
)
ATTRIBUTES = [
    "id",
    "stime",
    "etime",
    "time",
    "turnid",
    "tidx",
    "name",
    "key",
    "type",
    "type_utt_text",
    "type_new_turn",
    "type_task_completion",
    "dtype",
    "mime_type",
    "etype",
]
TAGS = [
    "GC_LOG",
    "GC_SESSION",
    "GC_TURN",
    "GC_OPERATION",
    "GC_MESSAGE",
    "GC_EVENT",
    "GC_ANNOT",
    "GC_DATA",
    "GC_FRAME",
    "GC_LIST",
    "junk",
]


def seed_logs() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.sampled_from(SAMPLES),
        generated_logs(encodings=("UTF-8", "ISO-8859-1", "UTF-16")).map(lambda log: log.encoded()),
    )


@st.composite
def byte_mutants(draw) -> bytes:
    data = bytearray(draw(seed_logs()))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, 6]))):
        kind = draw(st.sampled_from(["flip", "insert", "token", "delete", "truncate", "duplicate", "digit", "digit"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "digit":  # a number (a time, an id) made into something else: the XML stays well-formed
            digit = next((i for i in range(at, len(data)) if data[i : i + 1].isdigit()), None)
            if digit is not None:
                data[digit] = draw(st.sampled_from(b"0123456789.-+eE :x"))
        elif kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "token":
            data[at:at] = draw(st.sampled_from(HOSTILE_TOKENS))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif kind == "truncate":
            del data[at:]
        else:  # a stretch of the log repeated: duplicated tags, unbalanced elements
            data[at:at] = data[at : at + draw(st.integers(1, 400))]
    return bytes(data)


@st.composite
def element_mutants(draw) -> bytes:
    seed = draw(seed_logs())
    root = etree.fromstring(seed, make_parser())
    tree = root.getroottree()
    encoding = tree.docinfo.encoding or "UTF-8"
    for _ in range(draw(st.integers(1, 5))):
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        el = draw(st.sampled_from(elements))
        parent = el.getparent()
        kind = draw(
            st.sampled_from(
                [
                    "drop-attribute",
                    "junk-attribute",
                    "duplicate",
                    "remove",
                    "move",
                    "rename",
                    "nest",
                    "deep-frame",
                    "attributes",
                    "text",
                ]
            )
        )
        if kind == "drop-attribute" and el.attrib:
            del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
        elif kind == "junk-attribute":
            el.set(draw(st.sampled_from(ATTRIBUTES)), draw(JUNK_VALUES))
        elif kind == "duplicate" and parent is not None:
            parent.insert(parent.index(el), copy.deepcopy(el))
        elif kind == "remove" and parent is not None:
            parent.remove(el)
        elif kind == "move" and parent is not None:
            target = draw(st.sampled_from(elements))
            if el not in list(target.iterancestors()) and target is not el:
                target.append(el)
        elif kind == "rename":
            el.tag = draw(st.sampled_from(TAGS))
        elif kind == "nest" and parent is not None:
            depth = draw(st.sampled_from([1, 5, 100, 1_000, 2_100]))
            outer = inner = etree.Element(draw(st.sampled_from(["GC_DATA", "GC_FRAME", "GC_LIST", "GC_TURN"])))
            for _ in range(depth - 1):
                inner = etree.SubElement(inner, inner.tag)
            parent.replace(el, outer)
            inner.append(el)
        elif kind == "deep-frame":  # a frame chain in place of this element's content, up to the loader's limit
            depth = draw(st.sampled_from([2, 100, 1_000, 2_000, LOADER_DEPTH_LIMIT]))
            el[:] = [etree.fromstring(frame_chain(depth), make_parser())]
        elif kind == "attributes":  # thousands on one element, ahead of its own ones
            own = list(el.items())
            el.attrib.clear()
            for number in range(draw(st.sampled_from([40, 2_000]))):
                el.set(f"x{number}", str(number))
            for name, value in own:
                el.set(name, value)
        elif kind == "text":
            el.text = draw(JUNK_VALUES)
    return etree.tostring(tree, encoding=encoding, xml_declaration=True)


def exercise(data: bytes) -> str:
    """Load DATA as a log: AnnotatorError is fine; anything that loads must work end to end. What happened."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "fuzzed-hublog.xml"
        path.write_bytes(data)
        try:
            doc = LogDocument.load(path)
        except AnnotatorError as error:
            return f"refused: {type(error).__name__}"
        validate_document(doc)
        for session in doc.sessions:
            session_metrics(session)
            session_doubts([turn.facts() for turn in session.turns])
            for turn in session.turns:
                parsed_concepts(turn.facts()), reference_concepts(turn.facts())
        describe_document(doc)
        extract(doc)
        export_csv([path], folder / "csv")
        _praat_and_elan(doc, folder)
        saved = doc.save(folder / "saved.xml")
        assert LogDocument.load(saved).serialize() == doc.serialize()
        _annotate_and_reload(doc, folder / "annotated.xml")
        return "loaded, validated, measured, exported, saved and reloaded"


def _praat_and_elan(doc: LogDocument, folder: Path) -> None:
    """Every session makes its Praat and ELAN tiers and its WAV, or is refused as too long (a fuzzed time);
    a WAV of up to a minute is written (a longer one is only silence more)."""
    for session in doc.sessions:
        try:
            pair = session_pair(session, doc.path.name)
        except SessionTooLongError:
            continue
        textgrid_bytes(pair.tiers)
        eaf_bytes(pair.tiers, folder / "session.wav", doc.path.name)
        if pair.audio.frames <= 60 * pair.audio.rate:
            with open(folder / "session.wav", "wb") as stream:
                pair.audio.write(stream)


def _annotate_and_reload(doc: LogDocument, target: Path) -> None:
    """An edit through the only writers of GC_ANNOT survives a save and a reload."""
    turns = [turn for session in doc.sessions for turn in session.turns]
    if turns:
        set_transcription(turns[0], "a fuzzed <transcription> & more")
    if doc.sessions:
        set_task_completion(doc.sessions[0], "1")
    doc.save(target)
    again = LogDocument.load(target)
    assert again.serialize() == doc.serialize()
    assert extract(again) == extract(doc)
