"""Help > About (version, licence, libraries) and the Help menu's links into the manual (docs/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import QObject, Qt, QUrl, Slot, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMenu, QWidget

from annotator import __version__
from annotator.audio import devices
from annotator.errors import AudioError
from annotator.gui.about import LICENCE, NOT_AVAILABLE, about_text, app_icon, show_about
from annotator.gui.help_links import HELP_PAGES, add_help_links, manual_folder

REPO = Path(__file__).resolve().parents[2]
LIBRARIES = (
    "Python",
    "PySide6 / Qt",
    "pyqtgraph",
    "lxml / libxml2",
    "pandas",
    "numpy",
    "soundfile / libsndfile",
    "sounddevice / PortAudio",
    "jiwer",
    "PyYAML",
)


@pytest.fixture
def parent(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_about_box_shows_the_version_the_licence_and_every_library_with_its_version(qtbot, parent):
    dialog = show_about(parent)
    qtbot.waitExposed(dialog)
    text = dialog.text.text()
    assert f"Version {__version__}" in text and f"Licence: {LICENCE}" in text
    versions = {library.name: library.version for library in dialog.libraries}
    assert tuple(versions) == LIBRARIES
    for name in LIBRARIES:
        assert name in text
        assert re.match(r"\d+\.\d+", versions[name]) or NOT_AVAILABLE in versions[name], (name, versions[name])
    assert versions["PySide6 / Qt"].endswith(f" / {qVersion()}")
    assert versions["lxml / libxml2"] == (
        f"{'.'.join(map(str, etree.LXML_VERSION[:3]))} / {'.'.join(map(str, etree.LIBXML_VERSION))}"
    )


def test_copy_puts_the_box_as_plain_text_on_the_clipboard_and_escape_closes_it(qtbot, parent):
    dialog = show_about(parent)
    qtbot.waitExposed(dialog)
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert copied == about_text(dialog.libraries)
    assert copied.startswith(f"Communicator Annotator {__version__}\nLicence: MIT\n")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not parent.findChildren(type(dialog)))  # closed and deleted


def test_about_box_says_why_portaudio_is_not_available(qtbot, parent, monkeypatch):
    # What devices.sounddevice() remembers after failing to load PortAudio (it starts it once per process).
    monkeypatch.setattr(devices, "_sounddevice", None)
    monkeypatch.setattr(devices, "_failure", AudioError(devices.PORTAUDIO_MISSING))
    dialog = show_about(parent)
    version = {library.name: library.version for library in dialog.libraries}["sounddevice / PortAudio"]
    assert version.endswith(f"PortAudio {NOT_AVAILABLE}{devices.PORTAUDIO_MISSING}")
    assert f"PortAudio {NOT_AVAILABLE}" in dialog.text.text()


def test_app_icon_has_every_shipped_size():
    sizes = {(size.width(), size.height()) for size in app_icon().availableSizes()}
    assert sizes == {(n, n) for n in (16, 32, 48, 64, 128, 256)}


@pytest.mark.parametrize("page", [page for page, _text in HELP_PAGES])
def test_every_help_link_names_a_page_of_the_manual(page: str):
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    assert text.startswith("# "), page


class UrlCatcher(QObject):
    """Takes file: URLs instead of the desktop (QDesktopServices.setUrlHandler)."""

    def __init__(self):
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


def test_help_links_come_first_in_the_help_menu_and_open_their_page(qtbot, parent):
    menu = QMenu("&Help", parent)
    about = menu.addAction("&About")
    actions = add_help_links(menu, parent)
    assert [action.text() for action in actions] == [text for _page, text in HELP_PAGES]
    entries = menu.actions()
    assert entries[: len(actions)] == actions and entries[len(actions)].isSeparator() and entries[-1] is about
    manual = manual_folder()
    assert manual == REPO / "docs"
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    try:
        for action, (page, _text) in zip(actions, HELP_PAGES):
            assert isinstance(action, QAction) and action.isEnabled()
            action.trigger()
            assert Path(catcher.urls[-1].toLocalFile()) == manual / page
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert len(catcher.urls) == len(HELP_PAGES)
