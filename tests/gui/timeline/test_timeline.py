"""The timeline widget on real logs: what it builds, and real mouse clicks, wheel and hover on it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from annotator.clock import format_duration
from annotator.gui.timeline.timeline_rows import min_row_pixels
from annotator.gui.timeline.view import TimelineView
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from annotator.log.elements import OperationView
from annotator.timeline import data
from annotator.timeline.intervals import MAX_DETAILED_BARS, Intervals, to_pixel_bars
from tests.support.timeline_view import show_timeline

# Run again on the floor pins (scripts/test-qt-floor.sh): pyqtgraph's plot items and custom graphics items.
pytestmark = pytest.mark.qt_floor

ACTIVITIES = ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")


@pytest.fixture
def show(qtbot):
    def make(path: Path | None = None, width: int = 1400, height: int = 420) -> TimelineView:
        return show_timeline(qtbot, path, width, height)

    return make


def viewport_point(view: TimelineView, seconds: float, row: float) -> QPoint:
    return view.plot.mapFromScene(view.scene_point(seconds, row))


def click(qtbot, view: TimelineView, seconds: float, row: float) -> None:
    qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=viewport_point(view, seconds, row))


def raw_session(path: Path) -> etree._Element:
    return etree.parse(str(path)).getroot().find("GC_SESSION")


def raw_seconds(value: str, origin: str, unit: int) -> float:
    return (float(value) - float(origin)) / unit


def write_log(path: Path, sessions_xml: str) -> Path:
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG>\n{sessions_xml}</GC_LOG>\n', encoding="utf-8")
    return path


def big_session_xml(turns: int, operations_per_turn: int) -> str:
    """One session of TURNS alternating turns, each with a chain of short operations on five servers."""
    parts = ['<GC_SESSION id="big" stime="1000.000" etime="{end:.3f}">\n']
    clock = 1000.0
    for turn in range(1, turns + 1):
        speaker = "system" if turn % 2 else "user"
        start = clock
        body = []
        for i in range(operations_per_turn):
            server = ("nl", "audio", "recognizer", "dialogue", "backend")[i % 5]
            new_turn = f' type_new_turn="{speaker}"' if i == 0 else ""
            body.append(
                f'<GC_OPERATION name="op{i}" server="{server}" turnid="{turn}" stime="{clock:.3f}" '
                f'etime="{clock + 0.02:.3f}"{new_turn}/>'
            )
            clock += 0.025
        body.append(f'<GC_MESSAGE name="msg" server="hub" turnid="{turn}" time="{clock:.3f}"/>')
        parts.append(f'<GC_TURN id="{turn}" stime="{start:.3f}" etime="{clock:.3f}">{"".join(body)}</GC_TURN>\n')
        clock += 0.1
    parts.append("</GC_SESSION>\n")
    return "".join(parts).replace("{end:.3f}", f"{clock:.3f}")


# ----- what set_session builds, against an independent reading of the XML


def test_set_session_builds_one_band_rect_per_turn_and_a_lane_per_server(show, annotated_log):
    view = show(annotated_log)
    session = raw_session(annotated_log)
    turns = session.findall("GC_TURN")
    origin = session.get("stime")
    assert len(view.timeline.turns) == len(turns) == len(view.turn_band.bars)
    assert view.timeline.turns.starts[0] == pytest.approx(raw_seconds(turns[0].get("stime"), origin, 1))
    assert view.timeline.turns.ends[-1] == pytest.approx(raw_seconds(turns[-1].get("etime"), origin, 1))
    assert (
        view.timeline.turns.labels[1] == f"{turns[1].get('id')} · "
        f"{float(turns[1].get('etime')) - float(turns[1].get('stime')):.1f} s"
    )

    servers = list(dict.fromkeys(el.get("server") for el in session.iter(*ACTIVITIES)))
    assert view.lane_names() == [data.AUDIO_LANE] + servers
    for lane in view.lanes[1:]:
        operations = [el for el in session.iter("GC_OPERATION") if el.get("server") == lane.name]
        points = [el for el in session.iter("GC_MESSAGE", "GC_EVENT") if el.get("server") == lane.name]
        assert len(lane.bars) == len(operations)
        assert len(lane.ticks) == len(points)
        assert sorted(lane.bars.starts) == pytest.approx(
            sorted(raw_seconds(el.get("stime"), origin, 1) for el in operations)
        )
    audio = [d for d in session.iter("GC_DATA") if {"audio_input", "audio_output"} & set((d.get("type") or "").split())]
    assert len(view.lanes[0].bars) == len(audio) > 0
    assert len(view.lane_items) == len(view.lanes)


def test_millisecond_times_are_shown_in_seconds(show, absolute_audio_log):
    view = show(absolute_audio_log)
    session = raw_session(absolute_audio_log)
    assert view.timeline.extent == pytest.approx(raw_seconds(session.get("etime"), session.get("stime"), 1000))
    assert view.x_range()[1] == pytest.approx(view.timeline.extent, rel=0.05)


def test_user_turns_are_styled_by_transcription_and_refresh_after_an_edit(show, absolute_audio_log):
    document = LogDocument.load(absolute_audio_log)
    view = show()
    view.set_session(document.sessions[0])
    turns = view.timeline.turns
    user = next(turn for turn in document.sessions[0].turns if turn.speaker == "user")
    position = turns.payloads.index(user.index)
    assert turns.kinds[position] == data.USER_UNTRANSCRIBED
    assert data.SYSTEM_TURN in turns.kinds.tolist()

    set_transcription(user, "from boston")
    view.refresh_turns()
    assert turns.kinds[position] == data.USER_TRANSCRIBED


def test_lanes_scroll_vertically_only_when_there_are_many_servers(show, tmp_path, annotated_log):
    view = show(annotated_log)
    assert not view.lane_scroll.isVisible() and not view.rows.scrolls
    assert view.view_box.viewRange()[1] == pytest.approx([-0.5, len(view.lanes) + 0.5])
    operations = "".join(
        f'<GC_OPERATION name="op" server="server{i:02d}" stime="{i}" etime="{i + 0.5}"/>' for i in range(20)
    )
    log = write_log(
        tmp_path / "servers-hublog.xml",
        f'<GC_SESSION id="s" stime="0" etime="20"><GC_TURN id="1" stime="0" etime="20">{operations}'
        "</GC_TURN></GC_SESSION>\n",
    )
    view.set_session(LogDocument.load(log).sessions[0])
    assert len(view.lanes) == 20 and view.rows.scrolls and view.lane_scroll.isVisible()
    assert not view.view_box.state["mouseEnabled"][1]  # the scroll bar scrolls lanes, never a drag
    bottom, top = view.view_box.viewRange()[1]
    assert top - bottom == pytest.approx(view.rows.rows) and view.rows.slots < 20
    assert view.row_pixels() >= min_row_pixels(view.plot.font())


def test_no_session_shows_nothing(show, annotated_log):
    view = show(annotated_log)
    view.set_session(None)
    assert view.lanes == [] and view.turn_band is None and view.lane_items == []
    assert view.hit_at(view.scene_point(1.0, 0)) is None


# ----- mouse and keyboard-free interaction


def test_clicking_a_turn_emits_its_index_and_outlines_it(qtbot, show, annotated_log):
    view = show(annotated_log)
    turns = view.timeline.turns
    centre = (turns.starts[3] + turns.ends[3]) / 2
    with qtbot.waitSignal(view.turn_clicked, timeout=2000) as signal:
        click(qtbot, view, centre, 0)
    assert signal.args == [turns.payloads[3]]
    assert view.selected_turn == turns.payloads[3]
    assert view.turn_band.selected == 3


def test_select_turn_scrolls_it_into_view_without_emitting(qtbot, show, annotated_log):
    view = show(annotated_log)
    view.view_box.setXRange(0, 3, padding=0)
    last = len(view.timeline.turns) - 1
    with qtbot.assertNotEmitted(view.turn_clicked), qtbot.assertNotEmitted(view.element_clicked):
        view.select_turn(view.timeline.turns.payloads[last])
    left, right = view.x_range()
    assert left <= view.timeline.turns.starts[last] and view.timeline.turns.ends[last] <= right
    assert view.turn_band.selected == last and view.selection_shade.isVisible()
    view.select_turn(None)
    assert view.turn_band.selected is None and not view.selection_shade.isVisible()


def test_clicking_an_operation_emits_its_view(qtbot, show, annotated_log):
    view = show(annotated_log)
    recognizer = view.lanes[view.row_of_lane("recognizer") - 1]
    first = recognizer.bars.payloads[0]
    centre = (recognizer.bars.starts[0] + recognizer.bars.ends[0]) / 2
    with qtbot.waitSignal(view.element_clicked, timeout=2000) as signal:
        click(qtbot, view, centre, view.row_of_lane("recognizer"))
    clicked = signal.args[0]
    assert isinstance(clicked, OperationView)
    assert clicked.el is first and clicked.name == "recognize" and clicked.server == "recognizer"


def wheel(view: TimelineView, seconds: float, steps: int) -> None:
    viewport = view.plot.viewport()
    position = QPointF(viewport_point(view, seconds, 1))
    event = QWheelEvent(
        position,
        QPointF(viewport.mapToGlobal(position.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(viewport, event)
    QApplication.processEvents()


def test_wheel_zooms_time_only_and_fit_shows_everything(show, annotated_log):
    view = show(annotated_log)
    full = view.x_range()
    y_before = view.view_box.viewRange()[1]
    wheel(view, 10.0, 3)
    left, right = view.x_range()
    assert right - left < (full[1] - full[0]) * 0.8
    assert left <= 10.0 <= right  # zoomed around the mouse
    assert view.view_box.viewRange()[1] == pytest.approx(y_before)
    view.fit()
    assert view.x_range() == pytest.approx(full)
    assert full[0] <= 0 and full[1] >= view.timeline.extent


def test_zoom_buttons(qtbot, show, annotated_log):
    view = show(annotated_log)
    full = view.x_range()
    view.zoom_in_action.trigger()
    assert view.x_range()[1] - view.x_range()[0] == pytest.approx((full[1] - full[0]) / 2)
    view.zoom_out_action.trigger()
    view.zoom_in_action.trigger()
    view.fit_action.trigger()
    assert view.x_range() == pytest.approx(full)


def test_drag_pans_time(show, annotated_log):
    view = show(annotated_log)
    view.view_box.setXRange(10, 20, padding=0)
    viewport = view.plot.viewport()
    start, end = viewport_point(view, 15, 2), viewport_point(view, 12, 2)
    left_button, no_mod = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QApplication.sendEvent(
        viewport,
        QMouseEvent(QEvent.Type.MouseButtonPress, QPointF(start), QPointF(start), left_button, left_button, no_mod),
    )
    for step in range(1, 11):
        point = QPointF(start + (end - start) * step / 10)
        QApplication.sendEvent(
            viewport, QMouseEvent(QEvent.Type.MouseMove, point, point, Qt.MouseButton.NoButton, left_button, no_mod)
        )
    QApplication.sendEvent(
        viewport,
        QMouseEvent(
            QEvent.Type.MouseButtonRelease, QPointF(end), QPointF(end), left_button, Qt.MouseButton.NoButton, no_mod
        ),
    )
    left, right = view.x_range()
    assert right - left == pytest.approx(10)
    assert left == pytest.approx(13, abs=0.2)


def test_cursor_moves_and_follows_playback_off_screen(show, annotated_log):
    view = show(annotated_log)
    view.set_cursor(5.5)
    assert view.cursor_line.isVisible() and view.cursor_line.value() == pytest.approx(5.5)
    view.view_box.setXRange(0, 8, padding=0)
    view.set_cursor(7.9)
    view.set_cursor(9.0)  # played past the right edge: the view pages on
    left, right = view.x_range()
    assert left <= 9.0 <= right and right - left == pytest.approx(8)
    view.set_cursor(None)
    assert not view.cursor_line.isVisible()


def test_hover_describes_the_operation_under_the_mouse(show, annotated_log):
    view = show(annotated_log)
    session = raw_session(annotated_log)
    recognize = next(el for el in session.iter("GC_OPERATION") if el.get("name") == "recognize")
    start = raw_seconds(recognize.get("stime"), session.get("stime"), 1)
    end = raw_seconds(recognize.get("etime"), session.get("stime"), 1)
    view.view_box.setXRange(start - 2, end + 2, padding=0)
    text = view.tooltip_at(view.scene_point((start + end) / 2, view.row_of_lane("recognizer")))
    assert "recognize" in text and "server: recognizer" in text
    assert format_duration(end - start) in text

    view.fit()
    turn_text = view.tooltip_at(view.scene_point(view.timeline.turns.starts[0] + 0.1, 0))
    first = session.find("GC_TURN")
    assert turn_text.startswith(f"turn {first.get('id')}")
    assert view.tooltip_at(view.scene_point(view.timeline.extent + 100, 0)) is None


def test_hover_on_a_tick_names_the_message(show, annotated_log):
    view = show(annotated_log)
    lane = next(lane for lane in view.lanes if len(lane.ticks))
    at = lane.ticks.starts[0]
    view.view_box.setXRange(at - 1, at + 1, padding=0)
    text = view.tooltip_at(view.scene_point(at, view.row_of_lane(lane.name)))
    payload = lane.ticks.payloads[0]
    assert payload.get("name") in text and f"server: {lane.name}" in text


def test_marker_lanes(qtbot, show, annotated_log):
    view = show(annotated_log)
    fills = {
        lane.name: item.bar_styles[data.OPERATION].fill.name()
        for lane, item in zip(view.lanes, view.lane_items)
        if data.OPERATION in item.bar_styles
    }
    finding = object()
    view.add_marker_lane("findings", [(3.0, finding), (12.0, "other")])
    assert fills == {
        lane.name: item.bar_styles[data.OPERATION].fill.name()
        for lane, item in zip(view.lanes, view.lane_items)
        if data.OPERATION in item.bar_styles
    }, "a server keeps its colour when marker lanes come"
    assert view.lane_names()[:2] == [data.AUDIO_LANE, "findings"]  # markers above the servers
    row = view.row_of_lane("findings")
    with qtbot.waitSignal(view.element_clicked, timeout=2000) as signal:
        click(qtbot, view, 3.0, row)
    assert signal.args == [finding]
    view.add_marker_lane("findings", [(4.0, "replaced")])
    assert view.lane_names().count("findings") == 1
    view.clear_marker_lanes()
    assert "findings" not in view.lane_names()


# ----- many operations: culled, merged, unlabelled when crowded


def test_a_big_session_paints_merged_bars_and_labels_only_when_zoomed_in(show, tmp_path):
    log = write_log(tmp_path / "big-hublog.xml", big_session_xml(turns=400, operations_per_turn=50))
    view = show(log, width=1200)
    assert sum(len(lane.bars) for lane in view.lanes) == 400 * 50
    viewport = view.plot.viewport()
    viewport.repaint()
    audio_item = view.lane_items[view.row_of_lane("audio") - 1]
    detailed, merged, labels = audio_item.last_paint_counts
    assert labels == 0 and detailed <= MAX_DETAILED_BARS and 0 < merged < viewport.width()

    view.view_box.setXRange(100, 100.4, padding=0)
    viewport.repaint()
    detailed, merged, labels = audio_item.last_paint_counts
    assert 0 < detailed < 20 and labels > 0


# ----- the arrays themselves


@given(st.lists(st.tuples(st.floats(0, 100), st.floats(0, 20)), max_size=60), st.floats(-10, 130), st.floats(0, 40))
def test_the_visible_slice_holds_every_interval_overlapping_the_view(spans, left, width):
    right = left + width
    intervals = Intervals.build([s for s, _ in spans], [s + d for s, d in spans])
    i0, i1 = intervals.visible(left, right)
    overlapping = {i for i in range(len(intervals)) if intervals.starts[i] <= right and intervals.ends[i] >= left}
    assert overlapping <= set(range(i0, i1))
    if i0 < i1:  # and it starts at an overlapping one (its end may hold short ones that ended before the view)
        assert i0 in overlapping


def test_hit_prefers_the_shortest_interval_containing_the_point():
    intervals = Intervals.build([0.0, 4.0, 9.0], [8.0, 5.0, 9.0], ["long", "short", "point"])
    assert intervals.payloads[intervals.hit(4.5, 0.1)] == "short"
    assert intervals.payloads[intervals.hit(2.0, 0.1)] == "long"
    assert intervals.payloads[intervals.hit(9.05, 0.1)] == "point"  # near enough, nothing contains it
    assert intervals.hit(20.0, 0.5) is None


def test_sub_pixel_bars_merge_into_covered_columns():
    starts = np.arange(1000) * 0.1  # 1000 bars of 0.05 s on 100 s
    intervals = Intervals.build(starts, starts + 0.05)
    pixels = to_pixel_bars(intervals, 0, len(intervals), scale=5.0, offset=0.0, width=500)  # 0.5 px per bar
    assert len(pixels.detail_index) == 0
    assert len(pixels.merged_left) == 1 and pixels.merged_width[0] == 500  # one run: every column touched
    wide = to_pixel_bars(intervals, 0, 10, scale=100.0, offset=0.0, width=500)  # 5 px per bar
    assert len(wide.detail_index) == 10 and len(wide.merged_left) == 0
