"""One editing widget per kind of preference (gui/preferences/table.py): each shows a value with
show(value) and emits `edited(value)` once the annotator has chosen one that can be stored."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from annotator.file_name_text import name_from_text, name_text
from annotator.gui.preferences.table import Preference
from annotator.team.names import is_annotator_name

NAME_RULE = "1 to 40 letters, digits, '_', '.' or '-', starting with a letter or digit"


class PreferenceWidget(QWidget):
    edited = Signal(object)

    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(parent)
        self.preference = preference
        self.setObjectName(f"preference_{preference.name}")
        self.setToolTip(preference.tip)
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)

    def show_value(self, value) -> None:
        raise NotImplementedError


class CheckWidget(PreferenceWidget):
    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(preference, parent)
        self.box = QCheckBox(preference.label, self)
        self.layout_.addWidget(self.box)
        self.box.toggled.connect(lambda on: self.edited.emit(on))

    def show_value(self, value) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)


class NumberWidget(PreferenceWidget):
    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(preference, parent)
        self.box: QSpinBox | QDoubleSpinBox
        if isinstance(preference.default, int):  # a whole number's limits and step are whole too
            self.box = QSpinBox(self)
            self.box.setRange(int(preference.minimum), int(preference.maximum))
            self.box.setSingleStep(int(preference.step))
        else:
            self.box = QDoubleSpinBox(self)
            self.box.setDecimals(preference.decimals)
            self.box.setRange(preference.minimum, preference.maximum)
            self.box.setSingleStep(preference.step)
        self.box.setSuffix(preference.suffix)
        self.box.setSpecialValueText(preference.special)
        self.box.setKeyboardTracking(False)  # typing "12" is not first a size of 1
        self.layout_.addWidget(self.box)
        self.layout_.addStretch(1)
        self.box.valueChanged.connect(lambda value: self.edited.emit(value))

    def show_value(self, value) -> None:
        self.box.blockSignals(True)
        self.box.setValue(value)
        self.box.blockSignals(False)


class ChoiceWidget(PreferenceWidget):
    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(preference, parent)
        self.box = QComboBox(self)
        for value, label in preference.choices:
            self.box.addItem(label, value)
        self.layout_.addWidget(self.box)
        self.layout_.addStretch(1)
        self.box.activated.connect(lambda index: self.edited.emit(self.box.itemData(index)))

    def show_value(self, value) -> None:
        found = [i for i in range(self.box.count()) if self.box.itemData(i) == value]
        self.box.setCurrentIndex(found[0] if found else 0)


class NameWidget(PreferenceWidget):
    """An annotator name: stored when it is a valid one (or empty); otherwise the rule is shown."""

    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(preference, parent)
        column = QVBoxLayout()
        self.line = QLineEdit(self)
        self.line.setPlaceholderText("your login name")
        self.problem = QLabel(self)
        self.problem.setObjectName("name_problem")
        self.problem.hide()
        column.addWidget(self.line)
        column.addWidget(self.problem)
        self.layout_.addLayout(column)
        self.line.editingFinished.connect(self._finish)
        self.line.textEdited.connect(lambda _text: self._check())

    def show_value(self, value) -> None:
        self.line.setText(str(value))
        self._check()

    def _check(self) -> bool:
        text = self.line.text().strip()
        ok = not text or is_annotator_name(text)
        self.problem.setText("" if ok else f"Not a name: use {NAME_RULE}")
        self.problem.setVisible(not ok)
        return ok

    def _finish(self) -> None:
        if self._check():
            self.edited.emit(self.line.text().strip())


class FolderWidget(PreferenceWidget):
    """A folder, stored as name_text (any file name, in text Qt can hold); empty means the default."""

    def __init__(self, preference: Preference, parent: QWidget | None = None):
        super().__init__(preference, parent)
        self.line = QLineEdit(self)
        self.line.setPlaceholderText("the per-user data folder")
        self.choose = QPushButton("C&hoose…", self)
        self.layout_.addWidget(self.line, 1)
        self.layout_.addWidget(self.choose)
        self.line.editingFinished.connect(self._finish)
        self.choose.clicked.connect(self._choose)

    def show_value(self, value) -> None:
        self.line.setText(name_from_text(str(value)) if value else "")

    def _choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.preference.label, self.line.text() or str(Path.home()))
        if chosen:
            self.line.setText(chosen)
            self._finish()

    def _finish(self) -> None:
        text = self.line.text().strip()
        self.edited.emit(name_text(Path(text).expanduser()) if text else "")


WIDGETS = {
    "check": CheckWidget,
    "number": NumberWidget,
    "choice": ChoiceWidget,
    "name": NameWidget,
    "folder": FolderWidget,
}


def make_widget(preference: Preference, parent: QWidget | None = None) -> PreferenceWidget:
    return WIDGETS[preference.kind](preference, parent)
