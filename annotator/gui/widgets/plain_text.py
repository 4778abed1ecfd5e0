"""Text from logs and files, shown by Qt as it is written and never unbounded.

Qt reads a tooltip that looks like markup (`<noise> yes`, `<html>`) as rich
text and swallows the tags; labels and message boxes are set to PlainText
where they are made, tooltips go through plain_tooltip(). Both show at most
the start of a huge value (annotator.log.text.shorten).
"""

from __future__ import annotations

import html
from typing import overload

from annotator.log.text import shorten


@overload
def plain_tooltip(text: str) -> str: ...
@overload
def plain_tooltip(text: None) -> None: ...
def plain_tooltip(text: str | None) -> str | None:
    """A tooltip that shows TEXT literally, line breaks kept (None or "" for no tooltip)."""
    if not text:
        return text
    return f"<p style='white-space:pre-wrap'>{html.escape(shorten(text))}</p>"
