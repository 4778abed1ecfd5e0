"""Colours that several views share, named by what they mean.

WARNING_TEXT marks a value that is shown as it is but is probably wrong (a
negative duration); dark enough on a light background for WCAG AA (5.9:1 on white).
"""

from __future__ import annotations

from PySide6.QtGui import QColor

WARNING_TEXT = QColor("#a35200")
