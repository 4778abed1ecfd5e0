"""What the recovery journal compares the document with: the annotation values of the file, read at once,
or read in steps once the window shows the log.

Reading every annotation of a 100 MB log takes a second or two, and the window need not wait for it:
an edit is journalled as the changed value and the value the file holds, and the file's value of
every key changed since the journal began watching is known without reading the log, as the old value
of its first change. So a deferred baseline keeps those first old values (and the stored value of a
turn typed in, until its typing is stored) and compares with them until the whole read is taken; then
they are laid over what was read, since a key changed while the read went on may have been read
after its change. The steps run on the thread that edits the document (the GUI's), so no change is
half made while a step reads. The document is held weakly: a journal kept after its log was replaced
must not keep the log alive (its values are not needed then).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from annotator.journal.values import Key, Value, annotation_values, read_values_in_steps, stored_value, typing_key
from annotator.log.document import LogDocument
from annotator.log.elements import Turn


class JournalBaseline:
    """The file's values for DOC (see the module's docstring); the journal guards it with its lock."""

    def __init__(self, doc: LogDocument, deferred: bool = False):
        self._doc = weakref.ref(doc)
        self.values: dict[Key, Value] | None = None if deferred else annotation_values(doc)
        self._first_old: dict[Key, Value] = {}  # the file's value of each key changed since watching began
        self._typed_in: dict[Key, Value] = {}  # the stored value of each turn typed in since watching began

    @property
    def ready(self) -> bool:
        return self.values is not None

    def changed(self, key: Key, old: Value) -> None:
        """KEY changed from OLD: the file's value when it is the first change since watching began."""
        if self.values is None:
            self._first_old.setdefault(key, old)

    def typing_in(self, turn: Turn | None, kind: str | None = None) -> None:
        """Typing of KIND (values.typing_key) began in TURN (None: no typing), whose stored value is the file's
        unless it changed before."""
        if self.values is None and turn is not None:
            self._typed_in.setdefault(typing_key(turn, kind), stored_value(turn, kind))

    def known(self) -> dict[Key, Value]:
        """The file's values as far as they are known: all once read, else those of the keys touched."""
        return self.values if self.values is not None else {**self._typed_in, **self._first_old}

    def read_now(self) -> dict[Key, Value]:
        """Every value of the file, read now when it was not yet (before any edit, at the latest); what is
        known when the document is gone."""
        doc = self._doc()
        if self.values is None and doc is not None:
            self.take(annotation_values(doc))
        return self.known()

    def take(self, read: dict[Key, Value]) -> None:
        """READ holds every value of the document as the steps found it: the file's, once the first old
        value of each key changed meanwhile is put back."""
        if self.values is None:
            read.update(self._first_old)
            self.values = read
            self._first_old, self._typed_in = {}, {}

    def steps(self) -> Iterator[dict[Key, Value] | None]:
        """Read the document a few turns at a time: None after each step, then every value read (give
        it to take(), under the same lock as changed())."""
        read: dict[Key, Value] = {}
        doc = self._doc()
        if doc is None:
            return
        for _step in read_values_in_steps(doc, read):
            yield None
        yield read
