"""Every message box of the app is built here: plain text, and a key for every answer.

Messages carry file content and names (`the root element is <html>`), which a
QMessageBox would read as rich text and swallow; PlainText shows them as they
are, in the text and the informative text alike. Standard buttons get labels
with an underlined letter so that an annotator answers without the mouse
(Alt+letter, or the letter alone where the style allows).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

Button = QMessageBox.StandardButton
Icon = QMessageBox.Icon

ACCELERATED_LABELS = {
    Button.Ok: "&OK",
    Button.Save: "&Save",
    Button.Discard: "&Discard",
    Button.Cancel: "&Cancel",
    Button.Yes: "&Yes",
    Button.No: "&No",
    Button.Ignore: "&Ignore",
}


def message_box(
    parent: QWidget | None,
    icon: Icon,
    title: str,
    text: str,
    buttons: Button = Button.Ok,
    *,
    informative: str | None = None,
    labels: dict[Button, str] | None = None,
    default: Button | None = None,
) -> QMessageBox:
    """A message box showing TEXT (and INFORMATIVE) as plain text; LABELS rename standard buttons
    (give them an '&' letter too); the others get ACCELERATED_LABELS."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # applies to the informative text as well
    if informative:
        box.setInformativeText(informative)
    names = {**ACCELERATED_LABELS, **(labels or {})}
    for button in box.buttons():
        standard = box.standardButton(button)
        if standard in names:
            button.setText(names[standard])
    if default is not None:
        box.setDefaultButton(default)
    return box


def ask(parent: QWidget | None, icon: Icon, title: str, text: str, buttons: Button, **options) -> Button:
    """Show the box modally and return the standard button chosen (Escape: Cancel, or the box's escape)."""
    return Button(message_box(parent, icon, title, text, buttons, **options).exec())


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    message_box(parent, Icon.Critical, title, text).exec()
