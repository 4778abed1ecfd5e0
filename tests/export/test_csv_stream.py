"""The streaming CSV export writes exactly what the same row code writes from a loaded tree.

export_csv streams each log (annotator.export.csv_stream); tree_csv (tests/support/csv_exports.py) applies the same rows
(csv_rows.document_rows) to LogDocument.load of each log. Both are written by csv_export.write_csv,
so any difference is the streaming's: the files must be byte for byte the same.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given

from annotator.errors import AnnotatorError, LogReadError
from annotator.export.csv_export import export_csv
from annotator.log.document import LogDocument
from tests.support.big_log import make_big_log
from tests.support.csv_exports import assert_same_export, files, reversed_map
from tests.support.doctype_logs import BODY
from tests.support.fuzzing import element_mutants, fuzz_settings
from tests.support.repository import sample_log_paths
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log


def test_the_sample_logs(tmp_path: Path):
    written = assert_same_export(sample_log_paths(), tmp_path)
    assert written["events.csv"].count(b"\n") > 100  # the logs were exported, not two empty tables


@pytest.mark.parametrize("one_session", [False, True], ids=["many-sessions", "one-session"])
def test_both_generated_shapes(tmp_path: Path, one_session: bool):
    log = make_big_log(tmp_path / "big-hublog.xml", target_mb=1.5, one_session=one_session)
    written = assert_same_export([log], tmp_path)
    sessions = written["sessions.csv"].count(b"\n") - 1
    assert (sessions == 1) if one_session else (sessions > 20)
    assert written["turns.csv"].count(b"\n") > 300


def _write(tmp: Path, name: str, text: str, encoding: str = "UTF-8") -> Path:
    return write_log(tmp / name, text, encoding)


ODD_LOGS: dict[str, Callable[[Path], list[Path]]] = {
    "doctype-internal-subset": lambda tmp: [
        _write(
            tmp,
            "doctype.xml",
            '<?xml version="1.0"?>\n'
            "<!DOCTYPE GC_LOG [<!ELEMENT GC_LOG ANY>\n"
            '<!ATTLIST GC_TURN id CDATA "x">]>\n' + BODY,
        )
    ],
    "utf-16": lambda tmp: [
        _write(
            tmp,
            "u16.xml",
            log_text([session("s1", [system_turn("1", 1000, "Où ça?"), user_turn("2", 1002, "zürich")])], "UTF-16"),
            "UTF-16",
        )
    ],
    "latin-1": lambda tmp: [
        _write(
            tmp,
            "l1.xml",
            log_text(
                [session("s1", [system_turn("1", 1000, "Où ça?"), user_turn("2", 1002, "são paulo")])], "ISO-8859-1"
            ),
            "ISO-8859-1",
        )
    ],
    "milliseconds": lambda tmp: [
        _write(
            tmp,
            "ms.xml",
            log_text(
                [
                    session(
                        "s1",
                        [system_turn("1", 941473394660, "hello"), user_turn("2", 941473396660, "boston")],
                        start=941473394000,
                        end=941473399000,
                    )
                ]
            ),
        )
    ],
    "transcriptions-after-turns": lambda tmp: [
        _write(
            tmp,
            "late.xml",
            log_text(
                [
                    session(
                        "s1",
                        [
                            system_turn("1", 1000, "Where to?"),
                            user_turn("2", 1002, "boston"),
                            '<GC_ANNOT turnid="2">'
                            + data(":transcription", "to boston please", 'type_utt_text="transcription"')
                            + "</GC_ANNOT>",
                            '<GC_ANNOT type_task_completion="1"/>',
                        ],
                    )
                ]
            ),
        )
    ],
    "outside-turns": lambda tmp: [
        _write(
            tmp,
            "outside.xml",
            log_text(
                [
                    session(
                        "s1",
                        [
                            operation("0", 999, 999.5, "welcome", "hub"),
                            system_turn("1", 1000, "Where to?"),
                            "<!-- a comment between turns -->",
                            '<GC_EVENT etype="hangup" time="1003"/>',
                            user_turn(
                                "2",
                                1002,
                                "boston",
                                extra='<GC_ANNOT><GC_OPERATION name="nested" stime="1" etime="2"/></GC_ANNOT>',
                            ),
                        ],
                    )
                ]
            ),
        )
    ],
    "shared-session-ids": lambda tmp: [
        _write(
            tmp,
            "a.xml",
            log_text([session("s1", [system_turn("1", 1000, "one")]), session("s1", [system_turn("1", 1100, "two")])]),
        ),
        _write(
            tmp,
            "b.xml",
            log_text([session("s1", [system_turn("-01", 1200, "three"), system_turn("-1", 1202, "four")])]),
        ),
    ],
    "root-session": lambda tmp: [
        _write(
            tmp,
            "root.xml",
            '<?xml version="1.0"?>\n' + session("s1", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yo")]),
        )
    ],
    "error-marks-late": lambda tmp: [
        _write(
            tmp,
            "marks.xml",
            log_text(
                [
                    session(f"s{n}", [system_turn("1", 1000 + n, "Where to?"), user_turn("2", 1002 + n, "boston")])
                    for n in range(5)
                ]
                + [
                    session(
                        "s9",
                        [
                            system_turn("1", 1100, "Sorry").replace(
                                'type_utt_text="system"', 'type_utt_text="system" type_error_msg="true"'
                            )
                        ],
                    )
                ]
            ),
        )
    ],
    "mark-name-in-text-only": lambda tmp: [
        _write(
            tmp,
            "text-only.xml",
            log_text(
                [
                    session(
                        "s1",
                        [
                            system_turn("1", 1000, "type_error_msg and type_help_msg are only words here"),
                            user_turn("2", 1002, "boston"),
                        ],
                    )
                ]
            ),
        )
    ],
    "unit-guess-wrong": lambda tmp: [
        _write(
            tmp,
            "units.xml",
            log_text(
                # The guess is made from what the parser has read (1 MB) when the first session starts: here
                # one session in seconds; the milliseconds that outvote it come later.
                [
                    session(
                        "s0",
                        [system_turn("1", 1000, "seconds first")],
                        start=1000,
                        end=1010,
                        extra="<!--" + "x" * 1_100_000 + "-->",
                    )
                ]
                + [
                    session(
                        f"s{n}",
                        [system_turn("1", 941473394660 + n, "then milliseconds")],
                        start=941473394000 + n,
                        end=941473399000 + n,
                    )
                    for n in range(1, 6)
                ]
            ),
        )
    ],
    "no-sessions": lambda tmp: [_write(tmp, "empty.xml", '<?xml version="1.0"?>\n<GC_LOG><!-- none --></GC_LOG>\n')],
}


@pytest.mark.parametrize("make", ODD_LOGS.values(), ids=ODD_LOGS.keys())
def test_odd_logs(tmp_path: Path, make: Callable[[Path], list[Path]]):
    logs_folder = tmp_path / "logs"
    logs_folder.mkdir()
    assert_same_export(make(logs_folder), tmp_path)


def test_the_odd_logs_are_what_they_say(tmp_path: Path):
    """The cases above reach the paths they are named after (a guess corrected, a late mark, shared ids)."""
    logs_folder = tmp_path / "logs"
    logs_folder.mkdir()
    export_csv(ODD_LOGS["unit-guess-wrong"](logs_folder), tmp_path / "units")
    assert b",1000.0,1010.0,10.0," not in (tmp_path / "units" / "sessions.csv").read_bytes()  # read as ms
    export_csv(ODD_LOGS["error-marks-late"](logs_folder), tmp_path / "marks")
    first = (tmp_path / "marks" / "sessions.csv").read_text().splitlines()[1].split(",")
    columns = (tmp_path / "marks" / "sessions.csv").read_text().splitlines()[0].split(",")
    assert first[columns.index("error_messages")] == "0"  # the log marks error messages, in its last session
    export_csv(ODD_LOGS["shared-session-ids"](logs_folder), tmp_path / "ids")
    occurrences = [line.rsplit(",", 1)[1] for line in (tmp_path / "ids" / "sessions.csv").read_text().splitlines()]
    assert occurrences == ["session_occurrence", "1", "2", "3"]


@given(element_mutants())
@fuzz_settings(40)
@pytest.mark.slow
def test_generated_logs(mutant: bytes):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "fuzzed-hublog.xml"
        path.write_bytes(mutant)
        try:
            LogDocument.load(path)
        except AnnotatorError as error:
            with pytest.raises(AnnotatorError) as streamed:
                export_csv([path], folder / "streamed")
            assert str(streamed.value) == str(error)
            assert not (folder / "streamed").exists()
            return
        assert_same_export([path], folder)


def test_a_score_frame_nested_in_another_reads_alike_in_both_exports(tmp_path: Path):
    """Found by test_generated_logs: a :rec_scores frame nested inside a score of another was moved out of
    it by the streaming export's release of the turn, so the two exports took different :total_scores
    (and the doubt, which reads them, differed)."""
    source = sample_log_paths()[0].read_bytes()
    nested = (
        b'<GC_DATA key=":rec_scores"><GC_FRAME name="scores"><GC_DATA key=":total_score" dtype="string">'
        b"-823.3504</GC_DATA></GC_FRAME></GC_DATA>"
    )
    first_score = b'<GC_DATA key=":acoustic_score" dtype="string">-839.5061'
    assert first_score in source
    path = tmp_path / "nested-hublog.xml"
    path.write_bytes(source.replace(first_score, first_score + nested, 1))
    streamed = assert_same_export([path], tmp_path)
    assert b"doubt" in streamed["turns.csv"]


BROKEN = {
    "truncated": b'<?xml version="1.0"?>\n<GC_LOG><GC_SESSION id="s"><GC_TURN id="1">',
    "bad-utf-8": b'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG><GC_SESSION id="s\xe9"/></GC_LOG>',
    "entity": b'<?xml version="1.0"?>\n<!DOCTYPE GC_LOG [<!ENTITY a "b">]>\n<GC_LOG>&a;</GC_LOG>',
    "not-a-log": b'<?xml version="1.0"?>\n<html><GC_SESSION id="s"/></html>',
    "broken-after-sessions": b'<?xml version="1.0"?>\n<GC_LOG><GC_SESSION id="s"><GC_TURN id="1"/></GC_SESSION>\n'
    b'<GC_SESSION id="t"></GC_TURN></GC_SESSION></GC_LOG>',
    "empty": b"",
}


@pytest.mark.parametrize("content", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_log_gives_the_loaders_error_and_writes_nothing(tmp_path: Path, content: bytes):
    path = tmp_path / "broken.xml"
    path.write_bytes(content)
    with pytest.raises(LogReadError) as loaded:
        LogDocument.load(path)
    with pytest.raises(LogReadError) as streamed:
        export_csv([path], tmp_path / "out")
    assert str(streamed.value) == str(loaded.value)
    assert (streamed.value.line, streamed.value.column) == (loaded.value.line, loaded.value.column)
    assert not (tmp_path / "out").exists()


def test_any_file_map_gives_the_same_bytes(tmp_path: Path):
    logs_folder = tmp_path / "logs"
    logs_folder.mkdir()
    logs = ODD_LOGS["shared-session-ids"](logs_folder) + sample_log_paths()
    export_csv(logs, tmp_path / "serial")
    export_csv(logs, tmp_path / "reversed", file_map=reversed_map)
    assert files(tmp_path / "serial") == files(tmp_path / "reversed")


def test_an_edited_document_exports_its_edits(tmp_path: Path):
    """The window's document, in memory: export_document_csv writes its tree with the same rows."""
    from annotator.export.csv_export import export_document_csv
    from annotator.log.annotations import set_transcription

    doc = LogDocument.load(sample_log_paths()[0])
    turn = next(turn for turn in doc.sessions[0].turns if turn.speaker == "user")
    set_transcription(turn, "an edit in memory")
    export_document_csv(doc, tmp_path / "edited")
    assert b"an edit in memory" in (tmp_path / "edited" / "turns.csv").read_bytes()
    export_document_csv(LogDocument.load(doc.path), tmp_path / "loaded")
    export_csv([doc.path], tmp_path / "streamed")
    assert files(tmp_path / "loaded") == files(tmp_path / "streamed")
