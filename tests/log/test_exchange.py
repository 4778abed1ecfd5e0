"""Which turn answers which, and where the other side of a turn speaks (annotator.log.exchange)."""

from __future__ import annotations

from pathlib import Path

from annotator.log.document import LogDocument
from annotator.log.exchange import INPUT, OUTPUT, other_side, prompt_of, reply_to
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log


def _speech_turn(turn_id: str, start: float, said: str) -> str:
    """A system turn whose prompt is also synthesised to a file (audio_output)."""
    return (
        f'<GC_TURN id="{turn_id}" stime="{start}" etime="{start + 2}">'
        + operation(
            turn_id,
            start,
            start + 0.5,
            "paraphrase_reply",
            "nl",
            'type_new_turn="system"',
            data(":reply_string", said, 'type="text_output" type_utt_text="system"'),
        )
        + operation(
            turn_id,
            start + 0.5,
            start + 1.5,
            "synthesize",
            "tts",
            "",
            data(":synth_file", f"s{turn_id}.wav", 'type="audio_output"'),
        )
        + "</GC_TURN>"
    )


def _doc(tmp_path: Path, turns: list[str]) -> LogDocument:
    return LogDocument.load(write_log(tmp_path / "log.xml", log_text([session("s", turns)])))


def test_a_user_turn_answers_the_nearest_system_turn_before_it(tmp_path: Path):
    doc = _doc(
        tmp_path,
        [
            _speech_turn("1", 1000, "where to?"),
            user_turn("2", 1002, "boston"),
            user_turn("3", 1004, "uh boston"),
            _speech_turn("4", 1006, "when?"),
        ],
    )
    one, two, three, four = doc.sessions[0].turns
    assert prompt_of(three) == one and prompt_of(one) is None
    assert reply_to(one) == two and reply_to(four) is None
    assert other_side(three) == (one, OUTPUT)
    assert other_side(one) == (two, INPUT)


def test_audio_inside_the_turn_itself_comes_first(tmp_path: Path):
    inline_prompt = data(":synth_file", "prompt.wav", 'type="audio_output"')
    doc = _doc(
        tmp_path,
        [
            _speech_turn("1", 1000, "where to?"),
            user_turn("2", 1002, "boston", extra=operation("2", 1002, 1002.1, "play", "audio", "", inline_prompt)),
        ],
    )
    two = doc.sessions[0].turns[1]
    assert other_side(two) == (two, OUTPUT)


def test_no_other_side_says_why(tmp_path: Path):
    doc = _doc(
        tmp_path,
        [
            system_turn("1", 1000, "where to?"),
            user_turn("2", 1002, "boston"),
            '<GC_TURN id="3" stime="1004" etime="1005"/>',
        ],
    )
    one, two, three = doc.sessions[0].turns
    assert other_side(two) == "turn 2: no system speech in this turn or in the system turn before it (turn 1)"
    assert other_side(one) == (two, INPUT)
    assert other_side(three) == "turn 3: its speaker is not known, so it has no other side"
    lonely = _doc(tmp_path, [user_turn("7", 1000, "hello")]).sessions[0].turns[0]
    assert other_side(lonely) == "turn 7: no system speech in this turn, and no system turn before it"
