"""Which turns of a log are aligned, to which audio, with which words."""

from __future__ import annotations

from annotator.alignment.turns import turns_to_align
from annotator.log.annotations import set_transcription
from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log


def _document(folder):
    (folder / "u1.wav").write_bytes(b"RIFF")
    (folder / "prompt.wav").write_bytes(b"RIFF")
    turns = [
        system_turn("0", 999.0, "Where to?", audio="prompt.wav"),
        user_turn("1", 1000.0, "to boston"),
        user_turn("2", 1003.0, "to austin"),  # its u2.wav is missing
        system_turn("3", 1006.0, "Goodbye."),  # no audio_output: said, but nothing to align it to
    ]
    return LogDocument.load(write_log(folder / "log.xml", log_text([session("s1", turns)])))


def test_user_turns_take_the_recognizer_hypothesis_until_transcribed_and_system_turns_their_prompt(tmp_path):
    document = _document(tmp_path)
    found = {turn.turn_id: turn for turn in turns_to_align(document, AudioResolver(tmp_path))}
    assert (found["0"].speaker, found["0"].text, found["0"].audio) == ("system", "Where to?", tmp_path / "prompt.wav")
    assert (found["1"].speaker, found["1"].text, found["1"].audio) == ("user", "to boston", tmp_path / "u1.wav")
    assert found["2"].audio is None and "u2.wav" in found["2"].audio_problem
    assert found["3"].audio is None and found["3"].audio_problem == "the turn names no audio_output"

    set_transcription(document.sessions[0].turns[1], "two boston tickets")
    found = {turn.turn_id: turn for turn in turns_to_align(document, AudioResolver(tmp_path))}
    assert found["1"].text == "two boston tickets"
