"""The WAV beside a TextGrid or EAF is written a block at a time: memory does not grow with the session's length in
time. A session whose times span more than a day (a long session, or a time typed wrong), or whose WAV would pass
what a WAV file holds, is refused in one line naming the log, the session and its times; nothing is written."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
import soundfile
from hypothesis import given
from hypothesis import strategies as st

from annotator.export.praat_elan import session_pair
from annotator.export.session_length import MAX_SESSION_HOURS, WAV_MAX_BYTES, SessionTooLongError
from annotator.log.document import LogDocument
from tests.support.cli import file_size_limit, run_annotator, run_annotator_measured
from tests.support.fuzzing import fuzz_settings
from tests.support.session_spans import CLIP_RATE, SHAPES, spanning_log, tone

# What the command needs with nothing to hold (Python, numpy, lxml, soxr: about 60 MB), and room to spare; a 2-hour
# session's WAV held in memory at 8 kHz peaked at about 700 MB.
PEAK_BOUND = 150 * 2**20
DAY = 86400


@pytest.mark.slow
@pytest.mark.parametrize(
    "shape, kind",
    [*((shape, "textgrid") for shape in SHAPES), ("etime", "eaf")],
)
def test_a_session_spanning_more_than_a_day_is_refused_in_one_line(tmp_path: Path, shape: str, kind: str):
    log = spanning_log(tmp_path, shape, seconds=30 * DAY)
    out = tmp_path / "out"
    done, peak = run_annotator_measured("export", log, "--to", kind, "-o", out)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"annotator: {log}: session {shape}: its times span "), done.stderr
    assert f"more than the {MAX_SESSION_HOURS} h a Praat or ELAN export makes a WAV of" in done.stderr
    assert done.stderr.endswith("; nothing written\n")
    if shape == "etime":
        assert "span 30.0 days (from 1700000000 to 1702592000, as the log writes them)" in done.stderr
    assert not out.exists()
    assert peak < PEAK_BOUND, f"{peak / 2**20:.0f} MB"


@pytest.mark.slow
def test_a_two_hour_session_is_written_block_by_block(tmp_path: Path):
    log = spanning_log(tmp_path, "etime", seconds=2 * 3600)
    out = tmp_path / "out"
    done, peak = run_annotator_measured("export", log, "--to", "textgrid", "-o", out)
    assert done.returncode == 0, done.stderr
    assert peak < PEAK_BOUND, f"{peak / 2**20:.0f} MB for a WAV of {(out / 'etime.wav').stat().st_size / 2**20:.0f} MB"
    with soundfile.SoundFile(out / "etime.wav") as wav:
        assert (wav.samplerate, wav.channels, wav.frames) == (CLIP_RATE, 2, 2 * 3600 * CLIP_RATE)
        wav.seek(2 * CLIP_RATE)
        heard = wav.read(2 * CLIP_RATE)  # 2 s to 4 s: silence, then the clip from 3 s
        wav.seek(wav.frames - CLIP_RATE)
        end = wav.read()
    assert np.abs(heard[:CLIP_RATE]).max() == 0 and np.abs(heard[:, 1]).max() == 0
    assert np.abs(heard[CLIP_RATE:, 0] - tone()).max() < 1e-3, "the user's clip on the left, 3 s in"
    assert np.abs(end).max() == 0, "silence to the session's end"


def test_a_wav_larger_than_a_wav_file_holds_is_refused(tmp_path: Path):
    log = spanning_log(tmp_path, "etime", seconds=20 * 3600)
    (tmp_path / "u2.wav").unlink()  # no clip: 16 kHz, where 20 h pass the 4 GiB of a WAV file
    out = tmp_path / "out"
    done, _ = run_annotator_measured("export", log, "--to", "eaf", "-o", out)
    assert (done.returncode, done.stderr) == (
        2,
        f"annotator: {log}: session etime: its WAV would be 4.6 GB (20.0 h of 16-bit stereo at 16000 Hz), "
        "more than a WAV file holds (4 GiB); nothing written\n",
    )
    assert not out.exists()


TIMES = st.sampled_from(
    ["0", "-1", "1700000000", "1700000000000", "17000000000", "99999999999999999999", "1e308", "nan", "", "-0", "3.5"]
)


@pytest.mark.slow
@fuzz_settings(examples=150)
@given(session_times=st.tuples(TIMES, TIMES), turn_times=st.lists(st.tuples(TIMES, TIMES), min_size=1, max_size=3))
def test_any_times_make_a_wav_within_the_limits_or_are_refused(session_times, turn_times):
    """Whatever the times say, the WAV to be written spans at most a day and fits a WAV file, or the session is
    refused as too long: nothing between allocates by the session's length."""
    turns = "".join(
        f'<GC_TURN id="{n}" stime="{start}" etime="{end}"><GC_OPERATION name="op" server="nl" stime="{start}" '
        f'etime="{end}"/></GC_TURN>'
        for n, (start, end) in enumerate(turn_times, start=1)
    )
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "times-hublog.xml"
        log.write_text(
            f'<GC_LOG><GC_SESSION id="s" stime="{session_times[0]}" etime="{session_times[1]}">{turns}</GC_SESSION>'
            "</GC_LOG>",
            encoding="utf-8",
        )
        session = LogDocument.load(log).sessions[0]
        try:
            pair = session_pair(session, log.name)
        except SessionTooLongError as error:
            assert str(error).startswith(f"{log}: session s: ") and "\n" not in str(error)
            return
    assert pair.audio.frames <= MAX_SESSION_HOURS * 3600 * pair.audio.rate + pair.audio.rate
    assert pair.audio.size <= WAV_MAX_BYTES


@pytest.mark.slow
def test_a_disk_that_fills_up_during_the_wav_is_one_line_and_nothing_written(tmp_path: Path):
    """The WAV's writer is ours so that a write error reaches the export as the OSError it is: one line, no
    traceback and no complaint at exit, and the staged folder goes."""
    log = spanning_log(tmp_path, "etime", seconds=600)
    out = tmp_path / "out"
    done = run_annotator("export", log, "--to", "textgrid", "-o", out, preexec_fn=file_size_limit(200_000))
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"annotator: {out / 'etime.wav'}: not written, and no output was changed: File too large\n"
    assert not out.exists()
