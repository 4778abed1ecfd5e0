"""What the window's panes show, read as a test reads them: a session metric as the metrics panel shows it, and the
corpus search's result rows."""

from __future__ import annotations

from PySide6.QtCore import Qt


def metric_text(panel, name: str) -> str:
    """The value the Session metrics panel shows for metric NAME, as shown."""
    from annotator.gui.panes.metrics_panel import label

    return panel.findItems(label(name), Qt.MatchFlag.MatchExactly)[0].text(1)


def result_rows(results) -> list[tuple[str, ...]]:
    """The corpus search's result rows, each as the texts of its cells."""
    model = results.model
    return [
        tuple(model.index(row, column).data() for column in range(model.columnCount()))
        for row in range(model.rowCount())
    ]
