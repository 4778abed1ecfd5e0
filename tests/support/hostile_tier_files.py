"""Hostile Praat TextGrids and ELAN files for `annotator fold`: the shapes Praat and ELAN can save (tiers sharing a
name, point tiers, unaligned time slots) and broken ones (times that are no number, far off, reversed), each with
what the fold must do.

    for case in tier_file_cases(log):          # the log's first session, typed into by each case
        path.write_bytes(case.content)         # then `annotator fold LOG path -o OUT`: exit case.code, one line

Every case is made from the session's own tiers (annotator.export.session_tiers, as the export writes them), with
TYPED typed into the transcription interval of the user turn TYPED_TURN (the second user turn) and changed as
its name says. The writers take the tiers as given, so they can write what praatio and pympi would not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

from hypothesis import strategies as st

from annotator.export.session_tiers import TRANSCRIPTION, Interval, session_tiers
from annotator.log.document import LogDocument
from annotator.timeline.data import build_timeline

TYPED = "i want to fly to Zürich"
TYPED_TURN = 1  # the second user turn

Entry = tuple[str, str, str]  # start, end (as written: any text), label
GridTier = tuple[str, str, list[Entry]]  # class ("IntervalTier" or "TextTier"), name, entries


@dataclass(frozen=True)
class TierFileCase:
    name: str  # the file's name: its suffix says TextGrid or EAF
    content: bytes
    code: int  # the fold's exit status: 0, or 2 with one line
    said: str  # what that line holds (exit 2), or the turn's id the typing lands in (exit 0, "" for none)
    folded: int = field(default=1)  # annotations folded, exit 0


def session_intervals(log: Path) -> tuple[dict[str, list[Interval]], str, int]:
    """The first session's tiers (TYPED in the transcription of user turn TYPED_TURN), that turn's id and the
    session's length in milliseconds."""
    session = LogDocument.load(log).sessions[0]
    tiers = session_tiers(session, build_timeline(session))
    intervals = {name: list(found) for name, found in tiers.tiers.items()}
    typed = intervals[TRANSCRIPTION][TYPED_TURN]
    intervals[TRANSCRIPTION][TYPED_TURN] = Interval(typed.start, typed.end, TYPED)
    return intervals, session.turns[tiers.user_turns[TYPED_TURN][1]].id, tiers.duration_ms


# --- TextGrid ------------------------------------------------------------------------------------------------------
def textgrid_text(tiers: list[GridTier], end: str) -> str:
    """A long-format TextGrid of TIERS from 0 to END, written as given."""
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {end}"]
    lines += ["tiers? <exists>", f"size = {len(tiers)}", "item []:"]
    for number, (kind, name, entries) in enumerate(tiers, start=1):
        lines += [f"    item [{number}]:", f'        class = "{kind}"', f'        name = "{name}"']
        lines += ["        xmin = 0", f"        xmax = {end}"]
        if kind == "IntervalTier":
            lines.append(f"        intervals: size = {len(entries)}")
            for index, (start, stop, label) in enumerate(entries, start=1):
                lines += [f"        intervals [{index}]:", f"            xmin = {start}", f"            xmax = {stop}"]
                lines.append(f'            text = "{_praat_text(label)}"')
        else:
            lines.append(f"        points: size = {len(entries)}")
            for index, (at, _, label) in enumerate(entries, start=1):
                lines += [f"        points [{index}]:", f"            number = {at}"]
                lines.append(f'            mark = "{_praat_text(label)}"')
    return "\n".join(lines) + "\n"


def _praat_text(text: str) -> str:
    return text.replace('"', '""')


def grid_tiers(intervals: dict[str, list[Interval]]) -> list[GridTier]:
    return [
        ("IntervalTier", name, [(_s(i.start), _s(i.end), i.text) for i in found]) for name, found in intervals.items()
    ]


def _s(ms: int) -> str:
    return repr(ms / 1000)


def _with_typed_times(tiers: list[GridTier], start: str, end: str) -> list[GridTier]:
    """TIERS with the typed interval moved to START-END."""
    return [
        (kind, name, [(start, end, label) if label == TYPED else (s, e, label) for s, e, label in entries])
        for kind, name, entries in tiers
    ]


def textgrid_cases(log: Path) -> list[TierFileCase]:
    intervals, turn, length = session_intervals(log)
    base = grid_tiers(intervals)
    end = _s(length)
    names = [name for _, name, _ in base]
    transcription = base[names.index(TRANSCRIPTION)]
    second = (
        "IntervalTier",
        TRANSCRIPTION,
        [(s, e, "typed again" if label == TYPED else label) for s, e, label in transcription[2]],
    )
    cases = [
        ("typed.TextGrid", base, 0, turn),
        (
            "two-transcription.TextGrid",
            [*base, second],
            2,
            f"tiers {names.index(TRANSCRIPTION) + 1} and {len(base) + 1} are both named 'transcription': which one to fold is not clear; nothing was folded",
        ),
        ("two-turns.TextGrid", [*base, base[0]], 2, f"tiers 1 and {len(base) + 1} are both named 'turns'"),
        (
            "three-transcription.TextGrid",
            [*base, second, second],
            2,
            f"tiers {names.index(TRANSCRIPTION) + 1}, {len(base) + 1} and {len(base) + 2} are all named 'transcription'",
        ),
        ("two-recognizer.TextGrid", [*base, base[1]], 0, turn),
        ("point-transcription.TextGrid", [*base, ("TextTier", TRANSCRIPTION, [("1.5", "", "a point")])], 0, turn),
        (
            "far-off.TextGrid",
            _with_typed_times(base, "1000000000000000000", "1000000000000000001"),
            2,
            "covers no user turn",
        ),
        ("negative.TextGrid", _with_typed_times(base, "-5", "-3"), 2, "not a TextGrid Praat can read"),
        ("reversed.TextGrid", _with_typed_times(base, "30", "20"), 2, ""),
        ("not-a-number.TextGrid", _with_typed_times(base, "nan", "inf"), 2, ""),
        ("no-transcription.TextGrid", [t for t in base if t[1] != TRANSCRIPTION], 2, "tier transcription: missing"),
    ]
    return [
        TierFileCase(name, textgrid_text(tiers, end).encode("utf-8"), code, said) for name, tiers, code, said in cases
    ]


# --- ELAN ----------------------------------------------------------------------------------------------------------
Annotation = tuple[
    str, str, str, str
]  # annotation id, start slot ("@ID": a reference to annotation ID), end slot, value
EafTier = tuple[str, list[Annotation]]


def eaf_text(slots: list[tuple[str, str | None]], tiers: list[EafTier]) -> str:
    """An EAF 3.0 of SLOTS (TIME_ORDER, in order; a None time: an unaligned slot) and TIERS, written as given."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<ANNOTATION_DOCUMENT AUTHOR="" DATE="2026-11-21T14:00:00+00:00" FORMAT="3.0" VERSION="3.0" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">',
        '<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>',
        "<TIME_ORDER>",
    ]
    for slot, time in slots:
        value = "" if time is None else f" TIME_VALUE={quoteattr(time)}"
        lines.append(f'<TIME_SLOT TIME_SLOT_ID="{slot}"{value}/>')
    lines.append("</TIME_ORDER>")
    holder = {annotation: name for name, found in tiers for annotation, *_ in found}
    for name, found in tiers:
        parents = {holder.get(start[1:], "") for _, start, _, _ in found if start.startswith("@")}
        parent = f" PARENT_REF={quoteattr(min(parents))}" if parents else ""
        lines.append(f"<TIER TIER_ID={quoteattr(name)} LINGUISTIC_TYPE_REF={quoteattr(name)}{parent}>")
        for annotation, start, end, value in found:
            if start.startswith("@"):  # a reference annotation: its times are those of the annotation it names
                lines.append(
                    f'<ANNOTATION><REF_ANNOTATION ANNOTATION_ID="{annotation}" ANNOTATION_REF="{start[1:]}">'
                    f"<ANNOTATION_VALUE>{_xml_text(value)}</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>"
                )
                continue
            lines += [
                f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="{annotation}" TIME_SLOT_REF1="{start}" '
                f'TIME_SLOT_REF2="{end}"><ANNOTATION_VALUE>{_xml_text(value)}</ANNOTATION_VALUE>'
                "</ALIGNABLE_ANNOTATION></ANNOTATION>"
            ]
        lines.append("</TIER>")
    for name in dict.fromkeys(name for name, _ in tiers):
        lines.append(f'<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID={quoteattr(name)} TIME_ALIGNABLE="true"/>')
    lines.append("</ANNOTATION_DOCUMENT>")
    return "\n".join(lines) + "\n"


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def eaf_parts(intervals: dict[str, list[Interval]]) -> tuple[list[tuple[str, str | None]], list[EafTier], str]:
    """Time slots (by time, as ELAN orders them) and tiers of INTERVALS; the typed annotation's id."""
    slots: list[tuple[int, str]] = []
    tiers: list[EafTier] = []
    typed = ""
    for name, found in intervals.items():
        annotations = []
        for interval in found:
            start, end = f"ts{len(slots) + 1}", f"ts{len(slots) + 2}"
            slots += [(interval.start, start), (interval.end, end)]
            annotation = f"a{len(slots) // 2}"
            typed = annotation if interval.text == TYPED and name == TRANSCRIPTION else typed
            annotations.append((annotation, start, end, interval.text))
        tiers.append((name, annotations))
    ordered: list[tuple[str, str | None]] = [
        (slot, str(time)) for time, slot in sorted(slots, key=lambda pair: (pair[0], int(pair[1][2:])))
    ]
    return ordered, tiers, typed


def _unaligned(slots: list[tuple[str, str | None]], slot: str, after: str | None) -> list[tuple[str, str | None]]:
    """SLOTS with SLOT made unaligned and moved right after the slot AFTER (None: to the end)."""
    kept: list[tuple[str, str | None]] = [pair for pair in slots if pair[0] != slot]
    at = len(kept) if after is None else next(n for n, pair in enumerate(kept) if pair[0] == after) + 1
    return [*kept[:at], (slot, None), *kept[at:]]


def _end_slot(tiers: list[EafTier], annotation: str) -> str:
    return next(end for _, found in tiers for a, _, end, _ in found if a == annotation)


def _retimed(slots: list[tuple[str, str | None]], slot: str, time: str) -> list[tuple[str, str | None]]:
    return [(name, time if name == slot else value) for name, value in slots]


def eaf_cases(log: Path) -> list[TierFileCase]:
    intervals, turn, _ = session_intervals(log)
    slots, tiers, typed = eaf_parts(intervals)
    end = _end_slot(tiers, typed)
    end_time = dict(slots)[end]
    twin = next(slot for slot, time in slots if time == end_time and slot != end)  # another tier's slot there
    names = [name for name, _ in tiers]
    second = (TRANSCRIPTION, [(a.replace("a", "b"), s, e, v) for a, s, e, v in tiers[names.index(TRANSCRIPTION)][1]])
    referring = (
        TRANSCRIPTION,
        [(f"r{a}", f"@{a}", "", "typed again") for a, _, _, _ in tiers[names.index("recognizer")][1]],
    )
    emptied = [(name, [(a, s, e, "" if a == typed else v) for a, s, e, v in found]) for name, found in tiers]
    cases: list[tuple[str, list[tuple[str, str | None]], list[EafTier], int, str]] = [
        ("typed.eaf", slots, tiers, 0, turn),
        # between two aligned slots of the same time, ELAN places the unaligned one there too
        ("unaligned-inside.eaf", _unaligned(slots, end, twin), tiers, 0, turn),
        (
            "unaligned-at-end.eaf",
            _unaligned(slots, end, None),
            tiers,
            2,
            f"tier transcription: annotation {typed}: its end (time slot {end}) is unaligned and no aligned time slot on each side of it places it",
        ),
        ("unaligned-empty.eaf", _unaligned(slots, end, None), emptied, 0, ""),
        (
            "slot-not-there.eaf",
            [pair for pair in slots if pair[0] != end],
            tiers,
            2,
            f"annotation {typed}: its end is time slot {end}, which the TIME_ORDER does not have",
        ),
        (
            "two-transcription.eaf",
            slots,
            [*tiers, second],
            2,
            f"tiers {names.index(TRANSCRIPTION) + 1} and {len(tiers) + 1} are both named 'transcription': ELAN names each tier once",
        ),
        (
            "reference-transcription.eaf",
            slots,
            [*tiers, referring],
            2,
            f"tiers {names.index(TRANSCRIPTION) + 1} and {len(tiers) + 1} are both named 'transcription'",
        ),
        (
            "reference-only.eaf",
            slots,
            [*[t for t in tiers if t[0] != TRANSCRIPTION], referring],
            2,
            "tier transcription: its annotations refer to tier recognizer's and have no times of their own",
        ),
        ("two-system.eaf", slots, [*tiers, tiers[names.index("system")]], 2, "are both named 'system'"),
        ("far-off.eaf", _retimed(slots, end, "99999999999999999999"), tiers, 2, "covers two user turns"),
        ("negative.eaf", _retimed(slots, end, "-5"), tiers, 2, ""),
        ("not-a-number.eaf", _retimed(slots, end, "soon"), tiers, 2, "not an ELAN file"),
    ]
    return [
        TierFileCase(name, eaf_text(s, t).encode("utf-8"), code, said, folded=0 if name == "unaligned-empty.eaf" else 1)
        for name, s, t, code, said in cases
    ]


def tier_file_cases(log: Path) -> list[TierFileCase]:
    return textgrid_cases(log) + eaf_cases(log)


# --- mutants for the fuzz test -------------------------------------------------------------------------------------
HOSTILE_NUMBERS = ["nan", "inf", "-inf", "-1", "1e308", "99999999999999999999", "0", "", "x", "1.5.5", "-0"]


@st.composite
def tier_file_mutants(draw, cases: list[TierFileCase]) -> tuple[str, bytes]:
    """A case's file with some of its numbers, names and lines replaced: (the file's name, its content)."""
    case = draw(st.sampled_from(cases))
    lines = case.content.decode("utf-8").split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["number", "drop", "copy", "name", "attribute"]))
        line = lines[at]
        if action == "number":
            lines[at] = _replace_number(line, draw(st.sampled_from(HOSTILE_NUMBERS)))
        elif action == "drop":
            del lines[at]
        elif action == "copy":
            lines.insert(at, line)
        elif action == "name":
            lines[at] = line.replace(
                draw(st.sampled_from(["transcription", "turns", "concepts", "recognizer"])),
                draw(st.sampled_from(["transcription", "turns", "", 'x"y'])),
            )
        else:
            lines[at] = line.replace("TIME_VALUE", "TIME_VALU").replace("TIME_SLOT_REF2", "X").replace("xmax", "xmix")
        if not lines:
            lines = [""]
    return case.name, "\n".join(lines).encode("utf-8")


def _replace_number(line: str, number: str) -> str:
    return re.sub(r"(?<=[= \"])-?\d+(\.\d+)?", number, line, count=1)
