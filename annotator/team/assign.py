"""Who annotates which session: a plain CSV (log, session_id, annotators, double) made for a seed.

The rule (docs/team.md):
- the sessions are put in the order of sha256(seed, log, session id, occurrence): a shuffle that
  is the same for the same seed on every machine;
- the first round(overlap * sessions) of them (halves round up) go to two annotators, the others to one;
- in that order each session goes to the annotator(s) with the fewest sessions so far, ties broken
  by a per-seed order of the annotators; so every annotator's count differs by at most one;
- given the assignment made before (the same file), its rows are kept as they are: sessions added
  to the corpus since are assigned by the same rule on top of them (doubles topped up to the
  overlap of the new total), sessions gone from the corpus are dropped. Annotators added or removed
  only take part in the new sessions.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import AnnotatorError
from annotator.input_files import read_input_text
from annotator.team.names import check_annotator_name
from annotator.writes.atomic import write_atomic

ASSIGNMENT_FILE = "annotator-assignment.csv"  # in the corpus folder: where `mine` in the browser looks
COLUMNS = ("log", "session_id", "annotators", "double")
SEPARATOR = ";"


class AssignmentError(AnnotatorError):
    """An assignment that cannot be made or read."""


@dataclass(frozen=True)
class SessionKey:
    log: str  # the log's path relative to the corpus folder, with "/"
    session_id: str
    occurrence: int = 1  # which of the log's sessions with this id


@dataclass(frozen=True)
class Assignment:
    session: SessionKey
    annotators: tuple[str, ...]

    @property
    def double(self) -> bool:
        return len(self.annotators) > 1


def double_count(overlap: float, sessions: int) -> int:
    """How many of SESSIONS go to two annotators: overlap * sessions, halves rounded up."""
    return int(overlap * sessions + 0.5)


def assign(
    sessions: Iterable[SessionKey], annotators: list[str], overlap: float, seed: str, earlier: Iterable[Assignment] = ()
) -> list[Assignment]:
    """Every session given to one annotator, the overlap's share to two (see the module's rule); in SESSIONS' order."""
    annotators = [check_annotator_name(name, "--annotators:") for name in annotators]
    if not annotators or len(set(annotators)) != len(annotators):
        raise AssignmentError("--annotators: give one or more different names, separated by commas")
    if not 0 <= overlap <= 1:
        raise AssignmentError(f"--overlap {overlap:g}: give a share between 0 and 1")
    sessions = list(sessions)
    present = set(sessions)
    kept = {row.session: row for row in earlier if row.session in present}
    if (
        overlap > 0
        and len(annotators) < 2
        and double_count(overlap, len(sessions)) > len([row for row in kept.values() if row.double])
    ):
        raise AssignmentError("--overlap: sessions for two annotators need at least two annotators")
    load = {name: 0 for name in annotators}
    for row in kept.values():
        for name in row.annotators:
            load[name] = load.get(name, 0) + 1
    rank = {name: place for place, name in enumerate(_shuffled(annotators, seed))}
    new = sorted((key for key in sessions if key not in kept), key=lambda key: _order(seed, key))
    doubles = max(0, double_count(overlap, len(sessions)) - sum(row.double for row in kept.values()))
    made = dict(kept)
    for place, key in enumerate(new):
        chosen = sorted(annotators, key=lambda name: (load[name], rank[name]))[: 2 if place < doubles else 1]
        for name in chosen:
            load[name] += 1
        made[key] = Assignment(key, tuple(sorted(chosen, key=rank.__getitem__)))
    return [made[key] for key in sessions]


def _order(seed: str, key: SessionKey) -> str:
    return hashlib.sha256("\0".join((seed, key.log, key.session_id, str(key.occurrence))).encode()).hexdigest()


def _shuffled(annotators: list[str], seed: str) -> list[str]:
    order = sorted(annotators)
    random.Random(hashlib.sha256(f"annotators\0{seed}".encode()).hexdigest()).shuffle(order)
    return order


def assignment_csv(rows: Iterable[Assignment]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row.session.log, row.session.session_id, SEPARATOR.join(row.annotators), int(row.double)])
    return out.getvalue().encode("utf-8")


def write_assignment(path: str | Path, rows: Iterable[Assignment]) -> None:
    write_atomic(path, assignment_csv(rows))


def read_assignment(path: str | Path) -> list[Assignment]:
    """The rows of an assignment file; AssignmentError naming the file and line when it is not one."""
    path = Path(path)
    text = read_input_text(path, lambda reason: AssignmentError(f"{path}: cannot read the assignment: {reason}"))
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(header[: len(COLUMNS)]) != COLUMNS:
        raise AssignmentError(f"{path}:1: not an assignment file: the columns must be {', '.join(COLUMNS)}")
    rows: list[Assignment] = []
    seen: dict[tuple[str, str], int] = {}
    for line, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) < len(COLUMNS) or not fields[2]:
            raise AssignmentError(f"{path}:{line}: a row needs a log, a session id and its annotators")
        log, session_id, names = fields[0], fields[1], fields[2].split(SEPARATOR)
        for name in names:
            check_annotator_name(name, f"{path}:{line}: annotator")
        occurrence = seen[log, session_id] = seen.get((log, session_id), 0) + 1
        rows.append(Assignment(SessionKey(log, session_id, occurrence), tuple(names)))
    return rows
