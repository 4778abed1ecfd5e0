"""What xmllint says of a log against the shipped DTD (resources/gc_log.dtd)."""

from __future__ import annotations

import subprocess

from annotator.resources import dtd_path


def validity_errors(path) -> list[str]:
    """xmllint's validity errors without their file names and line numbers, sorted."""
    found = subprocess.run(
        ["xmllint", "--noout", "--dtdvalid", str(dtd_path()), str(path)], capture_output=True, text=True
    )
    return sorted(line.split(": ", 1)[1] for line in found.stderr.splitlines() if "validity error" in line)
