"""`annotator export --to textgrid`: the real Praat reads each session's TextGrid and WAV, and finds
the log's turns, texts and times in them, and each user turn's audio on the left channel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile
from lxml import etree

from tests.support.praat import exported, needs_praat, praat
from tests.support.repository import SAMPLE_LOGS

TIERS = ["turns", "recognizer", "transcription", "system"]


def log_facts(log: Path) -> dict:
    """What the log says, read here with lxml alone: per turn (from the session start, to the ms) its
    id, side, times, texts, and the user's and system's audio files with where they were heard."""
    session = etree.parse(str(log)).getroot().find("GC_SESSION")
    origin = float(session.get("stime"))
    per_second = 1000 if origin > 1e11 else 1  # epoch milliseconds (the second sample log) or seconds

    def since(value: str) -> float:
        return (float(value) - origin) / per_second

    turns = []
    for turn in session.iter("GC_TURN"):
        side = next(op.get("type_new_turn") for op in turn.iter("GC_OPERATION") if op.get("type_new_turn"))
        texts = {
            data.get("type_utt_text") or data.get("type"): " ".join((data.text or "").split())
            for data in turn.iter("GC_DATA")
            if data.get("type_utt_text") or data.get("type") == "text_output"
        }
        heard = next(op for op in turn.iter("GC_OPERATION") if op.get("type_start_utt"))
        # an absolute path (of the machine that recorded) is found by its name in the log's folder
        audio = next(data.text.strip() for data in turn.iter("GC_DATA") if (data.get("type") or "").startswith("audio"))
        turns.append(
            {
                "id": turn.get("id"),
                "side": side,
                "start": round(since(turn.get("stime")), 3),
                "end": round(since(turn.get("etime")), 3),
                "texts": texts,
                "audio": log.parent / Path(audio).name,
                "heard_at": since(heard.get("stime")),
            }
        )
    return {"id": session.get("id"), "turns": turns, "duration": round(since(session.get("etime")), 3)}


def praat_report(grid: Path, wav: Path) -> dict:
    tiers, intervals, facts = [], {name: [] for name in TIERS}, {}
    for line in praat("report.praat", grid, wav).splitlines():
        kind, *fields = line.split("\t")
        if kind == "tier":
            tiers.append(fields[0])
        elif kind == "interval":
            intervals[fields[0]].append((float(fields[1]), float(fields[2]), fields[3]))
        else:
            facts[kind] = float(fields[0])
    return {"tiers": tiers, "intervals": intervals, **facts}


@pytest.fixture(scope="module")
def textgrids(tmp_path_factory) -> tuple[Path, list[dict[str, str]]]:
    out = tmp_path_factory.mktemp("praat") / "out"
    return out, exported([SAMPLE_LOGS], "textgrid", out)


@needs_praat
def test_praat_reads_every_session_s_tiers_times_texts_and_audio(textgrids):
    out, rows = textgrids
    assert [row["log"] for row in rows] == [
        f"travel-20261121-00{n}/travel-20261121-00{n}-hublog.xml" for n in (1, 2, 3)
    ]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["index.csv", *(row["textgrid"] for row in rows), *(row["wav"] for row in rows)]
    )
    for row in rows:
        log = log_facts(SAMPLE_LOGS / row["log"])
        assert row["session_id"] == log["id"] and row["textgrid"].endswith(".TextGrid")
        assert row["wav"] == row["textgrid"].removesuffix(".TextGrid") + ".wav"
        report = praat_report(out / row["textgrid"], out / row["wav"])
        assert report["tiers"] == TIERS  # the sample logs have no reference concepts: no concepts tier
        assert report["channels"] == 2 and report["duration"] == log["duration"]
        turns = log["turns"]
        users = [t for t in turns if t["side"] == "user"]
        systems = [t for t in turns if t["side"] == "system"]
        assert report["intervals"]["turns"] == [(t["start"], t["end"], f"{t['id']} {t['side']}") for t in turns]
        assert report["intervals"]["recognizer"] == [
            (t["start"], t["end"], t["texts"]["asr"]) for t in users if t["texts"].get("asr")
        ]
        assert report["intervals"]["transcription"] == [
            (t["start"], t["end"], t["texts"]["transcription"]) for t in users if t["texts"].get("transcription")
        ]
        assert report["intervals"]["system"] == [(t["start"], t["end"], t["texts"]["system"]) for t in systems]


def envelope(samples: np.ndarray, rate: int) -> np.ndarray:
    """RMS of each 10 ms frame."""
    frame = rate // 100
    usable = len(samples) // frame * frame
    return np.sqrt((samples[:usable].astype(np.float64).reshape(-1, frame) ** 2).mean(axis=1))


@needs_praat
def test_each_clip_is_heard_on_its_side_s_channel_at_its_time(textgrids):
    out, rows = textgrids
    correlations = []
    for row in rows:
        log = log_facts(SAMPLE_LOGS / row["log"])
        mixed, rate = soundfile.read(out / row["wav"], always_2d=True)
        silent_left = np.ones(len(mixed), dtype=bool)
        for turn in log["turns"]:
            clip, clip_rate = soundfile.read(turn["audio"], always_2d=True)
            assert clip_rate == rate, "one rate: the highest of the clips (all 8 kHz here)"
            at = int(round(turn["heard_at"] * rate))
            channel = 0 if turn["side"] == "user" else 1
            placed = mixed[at : at + len(clip), channel]
            correlation = np.corrcoef(envelope(clip[:, 0], rate), envelope(placed, rate))[0, 1]
            if turn["side"] == "user":
                correlations.append(correlation)
                silent_left[at : at + len(clip)] = False
            assert correlation > 0.9, (row["log"], turn["id"], turn["side"], correlation)
        assert np.abs(mixed[silent_left, 0]).max() == 0, "the left channel is silent outside the user's clips"
    assert len(correlations) == 18 and min(correlations) > 0.99


def test_the_tiers_cut_turns_that_overlap_and_keep_one_millisecond(tmp_path: Path):
    from annotator.export.session_tiers import _cut_overlaps

    assert _cut_overlaps([(0, 500, 0), (400, 900, 1), (900, 900, 2), (900, 950, 3)]) == [
        (0, 400, 0),
        (400, 900, 1),
        (900, 901, 2),
        (901, 950, 3),
    ]


def test_file_names_are_safe_everywhere_and_unique_ignoring_case():
    from annotator.export.praat_elan import _stem, unique_name

    taken = {"index.csv"}
    assert _stem("travel-20261121-001", "travel:20261121:001") == "travel-20261121-001"
    assert _stem("site-a", "s:1") == "site-a-s:1"
    assert unique_name("site-a-s:1", taken) == "site-a-s_1"
    assert unique_name("SITE-A-s/1", taken) == "SITE-A-s_1-2", "another case is the same name on macOS and Windows"
    assert unique_name("con", taken) == "_con" and unique_name("../..", taken) == "session"
    assert unique_name("é" * 300, taken) == "session-2" and len(unique_name("a" * 300, taken)) == 120


def test_clips_of_another_rate_are_resampled_to_the_highest(corpus: Path, tmp_path: Path):
    import shutil
    import subprocess

    if shutil.which("sox") is None:
        pytest.skip("sox is not installed (scripts/system-deps.sh)")
    folder = corpus / "travel-20261121-001"
    system = folder / "travel-20261121-001-turn01-system.wav"
    subprocess.run(["sox", system, "-r", "16000", tmp_path / "16k.wav"], check=True)
    shutil.move(tmp_path / "16k.wav", system)
    out = tmp_path / "out"
    exported([folder], "textgrid", out)
    mixed, rate = soundfile.read(out / "travel-20261121-001.wav", always_2d=True)
    assert rate == 16000
    log = log_facts(folder / "travel-20261121-001-hublog.xml")
    for turn in log["turns"]:
        clip, clip_rate = soundfile.read(turn["audio"], always_2d=True)
        at = int(round(turn["heard_at"] * rate))
        placed = mixed[at : at + int(len(clip) * rate / clip_rate), 0 if turn["side"] == "user" else 1]
        correlation = np.corrcoef(
            envelope(clip[:, 0], clip_rate), envelope(placed, rate)[: len(clip) // (clip_rate // 100)]
        )[0, 1]
        assert correlation > 0.9, (turn["id"], correlation)


def test_concepts_text_round_trips_every_character():
    from annotator.export.session_tiers import concepts_text, parse_concepts_text
    from annotator.log.concepts import Concepts

    concepts = Concepts("flight", (("a", "ends with \\"), ("x=y", "p;q"), ("empty", ""), ("ü/ß", "東京")))
    assert concepts_text(concepts) == "a=ends with \\\\; x\\=y=p\\;q; empty=; ü/ß=東京"
    assert parse_concepts_text(concepts_text(concepts), "flight") == concepts
    with pytest.raises(ValueError, match="concepts slot 'no equals' has no '='"):
        parse_concepts_text("a=b; no equals", "flight")
