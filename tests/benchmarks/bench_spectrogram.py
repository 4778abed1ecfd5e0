"""Benchmark of the waveform dock's spectrogram (annotator/audio/spectrogram.py) on 10 s of 8 kHz speech.

    python tests/benchmarks/bench_spectrogram.py [--seconds 10] [--wav PATH]

The speech is espeak-ng's, resampled to 8 kHz mono by sox (else the sample logs' turns joined), cut to
--seconds. Prints the median of RUNS runs of
1. ours: spectrogram(samples, 8000), target < 50 ms, against the baseline measured in the same run:
   numpy alone on the same frames (25 ms periodic Hann windows every 10 ms, one rfft of 256 over all frames,
   squared magnitude), the least any implementation must do;
2. for information, where scipy is installed: scipy.signal.spectrogram (the reference our levels equal),
   scipy's ShortTimeFFT (one FFT per frame from Python), and the cold import of scipy.signal in a fresh
   interpreter, which the annotator avoids by computing with numpy alone (docs/adr/0010-spectrogram.md).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))  # the repository, when run as a script

RUNS = 21
TARGET_MS = 50.0
RATE = 8000
TEXT = (
    "I would like to fly from Boston to San Francisco on the third of December, leaving in the morning, "
    "and come back on the seventh. Is there anything with a window seat? "
)


def speech(seconds: float, wav: Path | None) -> np.ndarray:
    """SECONDS of 8 kHz mono speech as float32."""
    import soundfile

    if wav is None and shutil.which("espeak-ng") and shutil.which("sox"):
        with tempfile.TemporaryDirectory() as folder:
            raw, narrow = Path(folder) / "raw.wav", Path(folder) / "speech.wav"
            subprocess.run(["espeak-ng", "-w", str(raw), TEXT * 3], check=True)
            subprocess.run(["sox", str(raw), "-r", str(RATE), "-c", "1", str(narrow)], check=True)
            samples, rate = soundfile.read(narrow, dtype="float32")
    elif wav is not None:
        samples, rate = soundfile.read(wav, dtype="float32")
    else:
        parts = [soundfile.read(path, dtype="float32")[0] for path in sorted(REPO.glob("sample_logs/*/*.wav"))]
        samples, rate = np.concatenate(parts), RATE
    if samples.ndim == 2:
        samples = samples.mean(axis=1)
    if rate != RATE:
        raise SystemExit(f"{wav}: {rate} Hz, not {RATE} Hz")
    frames = int(seconds * RATE)
    if len(samples) < frames:
        samples = np.tile(samples, frames // len(samples) + 1)
    return np.ascontiguousarray(samples[:frames])


def numpy_frames_fft(samples: np.ndarray) -> np.ndarray:
    window, hop, fft_length = 200, 80, 256
    padded = np.pad(samples, (window // 2, window // 2))
    frames = np.lib.stride_tricks.sliding_window_view(padded, window)[::hop]
    hann = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(window) / window)).astype(np.float32)
    return np.abs(np.fft.rfft(frames * hann, fft_length, axis=1)) ** 2


def scipy_spectrogram(samples: np.ndarray) -> np.ndarray:
    from scipy.signal import spectrogram

    return spectrogram(
        np.pad(samples, (100, 100)),
        RATE,
        window="hann",
        nperseg=200,
        noverlap=120,
        nfft=256,
        scaling="spectrum",
        mode="psd",
    )[2]


def short_time_fft(samples: np.ndarray) -> np.ndarray:
    from scipy.signal import ShortTimeFFT
    from scipy.signal.windows import hann

    stft = ShortTimeFFT(hann(200, sym=False), 80, RATE, mfft=256, scale_to="magnitude")
    return stft.spectrogram(samples)


def median_ms(action: Callable[[], object], runs: int = RUNS) -> float:
    action()  # imports and caches, outside the measurement
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def cold_import_ms() -> float:
    script = "import time; t = time.perf_counter(); import scipy.signal; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    return 1000 * float(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--wav", type=Path, help="8 kHz speech to use instead of espeak-ng's")
    args = parser.parse_args()

    from annotator.audio.spectrogram import spectrogram

    samples = speech(args.seconds, args.wav)
    result = spectrogram(samples, RATE)
    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}; "
        f"{len(samples) / RATE:g} s at {RATE} Hz -> {result.levels.shape[1]} windows x "
        f"{result.levels.shape[0]} rows (0-{result.frequencies[-1]:g} Hz); median of {RUNS} runs"
    )
    ours = median_ms(lambda: spectrogram(samples, RATE))
    baseline = median_ms(lambda: numpy_frames_fft(samples))
    verdict = "PASS" if ours < TARGET_MS else "MISS"
    print(
        f"spectrogram: ours {ours:.2f} ms / numpy FFT of the same frames {baseline:.2f} ms = ratio "
        f"{ours / baseline:.2f} (target < {TARGET_MS:g} ms) {verdict}",
        flush=True,
    )
    try:
        import scipy
    except ImportError:
        return
    print(
        f"for information, scipy {scipy.__version__}: scipy.signal.spectrogram "
        f"{median_ms(lambda: scipy_spectrogram(samples)):.2f} ms; ShortTimeFFT "
        f"{median_ms(lambda: short_time_fft(samples), 5):.2f} ms; cold import of scipy.signal {cold_import_ms():.0f} ms"
    )


if __name__ == "__main__":
    main()
