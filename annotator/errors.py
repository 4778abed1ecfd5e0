"""One family of errors whose str() is a single line fit to show a user.

Every problem the user can cause (a bad log, a bad annotation file, an unsafe
audio path, a failed write) is raised as an AnnotatorError subclass, so front
ends catch one type and print one line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path


class AnnotatorWarning(UserWarning):
    """Warnings of our own; the test suite turns them into errors."""


class AnnotatorError(Exception):
    """Base of all user-facing errors."""


class LogReadError(AnnotatorError):
    """A log that cannot be read: names the file and, where known, line and column."""

    def __init__(self, path: str | Path, reason: str, line: int | None = None, column: int | None = None):
        self.path = str(path)
        self.reason = " ".join(str(reason).split())
        self.line = line
        self.column = column
        where = self.path
        if line:
            where += f":{line}"
            if column:
                where += f":{column}"
        super().__init__(f"{where}: {self.reason}")

    def __reduce__(self):  # pickled back from the validation child process
        return type(self), (self.path, self.reason, self.line, self.column)


class UnsafeLogError(LogReadError):
    """A log refused because reading it could be an attack (entities, external DTD)."""


class AnnotationFileError(AnnotatorError):
    """An annotation file (CSV or MITRE human annotation) that does not fit the logs."""


class WriteError(AnnotatorError):
    """A write that failed; the previous file is left intact."""


class AudioError(AnnotatorError):
    """Audio that cannot be found, read or played."""


class AnnotationError(AnnotatorError):
    """An annotation value that cannot be stored (e.g. characters XML forbids)."""


class LogChangedOnDiskError(AnnotatorError):
    """A save in place refused because another program changed (or removed) the file since it was read."""

    def __init__(self, path: str | Path, removed: bool = False):
        self.path = str(path)
        self.removed = removed
        if removed:
            message = (
                f"{self.path} was deleted or moved by another program since it was opened; "
                "save with overwrite to write it again"
            )
        else:
            message = (
                f"{self.path} was changed by another program since it was opened; reload it or save with overwrite"
            )
        super().__init__(message)

    def command_line_message(self) -> str:
        """The refusal in the words of a command (which has no reload, no overwrite)."""
        what = "deleted or moved" if self.removed else "changed"
        return (
            f"{self.path} was {what} by another program (another fold, replace, adjudicate or a window's "
            "save) since this command read it; nothing written: run the command again"
        )

    def __reduce__(self):
        return type(self), (self.path, self.removed)
