"""What was typed in the real Praat comes back into the log with `annotator fold`, and nothing else does;
a TextGrid that does not fit the log is refused in one line, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from praatio import textgrid

from annotator.annotation_files.fold import canonical_without_annotations, extract
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.praat import exported, needs_praat, praat
from tests.support.repository import SAMPLE_LOGS

LOG_001 = Path("travel-20261121-001/travel-20261121-001-hublog.xml")
TYPED = "je veux aller à Zürich — « ça coûte » 東京"
SECOND_USER_TURN_AT = 12.0  # seconds into session 001: user turn 4 (11.626-14.293)


@pytest.fixture(scope="module")
def grids(tmp_path_factory) -> Path:
    """The sample logs' TextGrids (only read: the tests fold into copies of the logs)."""
    out = tmp_path_factory.mktemp("grids") / "praat"
    exported([SAMPLE_LOGS / "travel-20261121-001", SAMPLE_LOGS / "travel-20261121-003"], "textgrid", out)
    return out


def transcriptions(log: Path) -> dict[str, str]:
    annotations = extract(LogDocument.load(log))
    return {annotations.turn_id(ref): text for ref, text in annotations.transcriptions.items()}


@needs_praat
@pytest.mark.parametrize("short", [0, 1], ids=["text-file", "short-text-file"])
@pytest.mark.slow
def test_a_transcription_typed_in_praat_is_folded_into_its_turn_and_nothing_else(corpus, grids, tmp_path, short):
    log = corpus / LOG_001
    edited = tmp_path / "edited.TextGrid"
    praat(
        "edit.praat", grids / "travel-20261121-001.TextGrid", edited, "transcription", SECOND_USER_TURN_AT, TYPED, short
    )
    raw = edited.read_bytes()
    assert raw.startswith(b"\xfe\xff"), "Praat saves non-ASCII text as UTF-16 big-endian"
    assert ("xmin = " not in raw.decode("utf-16")) == bool(short), "the short format has no labels"
    before = transcriptions(log)
    done = run_annotator("fold", log, edited, "-o", tmp_path / "folded.xml")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "folded 1 annotation(s) into 1 log(s)"
    after = transcriptions(tmp_path / "folded.xml")
    assert after == {**before, "4": TYPED}
    assert canonical_without_annotations((tmp_path / "folded.xml").read_bytes()) == canonical_without_annotations(
        log.read_bytes()
    )


@needs_praat
@pytest.mark.slow
def test_folding_in_place_keeps_the_original(corpus, grids, tmp_path):
    log = corpus / LOG_001
    original = log.read_bytes()
    edited = tmp_path / "edited.TextGrid"
    praat("edit.praat", grids / "travel-20261121-001.TextGrid", edited, "transcription", SECOND_USER_TURN_AT, TYPED, 0)
    done = run_annotator("fold", log, edited, "-o", log, "--force")
    assert done.returncode == 0, done.stderr
    assert log.with_name("travel-20261121-001-hublog.orig.xml").read_bytes() == original
    assert transcriptions(log)["4"] == TYPED


def _shifted(grid: Path, out: Path, tier: str, index: int, by: float, text: str | None = None) -> Path:
    """GRID with the INDEX-th labelled interval of TIER moved BY seconds (and given TEXT)."""
    tg = textgrid.openTextgrid(str(grid), includeEmptyIntervals=False)
    old = tg.getTier(tier)
    entries = list(old.entries)
    start, end, label = entries[index]
    entries[index] = (start + by, end + by, label if text is None else text)
    tg.replaceTier(tier, old.new(entries=entries))
    tg.save(str(out), format="long_textgrid", includeBlankSpaces=True)
    return out


@needs_praat
@pytest.mark.parametrize("case", ["another-session", "missing-tier", "no-user-turn", "two-user-turns", "times-off"])
@pytest.mark.slow
def test_a_textgrid_that_does_not_fit_is_refused_in_one_line_and_nothing_is_written(corpus, grids, tmp_path, case):
    log = corpus / LOG_001
    grid = grids / "travel-20261121-001.TextGrid"
    bad = tmp_path / "bad.TextGrid"
    if case == "another-session":
        shutil.copyfile(grids / "travel-20261121-003.TextGrid", bad)
        expected = f"annotator: {bad}: tier turns at "
    elif case == "missing-tier":
        praat("edit.praat", grid, bad, "transcription", 0, "-remove-", 0)
        expected = f"annotator: {bad}: tier transcription: missing (the file has turns, recognizer, system)"
    elif case == "no-user-turn":
        praat("edit.praat", grid, bad, "transcription", 9.0, "typed between two user turns", 0)  # system turn 3
        expected = (
            f"annotator: {bad}: tier transcription at 8.543 s: 'typed between two user turns' covers no user turn"
        )
    elif case == "two-user-turns":
        tg = textgrid.openTextgrid(str(grid), includeEmptyIntervals=False)
        entries = [e for e in tg.getTier("transcription").entries if not 5 < e[0] < 15]
        tg.replaceTier("transcription", tg.getTier("transcription").new(entries=[(5.784, 14.293, "both"), *entries]))
        tg.save(str(bad), format="long_textgrid", includeBlankSpaces=True)
        expected = f"annotator: {bad}: tier transcription at 5.784 s: 'both' covers two user turns (2 and 4)"
    else:
        _shifted(grid, bad, "transcription", 1, 0.015)
        expected = (
            f"annotator: {bad}: tier transcription at 11.641 s: 11.641-14.308 s where user turn 4 is "
            "11.626-14.293 s: the times are off by more than 10 ms"
        )
    out = tmp_path / "out.xml"
    done = run_annotator("fold", log, bad, "-o", out)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(expected), done.stderr
    assert "nothing was folded" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


@needs_praat
@pytest.mark.slow
def test_times_within_ten_milliseconds_are_taken(corpus, grids, tmp_path):
    moved = _shifted(
        grids / "travel-20261121-001.TextGrid",
        tmp_path / "moved.TextGrid",
        "transcription",
        1,
        0.008,
        "no boston massachusetts please",
    )
    done = run_annotator("fold", corpus / LOG_001, moved, "-o", tmp_path / "out.xml")
    assert done.returncode == 0, done.stderr
    assert transcriptions(tmp_path / "out.xml")["4"] == "no boston massachusetts please"


@needs_praat
@pytest.mark.slow
def test_reference_concepts_go_to_praat_as_a_tier_and_come_back(corpus, tmp_path):
    from annotator.log.annotations import set_concepts
    from annotator.log.concepts import Concepts, reference_concepts

    log = corpus / LOG_001
    doc = LogDocument.load(log)
    turns = {turn.id: turn for turn in doc.sessions[0].turns}
    set_concepts(turns["2"], Concepts("flight", (("destination", "boston"), ("date/month", "may"))))
    doc.save(overwrite=True)
    out = tmp_path / "praat"
    exported([log], "textgrid", out)
    report = praat("report.praat", out / "travel-20261121-001.TextGrid", out / "travel-20261121-001.wav")
    assert "tier\tconcepts" in report.splitlines()
    assert "interval\tconcepts\t5.784\t8.543\tdestination=boston; date/month=may" in report.splitlines()
    edited = tmp_path / "edited.TextGrid"
    praat(
        "edit.praat",
        out / "travel-20261121-001.TextGrid",
        edited,
        "concepts",
        12.0,
        "destination=Zürich; time\\=of\\;day=morning",
        0,
    )
    done = run_annotator("fold", log, edited, "-o", tmp_path / "folded.xml")
    assert done.returncode == 0, done.stderr
    folded = {
        turn.id: reference_concepts(turn.facts())
        for turn in LogDocument.load(tmp_path / "folded.xml").sessions[0].turns
    }
    assert folded["2"] == Concepts("flight", (("destination", "boston"), ("date/month", "may"))), "unchanged"
    # turn 4 had no frame of its own: the parser's frame name is kept
    assert folded["4"].slots == (("destination", "Zürich"), ("time=of;day", "morning"))
    assert folded["4"].frame == reference_or_parse_frame(log, "4")


def reference_or_parse_frame(log: Path, turn_id: str) -> str:
    from annotator.log.concepts import parsed_concepts

    turn = next(t for t in LogDocument.load(log).sessions[0].turns if t.id == turn_id)
    parsed = parsed_concepts(turn.facts())
    return parsed.frame if parsed is not None else ""


@pytest.mark.parametrize(
    "name, content, reason",
    [
        (
            "cut.TextGrid",
            'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 3\ntiers? <exists>\n'
            'size = 1\nitem []:\n    item [1]:\n        class = "IntervalTier"\n',
            "not a TextGrid Praat can read (Expected field in Textgrid missing.)",
        ),
        ("words.TextGrid", "hello world", "not a TextGrid Praat can read (its header and tiers are not there)"),
        ("page.eaf", "<html/>", "not an ELAN file (no VERSION where ELAN writes one)"),
        ("words.eaf", "xx", "not an ELAN file (Unable to parse eaf, can you open it in ELAN?)"),
    ],
)
def test_a_file_that_is_no_textgrid_or_eaf_is_one_line(corpus, tmp_path, name, content, reason):
    bad = tmp_path / name
    bad.write_text(content, encoding="utf-8")
    done = run_annotator("fold", corpus / LOG_001, bad, "-o", tmp_path / "out.xml")
    assert (done.returncode, done.stderr) == (2, f"annotator: {bad}: {reason}\n")
    assert not (tmp_path / "out.xml").exists()
