"""ELAN files through pympi-ling: the session's tiers written as EAF 3.0, and read back after ELAN saved them.

One linguistic type per tier (named as the tier), times in milliseconds, every interval an
annotation (the empty ones too: the transcription tier's empty boxes are where the annotator
types). The header links the session's WAV by its absolute URL and, for ELAN to find it when
the pair is moved together, by RELATIVE_MEDIA_URL; its properties name the session.

pympi writes EAF 2.8 unless told otherwise; 3.0 differs from 2.8 only by elements we do not
write (docs/adr/0013-praat-elan.md), so the version and schema are set to 3.0. ELAN renumbers
the time slots and annotation ids when it saves: pympi resolves both, and we read only times,
tier names and values.
"""

from __future__ import annotations

import warnings
from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree

from pympi import Elan

from annotator.errors import AnnotationFileError
from annotator.export.eaf_slots import slot_times
from annotator.export.session_tiers import Interval, SessionTiers
from annotator.export.tier_list import Tier, same_name
from annotator.input_files import check_regular_file, open_input_file, read_problem

EAF_VERSION = "3.0"
SESSION_PROPERTY = "communicator_session"
_SCHEMA = "http://www.mpi.nl/tools/elan/EAFv3.0.xsd"
_EPOCH_RANGE = (0.0, 32503680000.0)  # times a date can be made of (to the year 3000); else the export's date


def eaf_bytes(tiers: SessionTiers, wav: Path, log_name: str) -> bytes:
    """The tiers as an EAF 3.0 document linking WAV (its final path; the EAF is written beside it)."""
    eaf = Elan.Eaf(author="communicator-annotator")
    eaf.adocument.update({"VERSION": EAF_VERSION, "FORMAT": EAF_VERSION, "xsi:noNamespaceSchemaLocation": _SCHEMA})
    if tiers.started is not None and _EPOCH_RANGE[0] <= tiers.started <= _EPOCH_RANGE[1]:
        # The session's date, not the export's: the same log exports to the same bytes.
        eaf.adocument["DATE"] = datetime.fromtimestamp(tiers.started, UTC).isoformat(timespec="seconds")
    eaf.remove_tier("default")
    eaf.remove_linguistic_type("default-lt")
    eaf.properties = [("lastUsedAnnotation", sum(map(len, tiers.tiers.values())))]  # where ELAN numbers new ones from
    eaf.add_linked_file(wav.absolute().as_uri(), relpath=f"./{wav.name}", mimetype="audio/x-wav")
    eaf.add_property(SESSION_PROPERTY, tiers.session_id)
    eaf.add_property("communicator_log", log_name)
    for name, intervals in tiers.tiers.items():
        eaf.add_linguistic_type(name)
        eaf.add_tier(name, ling=name)
        for interval in intervals:
            eaf.add_annotation(name, interval.start, interval.end, interval.text)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + Elan.to_string(eaf, encoding="UTF-8")


def read_eaf_tiers(path: Path) -> tuple[list[Tier], str | None]:
    """The time-aligned tiers of the EAF at PATH in its order (their non-empty annotations, in time
    order) and the session its properties name, if any. An unaligned time slot is placed as ELAN
    places it (annotator.export.eaf_slots); a non-empty annotation that cannot be placed, or two
    tiers of one name (pympi would keep one of them), is an AnnotationFileError naming it."""
    try:
        check_regular_file(path)  # pympi opens what it is given: a FIFO would block it
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pympi warns of versions it does not know; the tiers say enough
            eaf = Elan.Eaf(str(path))
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    except KeyError as error:  # an element without an attribute pympi needs
        raise AnnotationFileError(
            f"{path}: not an ELAN file (no {error.args[0] if error.args else 'attribute'} where ELAN writes one)"
        ) from None
    except Exception as error:  # pympi raises bare Exception, and others, for what is not EAF
        raise AnnotationFileError(f"{path}: not an ELAN file ({error or type(error).__name__})") from None
    twice = same_name(_tier_ids(path), tuple(eaf.tiers))
    if twice is not None:
        raise AnnotationFileError(f"{path}: {twice}: ELAN names each tier once, and which one to read is not clear")
    times = slot_times(eaf.timeslots)
    tiers = []
    for name, (aligned, referring, attributes, number) in eaf.tiers.items():
        if referring:  # reference annotations: no times of their own
            tiers.append(Tier(number + 1, name, [], refers_to=attributes.get("PARENT_REF", "")))
            continue
        intervals = [
            Interval(*_placed(path, name, annotation, slots, times), value)
            for annotation, (*slots, value, _svg) in aligned.items()
            if value.strip()
        ]
        tiers.append(Tier(number + 1, name, sorted(intervals, key=lambda i: (i.start, i.end))))
    session = next((value for key, value in eaf.properties if key == SESSION_PROPERTY), None)
    return sorted(tiers, key=lambda tier: tier.position), session


def _placed(path: Path, tier: str, annotation: str, slots: list[str], times: dict[str, int | None]) -> tuple[int, int]:
    """The start and end of ANNOTATION (its two time slots placed in TIMES), or an AnnotationFileError why not."""
    placed = []
    for which, slot in zip(("start", "end"), slots):
        if slot not in times:
            problem = f"its {which} is time slot {slot}, which the TIME_ORDER does not have"
        elif (time := times[slot]) is None:
            problem = (
                f"its {which} (time slot {slot}) is unaligned and no aligned time slot on each side of it places it"
            )
        else:
            placed.append(time)
            continue
        raise AnnotationFileError(f"{path}: tier {tier}: annotation {annotation}: {problem}")
    return placed[0], placed[1]


def _tier_ids(path: Path) -> list[tuple[int, str]]:
    """(position, TIER_ID) of every TIER of the EAF at PATH, in its order: read with the parser pympi reads
    with, which has just taken the file."""
    try:
        with open_input_file(path) as stream:
            return [
                (position, element.get("TIER_ID", ""))
                for position, (_, element) in enumerate(
                    (event for event in ElementTree.iterparse(stream) if event[1].tag == "TIER"), start=1
                )
            ]
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    except ElementTree.ParseError as error:  # changed since pympi read it
        raise AnnotationFileError(f"{path}: not an ELAN file ({error})") from None
