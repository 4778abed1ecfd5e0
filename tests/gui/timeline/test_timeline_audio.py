"""The audio lane and the legend, drawn: segments where the audio was heard, missing audio
painted apart and named, and a legend that explains what the lanes draw."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage

from annotator.gui.theme import theme_colour
from annotator.gui.timeline import timeline_style as style
from annotator.gui.timeline.view import TimelineView
from annotator.timeline import data
from tests.support.audio_shapes import EXPECTED, write_audio_shapes
from tests.support.timeline_view import show_timeline


@pytest.fixture
def shapes_view(qtbot, tmp_path: Path) -> tuple[TimelineView, Path]:
    log = write_audio_shapes(tmp_path / "shapes")
    return show_timeline(qtbot, log, 1366, 420), log


def pixel(image: QImage, view: TimelineView, seconds: float, row: float) -> QColor:
    point = view.plot.mapFromScene(view.scene_point(seconds, row))
    ratio = image.devicePixelRatio()
    return image.pixelColor(QPoint(round(point.x() * ratio), round(point.y() * ratio)))


def test_every_turn_with_audio_has_a_segment_over_the_time_its_audio_was_heard(shapes_view):
    view, _log = shapes_view
    row = view.row_of_lane(data.AUDIO_LANE)
    for turn_id, (side, start, end, written, _present) in EXPECTED.items():
        for seconds in (start + 0.05, (start + end) / 2, end - 0.05):
            hit = view.hit_at(view.scene_point(seconds, row))
            assert hit is not None and hit.kind == "audio", (turn_id, seconds)
            assert hit.text.startswith(f"{side} audio") and f"written in the log: {written}" in hit.text
        outside = view.hit_at(view.scene_point(start - 0.2, row))
        assert outside is None or f"written in the log: {written}" not in outside.text, turn_id


def test_system_audio_is_drawn_like_user_audio_and_missing_audio_apart(shapes_view):
    view, _log = shapes_view
    view.plot.viewport().repaint()
    image = view.plot.grab().toImage()
    row = view.row_of_lane(data.AUDIO_LANE)
    system_fill = theme_colour(style.AUDIO_FILL[data.AUDIO_OUTPUT])
    user_fill = theme_colour(style.AUDIO_FILL[data.AUDIO_INPUT])
    for turn_id, fill in (("1", system_fill), ("3", system_fill), ("4", system_fill), ("2", user_fill)):
        _side, start, end, *_ = EXPECTED[turn_id]
        colours = {pixel(image, view, start + (end - start) * f, row + 0.2).name() for f in (0.3, 0.6, 0.9)}
        assert fill.name() in colours, (turn_id, colours)
    for turn_id in ("5", "6"):
        _side, start, end, *_ = EXPECTED[turn_id]
        colours = {pixel(image, view, start + (end - start) * i / 60, row + 0.1).name() for i in range(5, 55)}
        assert theme_colour("missing_audio_mark").name() in colours, turn_id  # the red hatch
        assert theme_colour(style.AUDIO_FILL[data.AUDIO_MISSING]).name() in colours, turn_id
        assert not colours & {system_fill.name(), user_fill.name()}, turn_id


def test_missing_audio_tooltip_and_click_name_the_file_as_written_and_as_looked_for(qtbot, shapes_view):
    view, log = shapes_view
    row = view.row_of_lane(data.AUDIO_LANE)
    _side, start, end, *_ = EXPECTED["5"]
    looked_for = str(log.parent.resolve() / "gone.wav")
    text = view.tooltip_at(view.scene_point((start + end) / 2, row))
    assert "MISSING" in text and "written in the log: gone.wav" in text and f"looked for: {looked_for}" in text
    point = view.plot.mapFromScene(view.scene_point((start + end) / 2, row))
    with (
        qtbot.waitSignal(view.message_shown, timeout=2000) as message,
        qtbot.waitSignal(view.element_clicked, timeout=2000) as clicked,
    ):
        qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert "gone.wav" in message.args[0] and looked_for in message.args[0]
    assert clicked.args[0].name == "record_utterance"
    _side, start, end, *_ = EXPECTED["6"]
    text = view.tooltip_at(view.scene_point((start + end) / 2, row))
    assert "a_folder" in text and "is a folder" in text


def test_the_legend_explains_virtual_operations_and_missing_audio_as_drawn(shapes_view):
    view, _log = shapes_view
    entries = {entry.name: entry for entry in view.legend.entries}
    virtual = entries["virtual operation"]
    assert virtual.bar is not None and virtual.bar.dashed
    assert "recognition_duration" in virtual.tooltip and "synthesis_duration" in virtual.tooltip
    synthesizer = view.lane_items[view.row_of_lane("synthesizer") - 1]
    assert synthesizer.bar_styles[data.VIRTUAL_OPERATION].dashed
    audio = view.lane_items[view.row_of_lane(data.AUDIO_LANE) - 1]
    assert entries["audio missing"].bar == audio.bar_styles[data.AUDIO_MISSING]
    assert {"system", "user", "not transcribed", "message", "event", "marker"} <= set(entries)
    labels = [child for child in view.legend.children() if hasattr(child, "text") and child.text()]
    assert {label.text() for label in labels} == set(entries)
    assert all(label.isVisible() for label in labels), "the whole legend fits a 1366-pixel-wide timeline"
