"""The findings panel on a real broken log: what it shows, quirks toggled, activation by mouse and keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt

from annotator.analysis.validation import Finding, Severity, validate_document
from annotator.gui.panes.findings import Column
from annotator.gui.panes.findings_panel import FindingsPanel
from annotator.gui.theme import theme_colour
from annotator.gui.widgets.roles import FINDING_ROLE
from annotator.log.document import LogDocument

# Run again on the floor pins (scripts/test-qt-floor.sh): a filter model over findings (QSortFilterProxyModel's newer filter calls).
pytestmark = pytest.mark.qt_floor

TURN_2 = '<GC_TURN id="2" stime="1795269605.904" etime="1795269608.663">'
TURN_2_REVERSED = '<GC_TURN id="2" stime="1795269608.663" etime="1795269605.904">'


@pytest.fixture
def reversed_turn_log(annotated_log: Path) -> Path:
    """The annotated sample log with turn 2 ending before it starts (line 20)."""
    text = annotated_log.read_text(encoding="utf-8")
    assert text.count(TURN_2) == 1
    annotated_log.write_text(text.replace(TURN_2, TURN_2_REVERSED), encoding="utf-8")
    return annotated_log


@pytest.fixture
def findings(reversed_turn_log: Path) -> list[Finding]:
    return validate_document(LogDocument.load(reversed_turn_log))


@pytest.fixture
def panel(qtbot) -> FindingsPanel:
    widget = FindingsPanel()
    qtbot.addWidget(widget)
    widget.resize(900, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def reversed_turn(findings: list[Finding]) -> Finding:
    [finding] = [f for f in findings if f.code == "etime-before-stime"]
    return finding


def row_showing(panel: FindingsPanel, finding: Finding) -> QModelIndex:
    for row in range(panel.proxy.rowCount()):
        index = panel.proxy.index(row, Column.MESSAGE)
        if index.data(FINDING_ROLE) is finding:
            return index
    raise AssertionError(f"{finding} is not shown")


def test_the_broken_time_is_shown_with_its_severity_and_line(panel, findings):
    panel.set_findings(findings)
    index = row_showing(panel, reversed_turn(findings))
    assert index.siblingAtColumn(Column.SEVERITY).data() == "error"
    assert index.siblingAtColumn(Column.LINE).data() == "20"
    assert "ends before it starts" in index.data()
    assert index.siblingAtColumn(Column.SEVERITY).data(Qt.ItemDataRole.DecorationRole) is not None
    assert panel.summary_label.text().startswith("1 error, ")


def test_clicking_a_finding_emits_it(qtbot, panel, findings):
    panel.set_findings(findings)
    finding = reversed_turn(findings)
    centre = panel.table.visualRect(row_showing(panel, finding)).center()
    with qtbot.waitSignal(panel.finding_activated, timeout=2000) as blocker:
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert blocker.args[0] is finding
    assert blocker.args[0].element.get("id") == "2"  # what the window will select


def test_enter_on_a_finding_emits_it(qtbot, panel, findings):
    panel.set_findings(findings)
    finding = reversed_turn(findings)
    panel.table.setFocus()
    target = row_showing(panel, finding).row()
    qtbot.keyClick(panel.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(target):
        qtbot.keyClick(panel.table, Qt.Key.Key_Down)
    assert panel.current_finding() is finding
    with qtbot.waitSignal(panel.finding_activated, timeout=2000) as blocker:
        qtbot.keyClick(panel.table, Qt.Key.Key_Return)
    assert blocker.args == [finding]


def test_dtd_quirks_are_hidden_until_asked_then_greyed(qtbot, panel, findings):
    panel.set_findings(findings)
    quirks = [f for f in findings if f.severity is Severity.QUIRK]
    assert quirks, "the sample logs carry the DTD's mime_type quirk"
    assert panel.proxy.rowCount() == len(findings) - len(quirks)
    assert f"({len(quirks)} DTD quirks hidden)" in panel.summary_label.text()

    with qtbot.waitSignal(panel.show_quirks_changed, timeout=2000) as blocker:
        qtbot.mouseClick(panel.quirks_box, Qt.MouseButton.LeftButton, pos=QPoint(8, panel.quirks_box.height() // 2))
    assert blocker.args == [True]
    assert panel.proxy.rowCount() == len(findings)
    quirk_row = row_showing(panel, quirks[0])
    assert quirk_row.siblingAtColumn(Column.SEVERITY).data() == "DTD quirk"
    assert quirk_row.data(Qt.ItemDataRole.ForegroundRole) == theme_colour("greyed_text")
    assert panel.summary_label.text().endswith(f", {len(quirks)} DTD quirks")


def test_sorting_by_severity_puts_errors_first(qtbot, panel, findings):
    panel.set_show_quirks(True)
    panel.set_findings(findings)
    header = panel.table.horizontalHeader()
    x = header.sectionViewportPosition(Column.SEVERITY) + header.sectionSize(Column.SEVERITY) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    shown = [panel.proxy.index(row, 0).data(FINDING_ROLE).severity for row in range(panel.proxy.rowCount())]
    if header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder:
        shown.reverse()
    assert shown == sorted(shown, reverse=True)


def test_a_good_log_says_so(panel, sample_logs):
    panel.set_findings(validate_document(LogDocument.load(sample_logs[0])))
    assert panel.proxy.rowCount() == 0
    assert panel.summary_label.text().startswith("No problems found")
    panel.set_findings([])
    assert panel.summary_label.text() == "No problems found"


def test_findings_left_out_are_counted_and_their_row_leads_to_the_first(qtbot, panel, tmp_path: Path):
    turns = "\n".join(f'<GC_TURN id="{i}" stime="1"/>' for i in range(30))  # each lacks etime
    log = tmp_path / "many.xml"
    log.write_text(
        f'<?xml version="1.0"?>\n<GC_LOG>\n<GC_SESSION id="s" stime="1" etime="2">\n{turns}\n'
        "</GC_SESSION>\n</GC_LOG>\n",
        encoding="utf-8",
    )
    findings = validate_document(LogDocument.load(log), audio=False, keep=5)
    panel.set_findings(findings)
    assert panel.proxy.rowCount() == 6
    assert panel.summary_label.text() == "30 errors"
    [summary] = [f for f in findings if f.omitted]
    index = row_showing(panel, summary)
    assert index.data() == "25 more findings like this (missing-attribute) in GC_SESSION s not listed, the first here"
    assert index.siblingAtColumn(Column.LINE).data() == "9"
    with qtbot.waitSignal(panel.finding_activated, timeout=2000) as blocker:
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=panel.table.visualRect(index).center())
    assert blocker.args[0].element.get("id") == "5"
