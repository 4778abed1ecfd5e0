"""The spectrogram of real signals: a tone's row, a chirp's rising peak, silence at the floor, a real turn's energy."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile

from annotator.audio import load_audio
from annotator.audio.spectrogram import BLOCK_FRAMES, FLOOR_DB, TOP_HZ, frame_lengths, spectrogram
from tests.support.sounds import noise, tone

RATE = 8000


def peak_frequencies(result) -> np.ndarray:
    return result.frequencies[np.argmax(result.levels, axis=0)]


def test_windows_are_25_ms_every_10_ms_at_any_rate():
    assert frame_lengths(8000) == (200, 80, 256)
    assert frame_lengths(16000) == (400, 160, 512)
    assert frame_lengths(44100) == (1102, 441, 2048)


def test_a_1_khz_tone_at_8_khz_peaks_in_the_1_khz_row_in_every_window():
    result = spectrogram(tone(2.0, RATE, frequency=1000.0, level=0.5), RATE)
    assert result.levels.shape == (len(result.frequencies), len(result.times))
    assert result.frequencies[0] == 0.0 and result.frequencies[-1] == TOP_HZ
    assert np.all(peak_frequencies(result) == 1000.0)
    assert result.levels.max() == pytest.approx(20 * np.log10(0.5) - 3.0103, abs=0.2)  # a sine's power, dBFS
    far = np.abs(result.frequencies - 1000.0) > 300
    assert result.levels[far, 2:-2].max() < result.levels.max() - 60  # a Hann window's leakage stays low


def test_a_recording_longer_than_a_block_of_frames_is_seamless():
    result = spectrogram(tone(45.0, RATE, frequency=1000.0), RATE)
    assert len(result.times) == 4501 > 2 * BLOCK_FRAMES
    assert np.all(peak_frequencies(result) == 1000.0)
    inside = result.levels[:, 2:-2]
    assert np.allclose(inside, inside[:, :1], atol=0.05)  # a steady tone: every window alike, across blocks too


def test_windows_are_centred_every_10_ms_from_0_to_the_end():
    result = spectrogram(tone(1.234, RATE), RATE)
    assert result.times[0] == 0.0
    assert np.allclose(np.diff(result.times), 0.010)
    assert result.duration == pytest.approx(1.234)
    assert result.times[-1] == pytest.approx(1.23, abs=0.005)
    assert result.hop == pytest.approx(0.010) and result.band == pytest.approx(31.25)


def test_a_rising_chirp_moves_up_the_rows():
    seconds, low, high = 2.0, 300.0, 3500.0
    t = np.arange(int(seconds * RATE)) / RATE
    chirp = 0.5 * np.sin(2 * np.pi * (low * t + (high - low) / (2 * seconds) * t**2))
    result = spectrogram(chirp, RATE)
    inside = (result.times > 0.05) & (result.times < seconds - 0.05)
    peaks = peak_frequencies(result)[inside]
    expected = low + (high - low) * result.times[inside] / seconds
    assert np.max(np.abs(peaks - expected)) <= 2 * result.band
    assert np.all(np.diff(peaks) >= 0) and peaks[-1] - peaks[0] > 2900


def test_silence_is_the_floor_everywhere():
    result = spectrogram(np.zeros(RATE, dtype=np.float32), RATE)
    assert np.all(result.levels == np.float32(FLOOR_DB))
    assert result.display_range() == (FLOOR_DB, FLOOR_DB + 1.0)


def test_higher_rates_are_cropped_to_4_khz_and_lower_ones_stop_at_half_the_rate():
    wide = spectrogram(tone(1.0, 44100, frequency=1000.0), 44100)
    assert wide.frequencies[-1] <= TOP_HZ < wide.frequencies[-1] + wide.band
    assert abs(np.median(peak_frequencies(wide)) - 1000.0) <= wide.band
    narrow = spectrogram(tone(1.0, 6000, frequency=1000.0), 6000)
    assert narrow.frequencies[-1] == 3000.0


def test_channels_are_averaged():
    stereo = np.column_stack([tone(1.0, RATE, frequency=500.0)[:, 0], np.zeros(RATE, dtype=np.float32)])
    both = spectrogram(stereo, RATE)
    left = spectrogram(stereo[:, 0] / 2, RATE)
    assert np.allclose(both.levels, left.levels, atol=1e-3)


def test_noise_fills_the_band_and_the_display_spans_70_db_under_the_loudest_cell():
    result = spectrogram(noise(1.0, RATE, level=0.4), RATE)
    bottom, top = result.display_range()
    assert top == pytest.approx(float(result.levels.max())) and top - bottom == pytest.approx(70.0)
    assert np.median(result.levels[5:-5, 5:-5]) > bottom + 40  # white noise: every row lit


def test_a_real_turn_from_the_sample_logs(annotated_log):
    wav = annotated_log.parent / "travel-20261121-001-turn02-user.wav"
    clip = load_audio(wav)
    result = spectrogram(clip.samples, clip.samplerate)
    assert clip.samplerate == 8000 and result.duration == pytest.approx(soundfile.info(wav).duration)
    assert len(result.times) == int((clip.frames - 1) // 80) + 1
    # Parseval: each column's energy follows the energy of the samples under its window.
    signal = clip.samples[:, 0].astype(np.float64)
    padded = np.pad(signal, (100, 100))
    window = np.hanning(202)[1:-1]  # the periodic Hann window of 200 samples scipy uses
    sample_energy = np.array([np.sum((padded[i * 80 : i * 80 + 200] * window) ** 2) for i in range(len(result.times))])
    column_energy = np.sum(10.0 ** (result.levels.astype(np.float64) / 10.0), axis=0)
    loud = sample_energy > sample_energy.max() * 1e-4
    assert np.corrcoef(np.log(sample_energy[loud]), np.log(column_energy[loud]))[0, 1] > 0.99
    assert result.levels.max() > FLOOR_DB + 40


def test_nothing_to_analyse_is_refused():
    with pytest.raises(ValueError, match="empty"):
        spectrogram(np.zeros(0), RATE)
    with pytest.raises(ValueError, match="0 Hz"):
        spectrogram(np.zeros(10), 0)


@pytest.mark.parametrize(("rate", "seconds"), [(8000, 1.5), (16000, 1.5), (6000, 1.5), (8000, 45.0)])
def test_the_same_levels_as_scipy_signal_spectrogram(rate, seconds):
    """One call of scipy's over the whole clip: the blocks the product computes join without a seam."""
    signal = pytest.importorskip("scipy.signal")
    samples = noise(seconds, rate, level=0.3)[:, 0] + tone(seconds, rate, frequency=700.0, level=0.2)[:, 0]
    ours = spectrogram(samples, rate)
    window, hop, fft_length = frame_lengths(rate)
    frequencies, times, power = signal.spectrogram(
        np.pad(samples, (window // 2, window // 2)),
        rate,
        window="hann",
        nperseg=window,
        noverlap=window - hop,
        nfft=fft_length,
        scaling="spectrum",
        mode="psd",
    )
    kept = frequencies <= TOP_HZ
    assert np.allclose(ours.frequencies, frequencies[kept])
    assert np.allclose(ours.times, times - (window // 2) / rate)
    reference = 10 * np.log10(np.maximum(power[kept], 10 ** (FLOOR_DB / 10)))
    assert np.allclose(ours.levels, reference, atol=0.01)
