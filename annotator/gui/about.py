"""Help > About: the version, the licence, and the libraries the app stands on, with their versions.

The list says what this install really runs (a bug report can quote it: the
box has a Copy button): the C libraries too (Qt, libxml2, libsndfile,
PortAudio), since the Python packages wrap them. A library that cannot be
loaded is listed with the reason instead of a version.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass
from importlib import metadata

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from annotator import __version__
from annotator.gui.keyboard import present

APP_NAME = "Communicator Annotator"
LICENCE = "MIT"
SUMMARY = (
    "Listen to, transcribe and annotate DARPA Communicator spoken-dialogue logs; "
    "the annotations are folded into the log."
)
ICON_SIZES = (16, 32, 48, 64, 128, 256)
NOT_AVAILABLE = "not available: "


@dataclass(frozen=True)
class Library:
    name: str  # e.g. "lxml / libxml2"
    version: str  # e.g. "6.1.3 / 2.14.4", or "not available: REASON"


def app_icon() -> QIcon:
    """The application icon at every size shipped in resources/icons (an empty icon if they are missing)."""
    from annotator.resources import resource_path

    icon = QIcon()
    for size in ICON_SIZES:
        try:
            path = resource_path("icons", f"annotator-{size}.png")
        except FileNotFoundError:  # resources/ itself is missing: no icon rather than no app
            return icon
        if path.is_file():
            icon.addFile(str(path))
    return icon


def library_versions() -> list[Library]:
    """Python and every library the app uses, in the order the About box shows them."""
    return [Library(name, _version_of(probe)) for name, probe in _PROBES]


def _version_of(probe) -> str:
    try:
        return probe()
    except Exception as error:  # noqa: BLE001 - any failure to load is what the box must report
        return NOT_AVAILABLE + (" ".join(str(error).split()) or type(error).__name__)


def _qt() -> str:
    import PySide6
    from PySide6.QtCore import qVersion

    return f"{PySide6.__version__} / {qVersion()}"


def _lxml() -> str:
    from lxml import etree

    return f"{'.'.join(map(str, etree.LXML_VERSION[:3]))} / {'.'.join(map(str, etree.LIBXML_VERSION))}"


def _soundfile() -> str:
    import soundfile

    return f"{soundfile.__version__} / {soundfile.__libsndfile_version__}"


def _sounddevice() -> str:
    # Through the app's own door: PortAudio is started once, after the crash probe (audio/devices.py).
    from annotator.audio.devices import sounddevice
    from annotator.errors import AudioError

    package = metadata.version("sounddevice")
    try:
        sd = sounddevice()
    except AudioError as error:
        return f"{package} / PortAudio {NOT_AVAILABLE}{error}"
    number = sd.get_portaudio_version()[0]
    return f"{package} / {number >> 16 & 0xFF}.{number >> 8 & 0xFF}.{number & 0xFF}"


def _package(name: str):
    return lambda: metadata.version(name)


_PROBES = (
    ("Python", platform.python_version),
    ("PySide6 / Qt", _qt),
    ("pyqtgraph", _package("pyqtgraph")),
    ("lxml / libxml2", _lxml),
    ("pandas", _package("pandas")),
    ("numpy", _package("numpy")),
    ("soundfile / libsndfile", _soundfile),
    ("sounddevice / PortAudio", _sounddevice),
    ("jiwer", _package("jiwer")),
    ("PyYAML", _package("PyYAML")),
)


def about_text(libraries: list[Library]) -> str:
    """The box's content as plain text, for the clipboard."""
    lines = [f"{APP_NAME} {__version__}", f"Licence: {LICENCE}", ""]
    lines += [f"{library.name}: {library.version}" for library in libraries]
    return "\n".join(lines)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("about_dialog")
        self.setWindowTitle(f"About {APP_NAME}")
        self.libraries = library_versions()
        icon = QLabel(self)
        icon.setPixmap(app_icon().pixmap(64, 64))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text = QLabel(self._html(), self)
        self.text.setObjectName("about_text")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setWordWrap(True)
        body = QHBoxLayout()
        body.addWidget(icon)
        body.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Copy the version and the libraries, e.g. for a bug report")
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def _html(self) -> str:
        rows = "".join(
            f"<tr><td>{library.name}</td><td>&nbsp;&nbsp;{_escape(library.version)}</td></tr>"
            for library in self.libraries
        )
        return (
            f"<h3>{APP_NAME}</h3><p>Version {__version__}</p><p>{SUMMARY}</p>"
            f"<p>Licence: {LICENCE}</p><p>Built on:</p><table>{rows}</table>"
        )

    def copy_to_clipboard(self) -> None:
        QGuiApplication.clipboard().setText(about_text(self.libraries))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def show_about(parent: QWidget) -> AboutDialog:
    """Open the About box over PARENT, with the keyboard (gui/keyboard.py); it deletes itself on close."""
    dialog = AboutDialog(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    present(dialog, parent)
    return dialog
