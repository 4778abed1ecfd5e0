"""Annotator names: what goes into a per-annotator file's name, so only a file-name-safe subset.

A name is 1 to 40 characters of ASCII letters, digits, "_", "." and "-", starting with a
letter or a digit: it is part of a file name on every system (docs/team.md).
"""

from __future__ import annotations

import getpass
import re

from annotator.errors import AnnotatorError

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
FALLBACK_NAME = "annotator"


class AnnotatorNameError(AnnotatorError):
    """An annotator name that cannot be part of a file name."""


def is_annotator_name(name: str) -> bool:
    return NAME_PATTERN.fullmatch(name) is not None


# A team member's human file, `<log-stem>-human-<annotator>.xml` (annotator.team.files).
ANNOTATORS_FILE = re.compile(rf"(?P<stem>.+-human)-(?P<name>{NAME_PATTERN.pattern})\.xml", re.IGNORECASE)


def annotator_of_file_name(file_name: str) -> str | None:
    """The annotator whose team file FILE_NAME is, or None when it is no team member's file."""
    found = ANNOTATORS_FILE.fullmatch(file_name)
    return None if found is None else found["name"]


def check_annotator_name(name: str, where: str = "annotator name") -> str:
    """NAME unchanged, or AnnotatorNameError saying what is allowed (WHERE names the source of it)."""
    if not is_annotator_name(name):
        raise AnnotatorNameError(
            f"{where} {name!r}: use 1 to 40 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return name


def login_name() -> str:
    """The login name when it is a valid annotator name, else FALLBACK_NAME (getuser fails without a user)."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        return FALLBACK_NAME
    return name if is_annotator_name(name) else FALLBACK_NAME
