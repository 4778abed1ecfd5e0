"""oracle_wer and nbest_rank_of_truth / nbest_truth_share: the n-best lists against the transcriptions,
on the sample logs and on logs built with and without lists, flat or in a GC_LIST, keys shuffled;
in the tree export, the streaming export (byte for byte the same) and the typed tables."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from annotator.analysis.nbest_oracle import cached_turn_oracle, session_oracle, turns_oracle
from annotator.export.csv_export import export_csv
from annotator.export.table_schema import FLOAT, NULLABLE_INT, SCHEMAS, read_table
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from tests.support.csv_exports import assert_same_export
from tests.support.xml_builders import data, log_text, operation, session, system_turn, write_log

HYPOTHESIS = 'type="text_input_hypothesis"'


def rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / name, encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def annotation(turn_id: str, said: str) -> str:
    return (
        f'<GC_ANNOT turnid="{turn_id}"><GC_DATA key=":transcription" type_utt_text="transcription">'
        f"{said}</GC_DATA></GC_ANNOT>"
    )


def user_turn(turn_id: str, start: float, heard: str, listed: str = "", said: str | None = None) -> str:
    """A user turn: its transcription (if SAID), and the recognizer's text with LISTED beside it."""
    return (
        f'<GC_TURN id="{turn_id}" stime="{start}" etime="{start + 2}">'
        + (annotation(turn_id, said) if said is not None else "")
        + operation(turn_id, start, start + 1, "record", "audio", 'type_new_turn="user"')
        + operation(
            turn_id,
            start + 1,
            start + 1.5,
            "recognize",
            "recognizer",
            "",
            data(":input_string", heard, 'type="text_input" type_utt_text="asr"') + listed,
        )
        + "</GC_TURN>"
    )


def in_a_list(*items: str) -> str:
    return f'<GC_DATA key=":nbest_list"><GC_LIST name=":nbest_list">{"".join(items)}</GC_LIST></GC_DATA>'


@pytest.fixture
def built_log(tmp_path: Path) -> Path:
    """s1: turn 2's truth is in no alternative (keys shuffled in a GC_LIST); turn 4 has a transcription
    and no list; turn 6 a list and no transcription. s2: a flat list without key indices, truth second."""
    shuffled = in_a_list(
        data(":nbest_list[1]", "to boston", HYPOTHESIS), data(":nbest_list[0]", "to austin", HYPOTHESIS)
    )
    flat = data(":hyp", "yes please", HYPOTHESIS) + data(":hyp", "Yes.", HYPOTHESIS)
    first = session(
        "s1",
        [
            system_turn("1", 1000, "Where to?"),
            user_turn("2", 1005, "to austin", shuffled, said="to boston please"),
            system_turn("3", 1010, "When?"),
            user_turn("4", 1015, "monday", said="on monday"),
            system_turn("5", 1020, "Anything else?"),
            user_turn("6", 1025, "no", data(":nbest_list[0]", "no", HYPOTHESIS)),
        ],
    )
    second = session(
        "s2",
        [system_turn("1", 3000, "Shall I book it?"), user_turn("2", 3005, "yes please", flat, said="yes")],
        start=3000,
        end=4000,
    )
    (tmp_path / "built").mkdir()
    return write_log(tmp_path / "built" / "built-hublog.xml", log_text([first, second]))


def test_the_sample_logs_truth_is_in_every_list_of_session_001(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    export_csv([corpus], out)
    turns = {(r["file"].split("/")[0], r["turn_id"]): r for r in rows(out, "turns.csv")}
    # 001 turn 2: said "i want to fly to boston", heard "... austin" (1 of 6 words wrong), alternative 2 is right
    assert (
        turns["travel-20261121-001", "2"]["wer"],
        turns["travel-20261121-001", "2"]["oracle_wer"],
        turns["travel-20261121-001", "2"]["nbest_rank_of_truth"],
    ) == (repr(1 / 6), "0.0", "2")
    # turn 6: "[noise] from chicago please" normalises to alternative 2, "from chicago please"
    assert turns["travel-20261121-001", "6"]["nbest_rank_of_truth"] == "2"
    assert turns["travel-20261121-001", "4"]["nbest_rank_of_truth"] == "1"
    assert (
        turns["travel-20261121-001", "1"]["oracle_wer"]
        == turns["travel-20261121-001", "1"]["nbest_rank_of_truth"]
        == ""
    )
    # 003 turn 6 has a list but no transcription yet: nothing to compare
    assert (
        turns["travel-20261121-003", "6"]["oracle_wer"]
        == turns["travel-20261121-003", "6"]["nbest_rank_of_truth"]
        == ""
    )
    sessions = {r["file"].split("/")[0]: r for r in rows(out, "sessions.csv")}
    assert (
        sessions["travel-20261121-001"]["wer"],
        sessions["travel-20261121-001"]["oracle_wer"],
        sessions["travel-20261121-001"]["nbest_truth_share"],
    ) == (repr(2 / 22), "0.0", "1.0")
    assert sessions["travel-20261121-003"]["oracle_wer"] == sessions["travel-20261121-003"]["nbest_truth_share"] == ""


def test_the_worked_example_sample_003_turn_6(sample_logs):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    session = document.sessions[0]
    turn = next(t for t in session.turns if t.id == "6")
    assert cached_turn_oracle(turn) is None  # no transcription yet
    set_transcription(turn, "leaving from zürich")
    oracle = cached_turn_oracle(turn)
    assert (oracle.oracle_wer, oracle.rank_of_truth) == (0.0, 2)
    set_transcription(turn, "Leaving from Zürich, please.")  # the facts cache forgets the turn's result
    oracle = cached_turn_oracle(turn)
    assert (oracle.best.errors, oracle.best.reference_words, oracle.rank_of_truth) == (1, 4, None)
    assert oracle.oracle_wer == 0.25
    assert session_oracle(turns_oracle(session.turn_facts())).oracle_wer == 0.25


def test_built_logs_in_both_exports_and_the_typed_tables(built_log: Path, tmp_path: Path):
    written = assert_same_export([built_log], tmp_path)  # the streaming export is the tree export, byte for byte
    out = tmp_path / "streamed"
    turns = {(r["session_id"], r["turn_id"]): r for r in rows(out, "turns.csv")}
    cells = {key: (r["oracle_wer"], r["nbest_rank_of_truth"]) for key, r in turns.items() if r["speaker"] == "user"}
    assert cells == {
        ("s1", "2"): (repr(1 / 3), ""),  # best: "to boston" against "to boston please", one deletion in 3 words
        ("s1", "4"): ("", ""),  # a transcription, no list
        ("s1", "6"): ("", ""),  # a list, no transcription
        ("s2", "2"): ("0.0", "2"),  # "Yes." is "yes" after the normalisation
    }
    sessions = {r["session_id"]: (r["oracle_wer"], r["nbest_truth_share"]) for r in rows(out, "sessions.csv")}
    assert sessions == {"s1": (repr(1 / 3), "0.0"), "s2": ("0.0", "1.0")}
    typed = read_table(written["turns.csv"], "turns")
    assert str(typed["oracle_wer"].dtype) == FLOAT and str(typed["nbest_rank_of_truth"].dtype) == NULLABLE_INT
    assert typed["nbest_rank_of_truth"].isna().sum() == len(typed) - 1
    assert SCHEMAS["sessions"]["oracle_wer"] == SCHEMAS["sessions"]["nbest_truth_share"] == FLOAT


def test_ties_go_to_the_better_rank_and_words_against_nothing_are_no_rate(tmp_path: Path):
    tie = in_a_list(data(":nbest_list[0]", "to austin", HYPOTHESIS), data(":nbest_list[1]", "to houston", HYPOTHESIS))
    noise = in_a_list(data(":nbest_list[0]", "uh huh", HYPOTHESIS))
    path = write_log(
        tmp_path / "ties.xml",
        log_text(
            [
                session(
                    "s1",
                    [
                        user_turn("2", 1005, "to austin", tie, said="to boston"),
                        user_turn("4", 1010, "uh huh", noise, said="[noise]"),
                    ],
                )
            ]
        ),
    )
    found = turns_oracle(LogDocument.load(path).sessions[0].turn_facts())
    assert (found[0].best.substitutions, found[0].rank_of_truth) == (1, None)
    assert (found[1].best.insertions, found[1].oracle_wer) == (2, None)
    figures = session_oracle(found)
    assert (figures.oracle_wer, figures.truth_share, figures.n_turns) == (3 / 2, 0.0, 2)
