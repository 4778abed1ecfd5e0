"""Communicator Log Annotator: read, annotate, measure and convert DARPA Communicator logs."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("communicator-annotator")
except PackageNotFoundError:  # running from a source checkout that was never installed
    __version__ = "0.0.0+source"


def __getattr__(name: str):
    """annotator.tables (annotator.export.tables.tables), imported on first use: `import annotator`
    stays light, and the package's top imports none of its packages (tests/test_layering.py)."""
    if name == "tables":
        import importlib

        return importlib.import_module("annotator.export.tables").tables
    raise AttributeError(f"module 'annotator' has no attribute {name!r}")
