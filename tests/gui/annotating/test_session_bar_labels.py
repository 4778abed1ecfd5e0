"""The session selector lists every session as "id · N turns", in one insertion, and is wide enough for the
longest label without measuring every label where the bar has room for it (gui/annotating/session_bar.py)."""

from __future__ import annotations

from annotator.gui.annotating.session_bar import SessionBar
from annotator.gui.app import parts_of


def test_the_selector_lists_each_session_and_fits_the_longest_label(make_window, tmp_path, raw_log):
    text = raw_log.read_text(encoding="utf-8")
    start, end = text.index("<GC_SESSION"), text.index("</GC_SESSION>") + len("</GC_SESSION>")
    session = text[start:end]
    copies = [session.replace('id="travel:20261121:002"', f'id="{name}"', 1) for name in ("b", "a-much-longer-id-0099")]
    several = tmp_path / "several.xml"
    several.write_text(text[:end] + "".join("\n  " + copy for copy in copies) + text[end:], encoding="utf-8")
    window = make_window(several)
    bar: SessionBar = window.session_bar
    selector = bar.sessions
    turns = len(parts_of(window).controller.document.sessions[0].turns)
    labels = [selector.itemText(row) for row in range(selector.count())]
    assert labels == [f"{name} · {turns} turns" for name in ("travel:20261121:002", "b", "a-much-longer-id-0099")]
    widest = max(selector.fontMetrics().horizontalAdvance(label) for label in labels)
    assert selector.maximumWidth() >= widest  # the width it grows to where the bar has room
