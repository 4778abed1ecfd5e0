"""What the document controller asks before it saves, discards or exports: each question's words and buttons."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from annotator.gui.message_box import Button, Icon, ask

LOG_FILTER = "Communicator logs (*.xml);;All files (*)"


def ask_to_keep_work(parent: QWidget, name: str) -> Button:
    """Save, Discard or Cancel the unsaved annotations of the log NAME."""
    return ask(
        parent,
        Icon.Warning,
        "Unsaved annotations",
        f"Save the annotations of {name} before going on?",
        Button.Save | Button.Discard | Button.Cancel,
        default=Button.Save,
        informative="Transcriptions or task completion changed since the last save.",
    )


def ask_save_path(parent: QWidget, current: Path) -> Path | None:
    dialog = QFileDialog(parent, "Save the log as", str(current), LOG_FILTER)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("xml")
    if not dialog.exec():
        return None
    return Path(dialog.selectedFiles()[0])


def ask_overwrite_or_reload(parent: QWidget, name: str, kept_on_reload: str) -> Button:
    """Save (Overwrite), Discard (Reload) or Cancel, for a log changed on disk since it was opened;
    KEPT_ON_RELOAD says where the unsaved edits stay if it is reloaded."""
    return ask(
        parent,
        Icon.Warning,
        "Log changed on disk",
        f"{name} was changed by another program since it was opened.",
        Button.Save | Button.Discard | Button.Cancel,
        default=Button.Cancel,
        labels={Button.Save: "&Overwrite", Button.Discard: "&Reload"},
        informative="Overwrite it with this version (the other program's changes are lost), "
        f"or reload it ({kept_on_reload})?",
    )


def ask_save_before_export(parent: QWidget) -> Button:
    """Export reads the file: Save first, Ignore (export what is on disk) or Cancel."""
    return ask(
        parent,
        Icon.Question,
        "Export CSV",
        "The export reads the saved log. Save the annotations first?",
        Button.Save | Button.Ignore | Button.Cancel,
        default=Button.Save,
        labels={Button.Ignore: "&Export last saved"},
    )
