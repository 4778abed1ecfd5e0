"""The doubt score (annotator.analysis.doubt, docs/metrics.md "Doubt") on real XML: the sample logs and small logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.doubt import WEIGHTS, session_doubts
from annotator.log.document import LogDocument


def _doubts(path: Path, session: int = 0) -> dict[str, object]:
    s = LogDocument.load(path).sessions[session]
    return {turn.id: doubt for turn, doubt in zip(s.turns, session_doubts(s.turn_facts()))}


def _log(tmp_path: Path, turns: str) -> Path:
    path = tmp_path / "small.xml"
    path.write_text(
        f'<?xml version="1.0"?>\n<GC_LOG><GC_SESSION id="s">{turns}</GC_SESSION></GC_LOG>\n', encoding="utf-8"
    )
    return path


def _system(turn_id: str, text: str, prompt: str = "", extra: str = "") -> str:
    prompt_attr = f' type_prompt="{prompt}"' if prompt else ""
    return (
        f'<GC_TURN id="{turn_id}"><GC_OPERATION name="reply" type_new_turn="system"{prompt_attr}>'
        f'<GC_DATA key=":reply_string" type_utt_text="system"{extra}>{text}</GC_DATA></GC_OPERATION></GC_TURN>'
    )


def _user(turn_id: str, heard: str, body: str = "") -> str:
    return (
        f'<GC_TURN id="{turn_id}"><GC_OPERATION name="recognize" type_new_turn="user">'
        f'<GC_DATA key=":input_string" type_utt_text="asr">{heard}</GC_DATA>{body}</GC_OPERATION></GC_TURN>'
    )


def test_every_user_turn_of_the_sample_logs_has_a_score_in_0_1_and_system_turns_none(sample_logs):
    for path in sample_logs:
        s = LogDocument.load(path).sessions[0]
        for turn, doubt in zip(s.turns, session_doubts(s.turn_facts())):
            if turn.speaker == "user":
                assert 0.0 <= doubt.score <= 1.0 and doubt.reasons
            else:
                assert doubt is None


@pytest.mark.parametrize(
    ("log", "turn_id", "reason"),
    [
        ("travel-20261121-001", "2", "the user said no to the system's confirmation of it"),  # austin for boston
        ("travel-20261121-002", "04", "the system answered with an error or help message"),  # "from the mile i city"
        ("travel-20261121-003", "6", "the user said no to the system's confirmation of it"),  # munich for zürich
    ],
)
def test_the_misheard_turns_of_the_sample_logs_are_among_the_most_doubtful_of_their_session(log, turn_id, reason):
    path = next(Path("sample_logs", log).glob("*.xml"))
    doubts = {tid: d for tid, d in _doubts(path).items() if d is not None}
    ranked = sorted(doubts, key=lambda tid: -doubts[tid].score)
    assert ranked.index(turn_id) < len(ranked) // 2
    assert reason in doubts[turn_id].reasons
    # Measured: 001 turn 2 0.88 (first of 6), 002 turn 04 0.83 (first of 5), 003 turn 6 0.847 (second of 7).
    assert doubts[turn_id].score > 0.8


def test_a_turn_the_log_says_nothing_about_has_no_doubt_and_no_reason(tmp_path):
    doubts = _doubts(_log(tmp_path, _user("1", "to boston")))
    assert doubts["1"].score == 0.0 and doubts["1"].reasons == ()


def test_a_failed_parse_alone_gives_its_weight(tmp_path):
    parse = '<GC_DATA key=":input_parse_successful" type="input_parse_successful">0</GC_DATA>'
    doubts = _doubts(_log(tmp_path, _user("1", "to boston", parse)))
    assert doubts["1"].score == pytest.approx(WEIGHTS["parse"])
    assert doubts["1"].reasons == ("the parse failed",)


def test_an_error_message_or_the_same_prompt_after_the_turn_is_a_reprompt(tmp_path):
    turns = (
        _system("1", "Where to?", ":destination")
        + _user("2", "to boston")
        + _system("3", "Sorry. Where to?", ":destination")
        + _user("4", "to boston")
        + _system("5", "When?", ":date", extra=' type_error_msg="true"')
        + _user("6", "friday")
        + _system("7", "Booked.", ":done")
    )
    doubts = _doubts(_log(tmp_path, turns))
    assert doubts["2"].score == pytest.approx(WEIGHTS["reprompt"])
    assert doubts["2"].reasons == ("the system asked again (:destination)",)
    assert doubts["4"].score == pytest.approx(WEIGHTS["reprompt"])  # the error message after it
    assert doubts["6"].score == 0.0 and doubts["6"].reasons == ("the system went on",)


def test_a_no_to_a_confirmation_charges_the_turn_confirmed_and_the_answer(tmp_path):
    turns = (
        _user("1", "to austin")
        + _system("2", "Austin. Is that right?", ":confirm_destination")
        + _user("3", "no boston")
        + _system("4", "Boston. Is that right?")
        + _user("5", "yes")
    )
    doubts = _doubts(_log(tmp_path, turns))
    denial, itself = WEIGHTS["denial"], WEIGHTS["denial_itself"]
    assert doubts["1"].score == pytest.approx(denial)  # the system went on (0) and the caller said no (1)
    assert doubts["1"].reasons[0] == "the user said no to the system's confirmation of it"
    assert doubts["3"].score == pytest.approx(itself)  # it says no; "yes" to its own confirmation
    assert doubts["5"].score == 0.0


def test_n_best_alternatives_far_from_the_top_raise_the_doubt(tmp_path):
    def nbest(*texts: str) -> str:
        return "".join(
            f'<GC_DATA key=":nbest_list[{i}]" type="text_input_hypothesis">{t}</GC_DATA>' for i, t in enumerate(texts)
        )

    turns = (
        _user("1", "to boston", nbest("to boston", "to austin"))  # 1 of 2 words: 0.5
        + _user("2", "to boston", nbest("to boston", "to boston please", "do boston"))
    )  # 1/3 and 1/2
    doubts = _doubts(_log(tmp_path, turns))
    assert doubts["1"].score == pytest.approx(WEIGHTS["nbest"] * 0.5)
    assert doubts["2"].score == pytest.approx(WEIGHTS["nbest"] * (1 / 3 + 1 / 2) / 2, abs=1e-6)


def test_a_score_is_compared_with_the_session_per_phone_and_needs_three_scored_turns(tmp_path):
    def scores(total: float, phones: int) -> str:
        return (
            f'<GC_DATA key=":rec_scores"><GC_FRAME name="scores"><GC_DATA key=":total_score">"{total}"</GC_DATA>'
            f'<GC_DATA key=":nphones">{phones}</GC_DATA></GC_FRAME></GC_DATA>'
        )

    # Per phone: -10, -10, -10, -40: mean -17.5, SD 13.0; the last is 1.73 SD below: share 0.87.
    turns = "".join(
        _user(str(i), "to boston", scores(total, phones))
        for i, (total, phones) in enumerate([(-100, 10), (-50, 5), (-200, 20), (-400, 10)])
    )
    doubts = _doubts(_log(tmp_path, turns))
    below = 22.5 / (3**0.5 * 7.5)
    assert doubts["3"].score == pytest.approx(WEIGHTS["score"] * below / 2, abs=1e-6)
    assert doubts["3"].reasons == ("recognizer score per phone 1.7 SD below the session's mean",)
    assert doubts["0"].score == 0.0  # above the mean: no doubt from the score
    two = _doubts(_log(tmp_path, "".join(_user(str(i), "x", scores(-10 * (i + 1), 5)) for i in range(2))))
    assert two["1"].reasons == ()  # two scored turns: no mean to compare with


def test_the_word_distance_counts_the_errors_the_metrics_alignment_counts():
    from itertools import product

    from annotator.analysis.doubt import word_distance
    from annotator.analysis.word_alignment import align_words

    lists = [[], ["a"], ["a", "b"], ["b", "a"], ["a", "b", "a"], ["c", "a", "b", "c"], ["a", "c", "c", "b", "a"]]
    pairs = list(product(lists, lists))
    assert [word_distance(a, b) for a, b in pairs] == [counts.errors for counts in align_words(pairs)]


def test_the_most_doubtful_turn_to_transcribe_moves_on_and_comes_back_when_undone(raw_log_002):
    from annotator.analysis.doubt import most_doubtful_to_transcribe
    from annotator.log.annotations import set_transcription

    session = LogDocument.load(raw_log_002).sessions[0]
    turns = session.turns  # by doubt: 04 (index 3), 06 (5), 10 (9), 08 (7), 02 (1)
    assert most_doubtful_to_transcribe(session) == 3
    assert most_doubtful_to_transcribe(session, besides=3) == 5
    set_transcription(turns[3], "from the mile high city")
    set_transcription(turns[5], "denver")
    assert most_doubtful_to_transcribe(session) == 9
    set_transcription(turns[3], None)  # removed again (an undo): the most doubtful once more
    assert most_doubtful_to_transcribe(session) == 3
    for index in (1, 3, 7, 9):
        set_transcription(turns[index], "done")
    assert most_doubtful_to_transcribe(session) is None


@pytest.fixture
def raw_log_002(corpus: Path) -> Path:
    return next(corpus.glob("*002/*.xml"))
