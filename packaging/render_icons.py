"""Render resources/icons/annotator.svg to the PNG sizes desktops ask for.

    python packaging/render_icons.py          # writes resources/icons/annotator-{16..256}.png

Qt's own SVG renderer (PySide6.QtSvg, part of PySide6-Essentials) draws them,
so no other tool is needed; commit the PNGs with the SVG whenever it changes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SOURCE = ICONS / "annotator.svg"
SIZES = (16, 32, 48, 64, 128, 256)


def png_path(size: int) -> Path:
    return ICONS / f"annotator-{size}.png"


def render_all() -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - painting needs one
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE}: Qt cannot read this SVG")
    written = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        if not image.save(str(png_path(size)), "PNG"):
            raise SystemExit(f"cannot write {png_path(size)}")
        written.append(png_path(size))
    return written


if __name__ == "__main__":
    for path in render_all():
        print(path.relative_to(ICONS.parents[1]))
