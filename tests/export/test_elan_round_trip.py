"""`annotator export --to eaf` and back: the EAF links the session's WAV, has one linguistic type per
tier and times in milliseconds; what is typed through pympi-ling, saved as ELAN saves (time slots
renumbered, annotation ids changed), folds back into its turn and nothing else changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pympi import Elan

from annotator.annotation_files.fold import canonical_without_annotations, extract
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.praat import exported
from tests.support.repository import SAMPLE_LOGS

LOG_001 = Path("travel-20261121-001/travel-20261121-001-hublog.xml")
TIERS = ["turns", "recognizer", "transcription", "system"]
TYPED = "je veux aller à Zürich — « ça coûte » 東京"


@pytest.fixture(scope="module")
def elan(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("elan") / "out"
    rows = exported([SAMPLE_LOGS / "travel-20261121-001"], "eaf", out)
    assert [(row["session_id"], row["eaf"], row["wav"]) for row in rows] == [
        ("travel:20261121:001", "travel-20261121-001.eaf", "travel-20261121-001.wav")
    ]
    return out / "travel-20261121-001.eaf"


def test_the_eaf_links_the_wav_and_has_one_type_per_tier_in_milliseconds(elan: Path):
    root = etree.parse(str(elan)).getroot()
    assert (root.get("VERSION"), root.get("FORMAT")) == ("3.0", "3.0")
    media = root.find("HEADER/MEDIA_DESCRIPTOR")
    assert media.get("RELATIVE_MEDIA_URL") == "./travel-20261121-001.wav"
    assert media.get("MEDIA_URL") == elan.with_suffix(".wav").as_uri() and media.get("MIME_TYPE") == "audio/x-wav"
    assert (elan.parent / "travel-20261121-001.wav").is_file()
    assert [tier.get("TIER_ID") for tier in root.iter("TIER")] == TIERS
    assert [tier.get("LINGUISTIC_TYPE_REF") for tier in root.iter("TIER")] == TIERS
    assert [kind.get("LINGUISTIC_TYPE_ID") for kind in root.iter("LINGUISTIC_TYPE")] == TIERS
    slots = {slot.get("TIME_SLOT_ID"): slot.get("TIME_VALUE") for slot in root.iter("TIME_SLOT")}
    assert all(value.isdigit() for value in slots.values())
    user_turn_4 = next(
        a
        for a in root.iter("ALIGNABLE_ANNOTATION")
        if a.findtext("ANNOTATION_VALUE") == "no boston massachusetts"
        and a.getparent().getparent().get("TIER_ID") == "transcription"
    )
    # the log: turn 4 from 1795269611.746 to 1795269614.413, the session from 1795269600.120
    assert (slots[user_turn_4.get("TIME_SLOT_REF1")], slots[user_turn_4.get("TIME_SLOT_REF2")]) == ("11626", "14293")
    assert (
        sum(1 for a in root.iter("ALIGNABLE_ANNOTATION") if a.getparent().getparent().get("TIER_ID") == "transcription")
        == 6
    ), "every user turn has its box, the empty ones too"


def saved_as_elan_saves(eaf_path: Path, out: Path) -> Path:
    """TYPED into user turn 4's transcription through pympi, then written with the time slots renumbered
    in the opposite order and new annotation ids, as another ELAN session would."""
    eaf = Elan.Eaf(str(eaf_path))
    eaf.remove_annotation("transcription", 12000)
    eaf.add_annotation("transcription", 11626, 14293, TYPED)
    Elan.to_eaf(str(out), eaf)
    tree = etree.parse(str(out))
    slots = list(tree.iter("TIME_SLOT"))
    renamed = {slot.get("TIME_SLOT_ID"): f"ts{len(slots) - n}" for n, slot in enumerate(slots)}
    for slot in slots:
        slot.set("TIME_SLOT_ID", renamed[slot.get("TIME_SLOT_ID")])
    for number, annotation in enumerate(tree.iter("ALIGNABLE_ANNOTATION"), start=500):
        annotation.set("ANNOTATION_ID", f"a{number}")
        for end in ("TIME_SLOT_REF1", "TIME_SLOT_REF2"):
            annotation.set(end, renamed[annotation.get(end)])
    tree.write(str(out), xml_declaration=True, encoding="UTF-8")
    return out


def test_a_transcription_typed_in_elan_folds_back_into_its_turn_alone(corpus: Path, elan: Path, tmp_path: Path):
    log = corpus / LOG_001
    edited = saved_as_elan_saves(elan, tmp_path / "edited.eaf")
    assert b'TIME_SLOT_ID="ts1"' in edited.read_bytes() and b"a500" in edited.read_bytes()
    before = extract(LogDocument.load(log))
    done = run_annotator("fold", log, edited, "-o", tmp_path / "folded.xml")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "folded 1 annotation(s) into 1 log(s)"
    after = extract(LogDocument.load(tmp_path / "folded.xml"))
    changed = {
        after.turn_id(ref): text for ref, text in after.transcriptions.items() if before.transcriptions.get(ref) != text
    }
    assert changed == {"4": TYPED}
    assert canonical_without_annotations((tmp_path / "folded.xml").read_bytes()) == canonical_without_annotations(
        log.read_bytes()
    )


def test_an_eaf_of_another_session_is_refused(corpus: Path, elan: Path, tmp_path: Path):
    other = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    done = run_annotator("fold", other, elan, "-o", tmp_path / "folded.xml")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    # session 003 begins with the same turn ids and sides, and has two more turns
    assert done.stderr == (
        f"annotator: {elan}: tier turns at 39.361 s: the file ends after 12 turn(s), session "
        "travel:20261121:003 has 14: a file of another session; nothing was folded\n"
    )
    assert not (tmp_path / "folded.xml").exists()
