"""A big, realistic Communicator log for benchmarks: `make_big_log(path, target_mb=100)`.

Sessions of alternating system and user turns shaped like the sample logs
and the standard's examples: a system turn paraphrases, synthesises and plays
a reply; a user turn records, recognises (n-best list, score frame, virtual
recognition_duration), parses into a concept frame and consults the dialogue
manager and back end; hub messages and events are interleaved. Half of the
sessions carry human annotations (transcriptions, task completion) so that
the metrics have work to do. Deterministic for a given size; written with
plain string writes, a few seconds for 100 MB.

    python tests/support/big_log.py [--mb 100] [OUT]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

CACHE = Path(__file__).resolve().parents[1] / "benchmarks" / ".cache"  # tests/benchmarks/.cache, ignored by git

VERSION = 2  # bump when the generated log changes, so that stale cached logs are not used

CITIES = [
    "boston",
    "newark",
    "san francisco",
    "denver",
    "chicago",
    "atlanta",
    "seattle",
    "zürich",
    "dallas",
    "miami",
    "portland",
    "houston",
    "phoenix",
    "detroit",
    "minneapolis",
    "salt lake city",
]
AIRLINES = ["american", "united", "delta", "continental", "northwest", "us airways"]
PROMPTS = [
    ("destination", "Where would you like to fly to?"),
    ("source", "Where are you leaving from?"),
    ("date", "What day would you like to travel?"),
    ("time", "Do you prefer a morning, afternoon or evening flight?"),
    ("airline", "Do you have a preferred airline?"),
    ("confirm", "I have a {airline} flight from {src} to {dst} leaving at {hour} {ampm}. Shall I book it?"),
]
USER_SAYS = [
    "i'd like to fly to {dst}",
    "from {src}",
    "next {day} please",
    "in the {part}",
    "{airline} if possible",
    "yes book it",
    "uh i want a flight from {src} to {dst} on {day}",
    "no the {part} flight",
    "[noise] {dst}",
]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
PARTS = ["morning", "afternoon", "evening"]


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class _Writer:
    def __init__(self, out, rng: random.Random):
        self.out = out
        self.rng = rng
        self.clock = 0.0
        self.tidx = 0
        self.operations = 0

    def tick(self, low: float = 0.01, high: float = 0.3) -> float:
        self.clock += self.rng.uniform(low, high)
        return self.clock

    def next_tidx(self) -> int:
        self.tidx += 1
        return self.tidx

    def operation(
        self,
        turnid: str,
        name: str,
        server: str,
        port: int,
        body: str = "",
        attrs: str = "",
        span: tuple[float, float] = (0.01, 0.4),
    ) -> None:
        start = self.tick(0.005, 0.05)
        end = self.tick(*span)
        self.operations += 1
        close = f">\n{body}      </GC_OPERATION>\n" if body else "/>\n"
        self.out.write(
            f'      <GC_OPERATION name="{name}" server="{server}" location="localhost:{port}" '
            f'turnid="{turnid}" stime="{start:.3f}" etime="{end:.3f}" tidx="{self.next_tidx()}"'
            f' reply_status="normal"{attrs}{close}'
        )

    def message(self, turnid: str, name: str, server: str, port: int, body: str = "") -> None:
        self.out.write(
            f'      <GC_MESSAGE name="{name}" direction="server_to_hub" server="{server}" '
            f'location="localhost:{port}" turnid="{turnid}" time="{self.tick(0.001, 0.02):.3f}" '
            f'tidx="{self.next_tidx()}">\n{body}      </GC_MESSAGE>\n'
        )

    def event(self, turnid: str, etype: str, name: str) -> None:
        self.out.write(
            f'      <GC_EVENT etype="{etype}" server="hub" location="localhost:15000" turnid="{turnid}" '
            f'time="{self.tick(0.001, 0.01):.3f}" name="{name}" tidx="{self.next_tidx()}"/>\n'
        )


def _data(key: str, text: str, attrs: str = "", indent: str = "        ") -> str:
    return f'{indent}<GC_DATA key="{key}" dtype="string"{attrs}>{_esc(text)}</GC_DATA>\n'


def _fill(template: str, slots: dict[str, str]) -> str:
    return template.format(**slots)


def _system_turn(
    w: _Writer,
    session_tag: str,
    turn_id: str,
    number: int,
    prompt: tuple[str, str],
    slots: dict[str, str],
    error: bool,
    first: bool,
    last: bool,
) -> None:
    key, text = prompt
    text = _fill(text, slots)
    if error:
        text = "I'm sorry, I didn't understand that. " + text
    error_attr = ' type_error_msg="true"' if error else ""
    w.operation(turn_id, "generate_response", "dialogue", 11200, _data(":reply_key", key))
    w.operation(turn_id, "set_turn_context", "hub", 15000)
    frame = (
        '        <GC_DATA key=":reply_frame" dtype="frame">\n          <GC_FRAME name="reply" frame_type="clause">\n'
        + _data(":prompt_key", key, indent="            ")
        + _data(":domain", "flight", indent="            ")
        + "          </GC_FRAME>\n        </GC_DATA>\n"
    )
    w.operation(
        turn_id,
        "paraphrase_reply",
        "nl",
        11000,
        _data(":reply_string", text, f' type="text_output" type_utt_text="system"{error_attr}') + frame,
        f' type_new_turn="system" type_prompt="{key}"' + (' type_start_task="total"' if first else ""),
    )
    w.event(turn_id, "LOCK", ":hub_get_session_lock")
    wav = f"{session_tag}-synth-{number:03d}.wav"
    w.operation(
        turn_id,
        "synthesize",
        "synthesizer",
        15500,
        _data(":synth_wavfile", wav, ' type="audio_output" mime_type="audio/x-wav"'),
        span=(0.1, 0.6),
    )
    w.operation(turn_id, "synthesis_duration", "synthesizer", 15500, "", ' type="synthesis_duration"', (0.1, 0.6))
    w.message(
        turn_id, "filelog", "audio", 15000, _data(":synth_log_filename", f"/home/communicator/logs/{session_tag}/{wav}")
    )
    w.operation(
        turn_id,
        "play_audio",
        "audio",
        15000,
        _data(":duration", f"{w.rng.uniform(1, 6):.2f}"),
        ' type_start_utt="system" type_end_utt="system"' + (' type_end_task="true"' if last else ""),
        (1.0, 5.0),
    )
    w.operation(turn_id, "reset_timeout", "hub", 15000)
    w.event(turn_id, "UNLOCK", ":hub_release_session_lock")


def _user_turn(
    w: _Writer,
    session_tag: str,
    turn_id: str,
    number: int,
    said: str,
    heard: str,
    annotate: bool,
    slots: dict[str, str],
) -> None:
    if annotate:
        w.out.write(
            f'      <GC_ANNOT turnid="{turn_id}">\n'
            + _data(":transcription", said, ' type_utt_text="transcription"')
            + "      </GC_ANNOT>\n"
        )
    wav = f"{session_tag}-utt-{number:03d}.wav"
    w.operation(
        turn_id,
        "record_utterance",
        "audio",
        15000,
        _data(":utterance_file", wav, ' type="audio_input" mime_type="audio/x-wav"'),
        ' type_new_turn="user" type_start_utt="user" type_end_utt="user"',
        (1.0, 4.0),
    )
    w.message(turn_id, "audio_ready", "audio", 15000, _data(":sample_rate", "8000"))
    w.operation(turn_id, "check_hangup", "audio", 15000)
    words = heard.split()
    nbest = "".join(
        _data(
            f":nbest_list[{i}]",
            " ".join(words[:-1] + [w.rng.choice(CITIES)]) if i else heard,
            ' type="text_input_hypothesis"',
            "            ",
        )
        for i in range(4)
    )
    scores = "".join(
        _data(f":{name}", f"{w.rng.uniform(-700, -10):.4f}", indent="            ")
        for name in ("acoustic_score", "ngram_score", "total_score")
    )
    w.operation(
        turn_id,
        "recognize",
        "recognizer",
        11100,
        _data(":input_string", heard, ' type="text_input" type_utt_text="asr"')
        + '        <GC_DATA key=":nbest_list">\n          <GC_LIST name=":nbest_list">\n'
        + nbest
        + "          </GC_LIST>\n        </GC_DATA>\n"
        + '        <GC_DATA key=":rec_scores">\n          <GC_FRAME name="scores" frame_type="clause">\n'
        + scores
        + "          </GC_FRAME>\n        </GC_DATA>\n",
        span=(0.2, 1.2),
    )
    w.operation(turn_id, "recognition_duration", "recognizer", 11100, "", ' type="recognition_duration"', (0.2, 1.2))
    concepts = "".join(
        _data(f":{k}", v, indent="            ")
        for k, v in (("destination", slots["dst"]), ("source", slots["src"]), ("date", slots["day"]))
    )
    w.operation(
        turn_id,
        "parse",
        "nl",
        11000,
        '        <GC_DATA key=":parse_frame" type="concept">\n          <GC_FRAME name="flight_query" frame_type="clause">\n'
        + concepts
        + "          </GC_FRAME>\n        </GC_DATA>\n"
        + _data(":parse_ok", "1", ' type="input_parse_successful"'),
    )
    w.event(turn_id, "LOCK", ":hub_get_session_lock")
    w.operation(turn_id, "turn_management", "dialogue", 11200, _data(":dialogue_state", f"state_{number}"))
    w.operation(turn_id, "update_context", "dialogue", 11200)
    w.operation(
        turn_id,
        "query_flights",
        "backend",
        11300,
        _data(":sql", f"select * from flights where dst='{slots['dst']}'"),
        span=(0.05, 0.8),
    )
    w.message(turn_id, "db_result", "backend", 11300, _data(":n_rows", str(w.rng.randint(0, 40))))
    w.event(turn_id, "UNLOCK", ":hub_release_session_lock")


def _session(w: _Writer, number: int, one_session: bool = False) -> None:
    """Session NUMBER; ONE_SESSION writes only its turns (ids made unique across sessions), to be
    wrapped with the others in a single GC_SESSION."""
    rng = w.rng
    tag = f"travel-20261121-{number:05d}"
    start = 941473394.0 + number * 900.0
    if not one_session:
        w.clock = start
        w.tidx = 0
    annotate = number % 2 == 0
    out = w.out
    session_parts: list[str] = []
    w.out = _Buffer(session_parts)
    task = rng.choice("1110")
    if annotate and not one_session:
        w.out.write(f'    <GC_ANNOT type_task_completion="{task}"/>\n')
    ids = (
        (lambda turn: f"{number}{turn:02d}", lambda turn: f"{number}{turn:02d}")
        if one_session
        else (lambda turn: f"-{turn:02d}", lambda turn: f"{turn:02d}")
    )
    n_exchanges = rng.randint(5, 9)
    turn = 0
    for exchange in range(n_exchanges):
        slots = {
            "dst": rng.choice(CITIES),
            "src": rng.choice(CITIES),
            "day": rng.choice(DAYS),
            "part": rng.choice(PARTS),
            "airline": rng.choice(AIRLINES),
            "hour": str(rng.randint(1, 12)),
            "ampm": rng.choice(["am", "pm"]),
        }
        turn += 1
        error = rng.random() < 0.1
        _turn(
            w,
            ids[0](turn),
            _system_turn,
            tag,
            ids[0](turn),
            turn,
            PROMPTS[exchange % len(PROMPTS)],
            slots,
            error,
            exchange == 0,
            exchange == n_exchanges - 1,
        )
        turn += 1
        said = _fill(rng.choice(USER_SAYS), slots)
        heard_words = said.replace("[noise] ", "").replace("uh ", "").split()
        if rng.random() < 0.3:
            heard_words[rng.randrange(len(heard_words))] = rng.choice(CITIES)
        _turn(w, ids[1](turn), _user_turn, tag, ids[1](turn), turn, said, " ".join(heard_words), annotate, slots)
    body = "".join(session_parts)
    w.out = out
    if one_session:
        out.write(body)
        return
    out.write(
        f'  <GC_SESSION id="129.10.2.200:1010:{number}" stime="{start:.3f}" etime="{w.clock:.3f}">\n{body}  </GC_SESSION>\n'
    )


def _turn(w: _Writer, turn_id: str, make, *args) -> None:
    """Write one GC_TURN whose end time is the last time written inside it."""
    session_parts = w.out
    body: list[str] = []
    w.out = _Buffer(body)
    start = w.clock
    make(w, *args)
    w.out = session_parts
    w.out.write(
        f'    <GC_TURN id="{turn_id}" stime="{start:.3f}" etime="{w.clock:.3f}">\n{"".join(body)}    </GC_TURN>\n'
    )


class _Buffer:
    def __init__(self, parts: list[str]):
        self.parts = parts

    def write(self, text: str) -> None:
        self.parts.append(text)


def make_big_log(path: str | Path, target_mb: float = 100, one_session: bool = False) -> Path:
    """Write a log of about TARGET_MB megabytes to PATH (deterministic); return PATH. ONE_SESSION puts
    every turn in a single GC_SESSION (tens of thousands of turns) instead of ~2,000 of a dozen turns."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    target = int(target_mb * 1_000_000)
    rng = random.Random(20261121)
    temp = path.with_name(path.name + ".partial")
    with open(temp, "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG logfile_version="11">\n')
        writer = _Writer(out, rng)
        if one_session:
            writer.clock = 941473394.0
            out.write('  <GC_SESSION id="129.10.2.200:1010:1" stime="941473394.000" etime="')
            end_time_at = out.tell()
            out.write('941473394.000">\n')  # rewritten with the real end, of the same width, below
        number = 0
        while out.tell() < target:
            number += 1
            _session(writer, number, one_session)
        if one_session:
            out.write("  </GC_SESSION>\n")
        out.write("</GC_LOG>\n")
        if one_session:
            end = f"{writer.clock:.3f}"
            assert len(end) == len("941473394.000"), "the session's end must fit its placeholder"
            out.seek(end_time_at)
            out.write(end)
    temp.replace(path)
    return path


def cached_big_log(target_mb: float = 100, one_session: bool = False) -> Path:
    """The benchmark log of this size and shape under tests/benchmarks/.cache/, made once."""
    shape = "-one-session" if one_session else ""
    path = CACHE / f"big-v{VERSION}-{target_mb:g}mb{shape}-hublog.xml"
    if not path.exists():
        make_big_log(path, target_mb, one_session)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--one-session", action="store_true", help="every turn in one GC_SESSION")
    parser.add_argument("out", nargs="?", type=Path)
    args = parser.parse_args()
    path = make_big_log(args.out, args.mb, args.one_session) if args.out else cached_big_log(args.mb, args.one_session)
    print(path)


if __name__ == "__main__":
    main()
