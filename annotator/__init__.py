"""Communicator Log Annotator: read, annotate, measure and convert DARPA Communicator logs."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("communicator-annotator")
except PackageNotFoundError:  # running from a source checkout that was never installed
    __version__ = "0.0.0+source"
