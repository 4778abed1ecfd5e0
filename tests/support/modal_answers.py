"""Answering the dialogs a GUI test opens, from the test itself: the next modal dialog of a kind (when_modal), an
input dialog typed into with real keys (answer_input), the next message box or file dialog (ModalAnswer), and
every message box by its button text for as long as it runs (BoxAnswers). An answer armed for a dialog that never
opened dies with its test (forget_waiting_answers, called by tests/gui/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from tests.support.window_driver import choose_button, shown_text

_WAITING_FOR_MODALS: list[list[int]] = []  # each when_modal's tries left; the test's end sets them to 0


def forget_waiting_answers() -> None:
    """A dialog a test armed an answer for and never opened is not answered in the next test."""
    for tries in _WAITING_FOR_MODALS:
        tries[0] = 0
    _WAITING_FOR_MODALS.clear()


def when_modal(kind: type[QWidget], act: Callable[[QWidget], object], patience_ms: int = 10000) -> list:
    """Call ACT with the next modal dialog of class KIND once it shows, within PATIENCE_MS and the test:
    schedule it before the key or action that opens the dialog (whose call returns only when the dialog
    closes). The list returned gets what ACT returned."""
    results: list = []
    tries = [patience_ms // 20]
    _WAITING_FOR_MODALS.append(tries)

    def poll() -> None:
        if tries[0] <= 0:
            return  # the test ended
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            tries[0] -= 1
            if tries[0] > 0:
                QTimer.singleShot(20, poll)
            return
        results.append(act(dialog))

    QTimer.singleShot(0, poll)
    return results


def answer_input(qtbot, text: str) -> list[tuple[str, str]]:
    """Type TEXT into the next input dialog with real keys, over what it holds, and press Enter; the list
    gets (its label, the text it held) when it showed."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    def answer(dialog: QInputDialog) -> tuple[str, str]:
        shown = (dialog.labelText(), dialog.textValue())
        field = dialog.findChild(QLineEdit)
        field.selectAll()
        qtbot.keyClick(field, Qt.Key.Key_Backspace)
        qtbot.keyClicks(field, text)
        qtbot.keyClick(field, Qt.Key.Key_Return)
        return shown

    return when_modal(QInputDialog, answer)


class ModalAnswer:
    """Answers the next modal dialog (message box or file dialog) once it appears."""

    def __init__(
        self, button: QMessageBox.StandardButton | None = None, file: Path | None = None, patience_ms: int = 10000
    ):
        self.button = button
        self.file = file
        self.text: str | None = None
        self.title: str | None = None
        self.answered = False
        when_modal(QWidget, self._answer, patience_ms)

    def _answer(self, dialog: QWidget) -> None:
        self.title = dialog.windowTitle()
        if isinstance(dialog, QMessageBox):
            self.text = dialog.text()
            dialog.button(self.button or QMessageBox.StandardButton.Ok).click()
        elif isinstance(dialog, QFileDialog):
            self.text = dialog.windowTitle()
            if self.file is None:
                dialog.reject()
            else:
                dialog.selectFile(str(self.file))
                dialog.accept()
        else:
            dialog.close()
        self.answered = True


@dataclass
class Seen:
    title: str
    text: str
    informative: str
    buttons: list[str]  # as labelled, with the '&' of their accelerator
    clicked: str  # as the user reads it


class BoxAnswers:
    """While it runs, clicks on every message box the first button of ANSWERS it has (else its default)."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.seen: list[Seen] = []
        self._timer = QTimer()
        self._timer.setInterval(20)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    @property
    def titles(self) -> list[str]:
        return [seen.title for seen in self.seen]

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            return
        buttons, chosen = choose_button(box, self.answers)
        self.seen.append(
            Seen(
                box.windowTitle(),
                box.text(),
                box.informativeText(),
                sorted(button.text() for button in box.buttons()),
                shown_text(chosen),
            )
        )
        chosen.click()

    def stop(self) -> None:
        self._timer.stop()
