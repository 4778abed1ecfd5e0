"""Regular expressions typed by users (replace --regex, the markers' text_matches, the window's
Find, corpus search and Replace), compiled and run with a time limit.

A pattern such as `(a|a)+$` backtracks exponentially on a line of forty a's: Python's `re` has no
way out of it, so one text would hang a command or the window for good. Patterns are therefore
checked by `re` (what users type is exactly Python's syntax, with `re`'s error messages) and run
by the `regex` package, whose default mode is `re`-compatible, with its `timeout=`: a pattern still
matching one text after LIMIT_S is refused with PatternTooSlow, one line. Matching also lets go of
the GIL (`concurrent=True`), so a pattern run on a worker thread never stalls the window's thread.
Compiling has no limit of its own, and `regex` spends time in proportion to the repetitions a pattern
spells out (`(a{1000}){1000}`: 3 s): a pattern whose counted repetitions multiply past MAX_EXPANSION
is refused before it is compiled. docs/adr/0012-user-patterns.md says why this library.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator

import regex

from annotator.errors import AnnotatorError

LIMIT_S = 1.0  # the longest one pattern may take over one text (a transcription, a prompt)
MAX_EXPANSION = 10_000  # pattern items once counted repetitions are spelled out (about 0.1 s of compiling)
TEMPLATE_ERRORS = (regex.error, IndexError)  # what a match's expand() raises for a bad replacement template


class PatternError(AnnotatorError):
    """A pattern that cannot be used: bad syntax, or too slow on some text."""


class PatternTooSlow(PatternError):
    """A pattern still matching one text after LIMIT_S (catastrophic backtracking)."""


class UserPattern:
    """A compiled user pattern: search and finditer as `re` has them, bounded by LIMIT_S per text."""

    def __init__(self, source: str, *, literal: bool = False, ignore_case: bool = False):
        self.source = source
        self.literal = literal
        self.ignore_case = ignore_case
        text = re.escape(source) if literal else source
        flags = re.IGNORECASE if ignore_case else 0
        try:
            re.compile(text, flags)  # the syntax users are told about, with its messages
            expansion = _expansion(text, flags)
            if expansion > MAX_EXPANSION:
                raise PatternError(
                    f"regular expression {source!r} is too large: its counted repetitions spell out "
                    f"{expansion:,} items (at most {MAX_EXPANSION:,})"
                )
            self._compiled = regex.compile(text, flags | regex.VERSION0)
        except (re.error, regex.error, OverflowError, RecursionError) as error:
            raise PatternError(f"bad regular expression {source!r}: {error}") from None

    def __reduce__(self):  # sent to worker processes as its source, compiled again there
        return _rebuilt, (self.source, self.literal, self.ignore_case)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UserPattern) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, bool, bool]:
        return self.source, self.literal, self.ignore_case

    def search(self, text: str) -> regex.Match | None:
        try:
            return self._compiled.search(text, timeout=LIMIT_S, concurrent=True)
        except TimeoutError:
            raise self._too_slow(text) from None

    def finditer(self, text: str) -> Iterator[regex.Match]:
        """Every match in TEXT, as re.finditer; PatternTooSlow once the whole walk passes LIMIT_S."""
        try:
            yield from self._compiled.finditer(text, timeout=LIMIT_S, concurrent=True)
        except TimeoutError:
            raise self._too_slow(text) from None

    def _too_slow(self, text: str) -> PatternTooSlow:
        return PatternTooSlow(
            f"regular expression {self.source!r} took longer than {LIMIT_S:g} s on one text of "
            f"{len(text):,} characters (it backtracks without end): simplify it, e.g. "
            "no repeated group that itself repeats"
        )


def _expansion(text: str, flags: int) -> int:
    """How many items TEXT holds with every counted repetition spelled out, from `re`'s own parse (0 where this
    Python's parser is not the one known here: the check is then skipped)."""
    try:  # by name: the type stubs know `re` as a module, not as the package it is since 3.11
        codes = importlib.import_module("re._constants")
        _parser = importlib.import_module("re._parser")
    except ImportError:
        return 0
    repeats = {codes.MAX_REPEAT, codes.MIN_REPEAT, getattr(codes, "POSSESSIVE_REPEAT", codes.MAX_REPEAT)}

    def size(items) -> int:
        total = 0
        for op, value in items:
            if op in repeats:
                low, high, inner = value
                total += (high if high != codes.MAXREPEAT else max(low, 1)) * size(inner)
            elif op is codes.SUBPATTERN:
                total += size(value[-1])
            elif op is codes.BRANCH:
                total += sum(size(branch) for branch in value[1])
            elif op in (codes.ASSERT, codes.ASSERT_NOT):
                total += size(value[1])
            elif op is codes.GROUPREF_EXISTS:
                total += sum(size(branch) for branch in value[1:] if branch)
            elif op is getattr(codes, "ATOMIC_GROUP", None):
                total += size(value)
            else:
                total += 1
        return total

    return size(_parser.parse(text, flags))


def _rebuilt(source: str, literal: bool, ignore_case: bool) -> UserPattern:
    return UserPattern(source, literal=literal, ignore_case=ignore_case)
