"""The audio output: finding it, and turning every way it can be missing into one line.

sounddevice initialises PortAudio when it is imported, so it is imported here
lazily, on first playback, and never by merely importing annotator. Three
things can go wrong, each an AudioError instead of a crash:
  - the PortAudio library is not installed (sounddevice raises OSError);
  - there is no output device (a server, a container, a muted VM);
  - PortAudio aborts the whole process while listing devices. PortAudio 19.6
    (Debian 12, Ubuntu 22.04) asserts `devIdx < numDeviceNames` when ALSA lists
    no PCM at all, e.g. with a missing or empty ALSA configuration (PortAudio
    issue 294, fixed in 19.7). An abort cannot be caught, so on Linux PortAudio
    is first started once in a throwaway child process; only when that child
    survives is it started in this one. (The child is a multiprocessing
    "spawn" process, which also works in a frozen app that calls
    multiprocessing.freeze_support().)
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from annotator.errors import AudioError

PORTAUDIO_MISSING = "PortAudio is not installed (Debian: apt-get install libportaudio2); playback is off"
PROBE_TIME_LIMIT_SECONDS = 60.0
SAMPLE_FORMAT = "float32"

_sounddevice: ModuleType | None = None
_failure: AudioError | None = None  # remembered: PortAudio is started once per process


@dataclass(frozen=True)
class OutputDevice:
    index: int
    name: str
    hostapi: str
    default_samplerate: int
    max_channels: int


def sounddevice() -> ModuleType:
    """The sounddevice module with PortAudio started, or AudioError saying why playback is off."""
    global _sounddevice, _failure
    if _sounddevice is not None:
        return _sounddevice
    if _failure is not None:
        raise _failure
    try:
        if sys.platform.startswith("linux") and "sounddevice" not in sys.modules:
            _probe_portaudio_in_child()
        try:
            import sounddevice as module
        except OSError as error:  # sounddevice's way of saying the shared library is missing
            raise AudioError(PORTAUDIO_MISSING) from error
    except AudioError as error:
        _failure = error
        raise
    _sounddevice = module
    return module


def default_output() -> OutputDevice:
    """The device sound goes to: the system default, else the first one that has outputs."""
    sd = sounddevice()
    try:
        info = sd.query_devices(kind="output")
    except (sd.PortAudioError, ValueError):
        info = _first_output_device(sd)
    if info is None or int(info.get("max_output_channels", 0)) < 1:
        raise AudioError("no audio output device: the system lists none; playback is off")
    hostapi = ""
    try:
        hostapi = str(sd.query_hostapis(int(info["hostapi"]))["name"])
    except (sd.PortAudioError, ValueError, KeyError, IndexError):
        pass
    return OutputDevice(
        index=int(info["index"]),
        name=str(info["name"]),
        hostapi=hostapi,
        default_samplerate=int(round(float(info["default_samplerate"]))),
        max_channels=int(info["max_output_channels"]),
    )


def playable_format(device: OutputDevice, samplerate: int, channels: int) -> tuple[int, int]:
    """The (rate, channels) closest to the clip's that the device accepts.

    The clip's own rate first, else the device's default rate (the caller then
    resamples); the clip's channels, else stereo, else mono (the caller mixes).
    """
    sd = sounddevice()
    rates = _unique([samplerate, device.default_samplerate])
    channel_counts = _unique([min(channels, device.max_channels), 2, 1])
    last_problem = ""
    for count in channel_counts:
        for rate in rates:
            try:
                sd.check_output_settings(device=device.index, samplerate=rate, channels=count, dtype=SAMPLE_FORMAT)
            except (sd.PortAudioError, ValueError) as error:
                last_problem = _one_line(error)
                continue
            return rate, count
    raise AudioError(
        f"the audio output {device.name!r} refuses {samplerate} Hz and {device.default_samplerate} Hz ({last_problem})"
    )


def open_output_stream(
    device: OutputDevice,
    samplerate: int,
    channels: int,
    callback: Callable[..., None],
    finished_callback: Callable[[], None] | None = None,
) -> Any:
    """An unstarted sounddevice.OutputStream of float32 frames; call from the thread that will start it."""
    sd = sounddevice()
    try:
        return sd.OutputStream(
            device=device.index,
            samplerate=samplerate,
            channels=channels,
            dtype=SAMPLE_FORMAT,
            latency="high",  # the callback shares the GIL with the GUI: favour no dropouts over low delay
            callback=callback,
            finished_callback=finished_callback,
        )
    except (sd.PortAudioError, ValueError) as error:
        raise AudioError(f"cannot open the audio output {device.name!r}: {_one_line(error)}") from error


def callback_stop() -> type[BaseException]:
    """The exception a callback raises to end its stream once the buffered sound has played."""
    return sounddevice().CallbackStop


def _probe_portaudio_in_child() -> None:
    context = multiprocessing.get_context("spawn")
    child = context.Process(target=_start_portaudio, name="annotator-audio-probe", daemon=True)
    try:
        child.start()
    except OSError:  # cannot even start a process: skip the probe, not the sound
        return
    child.join(PROBE_TIME_LIMIT_SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        raise AudioError(
            f"no audio output device: the audio system did not answer within {PROBE_TIME_LIMIT_SECONDS:.0f} s; playback is off"
        )
    code = child.exitcode
    if code is not None and code < 0:
        raise AudioError(
            f"no audio output device: the audio system crashed while listing devices ({_signal_name(-code)}); "
            "check the ALSA configuration; playback is off"
        )
    # A plain failure (e.g. PortAudio missing) is reported by the import in this process.


def _start_portaudio() -> None:
    """Runs in the probe child: importing sounddevice starts PortAudio, which may abort. That abort is
    expected and reported by the parent in one line, so it leaves no core file in the user's folder
    (nor one that a test run would take for a crash)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):  # no resource module (Windows): nothing is dumped there anyway
        pass
    try:
        import sounddevice  # noqa: F401
    except Exception:  # noqa: BLE001 - the parent repeats the import and reports it
        raise SystemExit(2) from None


def _first_output_device(sd: ModuleType) -> dict | None:
    try:
        devices = sd.query_devices()
    except (sd.PortAudioError, ValueError):
        return None
    for info in devices:
        if int(info.get("max_output_channels", 0)) > 0:
            return info
    return None


def _unique(values: list[int]) -> list[int]:
    seen: list[int] = []
    for value in values:
        if value > 0 and value not in seen:
            seen.append(value)
    return seen


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _one_line(error: object) -> str:
    return " ".join(str(error).split()) or type(error).__name__
