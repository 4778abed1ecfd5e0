"""Statistics: Rasa's three example tables (docs/markers-rasa-example.md) reproduced byte for byte, and Rasa's number format."""

from __future__ import annotations

import numpy as np
import pytest

from annotator.markers.extract import SessionMarkers, extract_markers, extracted_markers_csv
from annotator.markers.language import parse_markers
from annotator.markers.stats import MarkerStatistics, compute_statistics, format_value
from tests.support.marker_logs import write
from tests.support.rasa_seed import EXTRACTED, OVERALL, PER_SESSION, SEED_LOGS, SEED_MARKERS


@pytest.fixture
def seed_results(tmp_path) -> list[SessionMarkers]:
    paths = [write(tmp_path, sender, text) for sender, text in sorted(SEED_LOGS.items())]
    return extract_markers(parse_markers(SEED_MARKERS), paths)


def test_the_example_page_holds_the_two_markers_and_three_tables():
    assert parse_markers(SEED_MARKERS).names == ["marker_mood_expressed", "marker_cheer_up_failed"]
    assert [len(table.splitlines()) for table in (EXTRACTED, PER_SESSION, OVERALL)] == [5, 31, 16]


def test_the_seeds_example_is_reproduced_byte_for_byte(seed_results):
    names = parse_markers(SEED_MARKERS).names
    statistics = MarkerStatistics.of(names, seed_results)
    assert extracted_markers_csv(seed_results) == EXTRACTED
    assert statistics.per_session_csv() == PER_SESSION
    assert statistics.overall_csv() == OVERALL


def test_markers_are_sorted_by_name_whatever_their_definition_order(seed_results):
    statistics = MarkerStatistics.of(["marker_mood_expressed", "marker_cheer_up_failed"], seed_results)
    assert statistics.overall_csv() == OVERALL


@pytest.mark.parametrize(
    "value, text",
    [
        (3, "3"),
        (0, "0"),
        (np.nan, "nan"),
        (np.float64(2.0), "2.0"),
        (1 / 3, "0.333"),
        (100.0, "100.0"),
        (np.float64(2 / 3), "0.667"),
        (200 / 3, "66.667"),
        (np.mean([1, 2]), "1.5"),
        (np.median([1, 2, 3, 4]), "2.5"),
        (np.float64(1e-4), "0.0"),
        (0.0025, "0.002"),  # numpy's rounding (Python's round gives 0.003)
    ],
)
def test_integers_stay_integers_and_other_values_are_rounded_to_three_decimals(value, text):
    assert format_value(value) == text


def test_statistics_of_no_values_are_nan_except_the_count():
    values = compute_statistics([])
    assert values["count"] == 0 and all(np.isnan(values[k]) for k in ("mean", "median", "min", "max"))
    assert compute_statistics([3, 1, 2]) == {"count": 3, "mean": 2.0, "median": 2.0, "min": 1, "max": 3}


def test_several_sessions_per_sender_and_a_marker_that_never_applies():
    results = [
        SessionMarkers("log", 0, {"a": [(0, 0), (5, 3)], "b": []}),
        SessionMarkers("log", 1, {"a": [], "b": []}),
        SessionMarkers("other", 0, {"a": [(2, 1)], "b": []}),
    ]
    statistics = MarkerStatistics.of(["b", "a"], results)
    overall = statistics.overall_csv().splitlines()
    assert overall[1:7] == [
        "all,nan,-,total_number_of_sessions,3",
        "all,nan,a,number_of_sessions_where_marker_applied_at_least_once,2",
        "all,nan,a,percentage_of_sessions_where_marker_applied_at_least_once,66.667",
        "all,nan,b,number_of_sessions_where_marker_applied_at_least_once,0",
        "all,nan,b,percentage_of_sessions_where_marker_applied_at_least_once,0.0",
        "all,nan,a,count(number of preceding user turns),3",
    ]
    assert "all,nan,a,mean(number of preceding user turns),1.333" in overall
    assert "all,nan,b,max(number of preceding user turns),nan" in overall
    per_session = statistics.per_session_csv().splitlines()
    assert per_session[1:4] == [
        "log,0,a,count(number of preceding user turns),2",
        "log,1,a,count(number of preceding user turns),0",
        "other,0,a,count(number of preceding user turns),1",
    ]
    assert "log,0,a,mean(number of preceding user turns),1.5" in per_session
    assert len(per_session) == 1 + 2 * 5 * 3


def test_no_sessions_gives_rasas_tables():
    statistics = MarkerStatistics.of(["a"], [])
    assert (
        statistics.overall_csv()
        == "sender_id,session_idx,marker,statistic,value\nall,nan,-,total_number_of_sessions,0\n"
    )
    assert statistics.per_session_csv() == "sender_id,session_idx,marker,statistic,value\n"


def test_cells_with_commas_are_quoted():
    results = [SessionMarkers("a,b", 0, {"m": [(1, 0)]})]
    assert extracted_markers_csv(results).splitlines()[1] == '"a,b",0,m,1,0'
