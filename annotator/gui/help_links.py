"""Help menu entries that open pages of the manual, the Markdown pages of docs/.

A checkout has docs/ beside the package; an installed app (wheel or standalone
build) carries a copy as annotator/_resources/docs/. A page opens in the
desktop's viewer for Markdown.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QMenu

_PACKAGE_DIR = Path(__file__).resolve().parents[1]

# Pages of docs/ and the menu text that opens each.
HELP_PAGES = (
    ("guide.md", "Using the &desktop app"),
    ("keyboard.md", "Where &typing goes"),
    ("command-line.md", "The &command line"),
    ("safety.md", "Your data is &safe"),
    ("formats.md", "&Exporting to other formats"),
    ("markers.md", "&Markers: KPIs and points of interest"),
    ("install.md", "Installing and system &requirements"),
)


def manual_folder() -> Path | None:
    """The manual this install has: the copy shipped in the package, else the checkout's; None if neither.

    The shipped copy first: beside an installed package is site-packages,
    where another project's stray docs/ may lie.
    """
    shipped, checkout = _PACKAGE_DIR / "_resources" / "docs", _PACKAGE_DIR.parent / "docs"
    if (shipped / "index.md").is_file():
        return shipped
    if (checkout / "index.md").is_file() and (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return checkout
    return None


def add_help_links(help_menu: QMenu, parent: QObject) -> list[QAction]:
    """Put one entry per page of HELP_PAGES at the top of HELP_MENU, then a separator.

    Without the manual (an install that lost it), or without one of its pages, the entry is there but
    disabled, saying why in its status tip.
    """
    manual = manual_folder()
    first = help_menu.actions()[0] if help_menu.actions() else None
    actions = []
    for page, text in HELP_PAGES:
        action = QAction(text, parent)
        action.setObjectName(f"action_help_{Path(page).stem}")
        path = manual / page if manual is not None else None
        if path is None or not path.is_file():
            action.setEnabled(False)
            action.setStatusTip("The manual is not installed with this copy of the app")
        else:
            url = QUrl.fromLocalFile(str(path))
            action.setData(url)
            action.setStatusTip(f"Open the manual's page {page}")
            action.triggered.connect(lambda _checked=False, u=url: QDesktopServices.openUrl(u))
        if first is not None:
            help_menu.insertAction(first, action)
        else:  # an empty menu: inserted before no action is added at the end
            help_menu.addAction(action)
        actions.append(action)
    if first is not None:
        help_menu.insertSeparator(first)
    return actions
