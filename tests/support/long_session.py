"""Generate a log of ONE session with many turns (default 70,000): the shape the turn table must scroll.

    python tests/support/long_session.py [--turns 70000] [OUT.xml]

Turns alternate system / user. Each system turn says a prompt and names its synthesised audio; each
user turn names its recorded audio and what the recognizer heard; every third user turn is
transcribed in the turn, one in fifty at session level (a GC_ANNOT with its turnid after the turns),
the rest are still to transcribe. The audio files do not exist (as in most logs copied without their
audio). About 1 KB per turn: 70,000 turns make about 70 MB.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

WORDS = "i want to fly to boston from denver on monday morning please the first flight in the evening".split()
CACHE = Path(tempfile.gettempdir()) / "annotator-bench"


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _system_turn(out, number: int, at: float, rng: random.Random) -> None:
    out.write(
        f'    <GC_TURN id="{number}" stime="{at:.3f}" etime="{at + 2:.3f}">\n'
        f'      <GC_OPERATION name="paraphrase_reply" server="nl" turnid="{number}" stime="{at:.3f}" etime="{at + 0.1:.3f}"'
        f' type_new_turn="system" type_prompt=":p{number % 7}">\n'
        f'        <GC_DATA key=":reply_string" type="text_output" type_utt_text="system">{_sentence(rng, 8)}</GC_DATA>\n'
        f"      </GC_OPERATION>\n"
        f'      <GC_OPERATION name="play_audio" server="audio" turnid="{number}" stime="{at + 0.2:.3f}" etime="{at + 1.9:.3f}"'
        f' type_start_utt="system" type_end_utt="system">\n'
        f'        <GC_DATA key=":synth_file" type="audio_output">turn{number}-system.wav</GC_DATA>\n'
        f"      </GC_OPERATION>\n"
        f"    </GC_TURN>\n"
    )


def _user_turn(out, number: int, at: float, rng: random.Random, said: str | None) -> None:
    annotation = (
        ""
        if said is None
        else f'      <GC_ANNOT turnid="{number}">\n'
        f'        <GC_DATA key=":transcription" type_utt_text="transcription">{said}</GC_DATA>\n'
        f"      </GC_ANNOT>\n"
    )
    out.write(
        f'    <GC_TURN id="{number}" stime="{at:.3f}" etime="{at + 2:.3f}">\n'
        + annotation
        + f'      <GC_OPERATION name="record_utterance" server="audio" turnid="{number}" stime="{at:.3f}" etime="{at + 1.5:.3f}"'
        f' type_new_turn="user" type_start_utt="user" type_end_utt="user">\n'
        f'        <GC_DATA key=":utterance_file" type="audio_input">turn{number}-user.wav</GC_DATA>\n'
        f"      </GC_OPERATION>\n"
        f'      <GC_OPERATION name="recognize" server="recognizer" turnid="{number}" stime="{at + 1.5:.3f}" etime="{at + 1.9:.3f}">\n'
        f'        <GC_DATA key=":input_string" type="text_input" type_utt_text="asr">{_sentence(rng, 7)}</GC_DATA>\n'
        f"      </GC_OPERATION>\n"
        f"    </GC_TURN>\n"
    )


def make_long_session(path: str | Path, turns: int = 70_000, seed: int = 12) -> Path:
    path = Path(path)
    rng = random.Random(seed)
    session_level: list[tuple[int, str]] = []
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG logfile_version="11">\n')
        out.write(f'  <GC_SESSION id="long" stime="1000.000" etime="{1000 + 2 * turns:.3f}">\n')
        for index in range(turns):
            number, at = index + 1, 1000.0 + 2 * index
            if index % 2 == 0:
                _system_turn(out, number, at, rng)
                continue
            user = index // 2
            said = _sentence(rng, 7)
            if user % 50 == 7:
                session_level.append((number, said))
            _user_turn(out, number, at, rng, said if user % 3 == 0 else None)
        for number, said in session_level:
            out.write(
                f'    <GC_ANNOT turnid="{number}">\n'
                f'      <GC_DATA key=":transcription" type_utt_text="transcription">{said}</GC_DATA>\n'
                f"    </GC_ANNOT>\n"
            )
        out.write("  </GC_SESSION>\n</GC_LOG>\n")
    return path


def cached_long_session(turns: int = 70_000) -> Path:
    """The log of TURNS turns, generated once into the temporary folder."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"long-session-{turns}.xml"
    if not path.exists():
        partial = path.with_suffix(".partial")
        make_long_session(partial, turns)
        partial.replace(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=70_000)
    parser.add_argument("out", nargs="?", type=Path)
    args = parser.parse_args()
    path = make_long_session(args.out, args.turns) if args.out else cached_long_session(args.turns)
    print(f"{path}: {args.turns} turns, {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
