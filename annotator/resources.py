"""Locate the files of resources/ from a source checkout and from an installed wheel.

The wheel carries resources/ as annotator/_resources (see pyproject.toml); a
checkout or an editable install has it beside the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def resources_dir() -> Path:
    for candidate in (_PACKAGE_DIR / "_resources", _PACKAGE_DIR.parent / "resources"):
        if (candidate / "gc_log.dtd").is_file():
            return candidate
    raise FileNotFoundError("resources/gc_log.dtd not found beside the annotator package")


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def dtd_path() -> Path:
    return resource_path("gc_log.dtd")


SAMPLE_SESSION = "travel-20261121-001"


def sample_session_path() -> Path:
    """The bundled sample session the app opens when given no file.

    A checkout has it under sample_logs/; the wheel carries that one folder as
    annotator/_resources/sample_session (see pyproject.toml).
    """
    name = f"{SAMPLE_SESSION}-hublog.xml"
    for candidate in (
        _PACKAGE_DIR / "_resources" / "sample_session" / name,
        _PACKAGE_DIR.parent / "sample_logs" / SAMPLE_SESSION / name,
    ):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"the bundled sample session {name} is missing")
