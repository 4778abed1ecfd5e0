"""How long a session the Praat and ELAN export makes a WAV of, and the one line refusing a longer one.

    check_session_span(session, timeline, tiers)   # before any clip is decoded
    check_wav_size(session, audio)                 # once the clips' rate says how big the WAV is

A Communicator session lasts minutes. One whose times span more than MAX_SESSION_HOURS has a time
typed wrong (a start of 0 before epoch times, an etime with a digit too many, a start after its
turns), and its WAV, silence at the clips' rate, would fill the disk: 30 days at 16 kHz is 166 GB.
A WAV file cannot pass 4 GiB either (RIFF sizes are 32-bit): at the clips' rate that can come
first (18.6 h at 16 kHz, 6.2 h at 48 kHz). Either is an AnnotatorError naming the log, the
session and its times, raised before anything is written.
"""

from __future__ import annotations

from annotator.errors import AnnotatorError
from annotator.export.session_audio import SessionAudio
from annotator.export.session_tiers import SessionTiers
from annotator.log.elements import Session
from annotator.timeline.data import TimelineData

MAX_SESSION_HOURS = 24
WAV_MAX_BYTES = 2**32 - 1


class SessionTooLongError(AnnotatorError):
    """A session the Praat and ELAN export refuses to make a WAV of."""


def check_session_span(session: Session, timeline: TimelineData, tiers: SessionTiers) -> None:
    """Refuse SESSION when its times (TIMELINE's, in seconds from its start) span more than MAX_SESSION_HOURS."""
    lows = [0.0] + [b[0] for lane in timeline.lanes for b in (lane.bars.bounds(), lane.ticks.bounds()) if b]
    turns = timeline.turns.bounds()
    earliest = min(lows + ([turns[0]] if turns else []))
    latest = max(timeline.extent, tiers.duration_ms / 1000)
    span = latest - earliest
    if span <= MAX_SESSION_HOURS * 3600:
        return
    origin = session.origin
    logged = ""
    if origin is not None:
        scale = session.unit.value  # seconds back to the log's own unit
        logged = f" (from {_number(origin + earliest * scale)} to {_number(origin + latest * scale)}, as the log writes them)"
    raise SessionTooLongError(
        f"{session.document.path}: session {session.id}: its times span {_duration(span)}{logged}, more than the "
        f"{MAX_SESSION_HOURS} h a Praat or ELAN export makes a WAV of (a time typed wrong?); nothing written"
    )


def check_wav_size(session: Session, audio: SessionAudio) -> None:
    """Refuse SESSION when its WAV would be larger than a WAV file can be."""
    if audio.size <= WAV_MAX_BYTES:
        return
    raise SessionTooLongError(
        f"{session.document.path}: session {session.id}: its WAV would be {audio.size / 1e9:.1f} GB "
        f"({_duration(audio.frames / audio.rate)} of 16-bit stereo at {audio.rate} Hz), more than a WAV file "
        "holds (4 GiB); nothing written"
    )


def _duration(seconds: float) -> str:
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    days = seconds / 86400
    return f"{days:.1f} days" if days < 730 else f"{days / 365.25:,.0f} years"


def _number(value: float) -> str:
    """VALUE as a log writes a time: a plain numeral, no exponent."""
    return format(value, ".3f").rstrip("0").rstrip(".")
