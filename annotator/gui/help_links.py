"""Help menu entries that open sections of the README, the app's manual.

A checkout has README.md beside the package; an installed app (wheel or
standalone build) carries a copy as annotator/_resources/README.md. The file
opens in the desktop's viewer for Markdown with the section's anchor as the
URL fragment (GitHub's heading anchors), which viewers that understand it use
to scroll there.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QMenu

_PACKAGE_DIR = Path(__file__).resolve().parents[1]

# README headings (exactly as written there) and the menu text that opens each.
README_SECTIONS = (
    ("The desktop app", "Using the &desktop app"),
    ("Quick start on the command line", "The &command line"),
    ("Your data is safe", "Your data is &safe"),
    ("Exporting to the neighbours' formats", "&Exporting to other formats"),
    ("Markers: KPIs and points of interest", "&Markers: KPIs and points of interest"),
    ("System requirements", "System &requirements"),
)


def readme_path() -> Path | None:
    """The README this install has: the copy shipped in the package, else the checkout's; None if neither.

    The shipped copy first: beside an installed package is site-packages,
    where another project's stray README.md may lie.
    """
    shipped, checkout = _PACKAGE_DIR / "_resources" / "README.md", _PACKAGE_DIR.parent / "README.md"
    if shipped.is_file():
        return shipped
    if checkout.is_file() and (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return checkout
    return None


def heading_anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def section_url(heading: str, readme: Path) -> QUrl:
    url = QUrl.fromLocalFile(str(readme))
    url.setFragment(heading_anchor(heading))
    return url


def add_help_links(help_menu: QMenu, parent: QObject) -> list[QAction]:
    """Put one entry per README section at the top of HELP_MENU, then a separator.

    Without a README (an install that lost it) the entries are there but
    disabled, saying why in their status tip.
    """
    readme = readme_path()
    first = help_menu.actions()[0] if help_menu.actions() else None
    actions = []
    for heading, text in README_SECTIONS:
        action = QAction(text, parent)
        action.setObjectName(f"action_help_{heading_anchor(heading)}")
        if readme is None:
            action.setEnabled(False)
            action.setStatusTip("The README is not installed with this copy of the app")
        else:
            url = section_url(heading, readme)
            action.setData(url)
            action.setStatusTip(f"Open the README at “{heading}”")
            action.triggered.connect(lambda _checked=False, u=url: QDesktopServices.openUrl(u))
        help_menu.insertAction(first, action)
        actions.append(action)
    if first is not None:
        help_menu.insertSeparator(first)
    return actions
