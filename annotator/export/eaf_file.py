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

from pympi import Elan

from annotator.errors import AnnotationFileError
from annotator.export.session_tiers import Interval, SessionTiers

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


def read_eaf_tiers(path: Path) -> tuple[dict[str, list[Interval]], str | None]:
    """The time-aligned tiers of the EAF at PATH (their non-empty annotations, in time order) and
    the session its properties name, if any."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pympi warns of versions it does not know; the tiers say enough
            eaf = Elan.Eaf(str(path))
    except OSError as error:
        raise AnnotationFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    except KeyError as error:  # an element without an attribute pympi needs
        raise AnnotationFileError(
            f"{path}: not an ELAN file (no {error.args[0] if error.args else 'attribute'} where ELAN writes one)"
        ) from None
    except Exception as error:  # pympi raises bare Exception, and others, for what is not EAF
        raise AnnotationFileError(f"{path}: not an ELAN file ({error or type(error).__name__})") from None
    tiers: dict[str, list[Interval]] = {}
    for name in eaf.get_tier_names():
        if eaf.tiers[name][1]:  # reference annotations: no times of their own
            continue
        try:
            found = eaf.get_annotation_data_for_tier(name)
        except (KeyError, TypeError) as error:
            raise AnnotationFileError(f"{path}: tier {name}: an annotation without a time ({error})") from None
        tiers[name] = sorted(
            (Interval(int(start), int(end), value) for start, end, value, *_ in found if value.strip()),
            key=lambda interval: (interval.start, interval.end),
        )
    session = next((value for key, value in eaf.properties if key == SESSION_PROPERTY), None)
    return tiers, session
