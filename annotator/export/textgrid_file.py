"""Praat TextGrid files through praatio: the session's tiers written, and read back after Praat saved them.

We write the long text format in UTF-8. Praat saves a TextGrid with only ASCII in it as
ASCII, and one with any other character as UTF-16 (big-endian, with a byte-order mark), in
the long ("text file") or short format the annotator chose: all are read here.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

from praatio import textgrid
from praatio.utilities import textgrid_io
from praatio.utilities.errors import PraatioException

from annotator.errors import AnnotationFileError
from annotator.export.session_tiers import Interval, SessionTiers
from annotator.export.tier_list import Tier
from annotator.input_files import open_input_file, read_problem

_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xfe\xff", "utf-16"), (b"\xff\xfe", "utf-16"))


def textgrid_bytes(tiers: SessionTiers) -> bytes:
    """The tiers as a long-format UTF-8 TextGrid from 0 to the session's end."""
    end = tiers.duration_ms / 1000
    grid = textgrid.Textgrid(0.0, end)
    for name, intervals in tiers.tiers.items():
        entries = [(*interval.seconds(), interval.text) for interval in intervals]
        grid.addTier(textgrid.IntervalTier(name, entries, 0.0, end))
    handle, name = tempfile.mkstemp(suffix=".TextGrid")  # praatio writes to a path only
    os.close(handle)
    try:
        grid.save(name, format="long_textgrid", includeBlankSpaces=True, minimumIntervalLength=None)
        return Path(name).read_bytes()
    finally:
        os.unlink(name)


def read_textgrid_tiers(path: Path) -> list[Tier]:
    """The interval tiers of the TextGrid at PATH in its order (two may share a name), each its labelled
    intervals in milliseconds."""
    try:
        with open_input_file(path) as stream:
            raw = stream.read()
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    encoding = next((name for bom, name in _BOMS if raw.startswith(bom)), "utf-8")
    try:
        parsed = textgrid_io.parseTextgridStr(raw.decode(encoding), includeEmptyIntervals=False)
    except UnicodeDecodeError as error:
        raise AnnotationFileError(f"{path}: not UTF-8 or UTF-16 text, as Praat writes (byte {error.start})") from None
    except PraatioException as error:
        raise AnnotationFileError(f"{path}: not a TextGrid Praat can read ({' '.join(str(error).split())})") from None
    except (ValueError, KeyError, IndexError, AttributeError, TypeError):  # praatio's parser met no TextGrid
        raise AnnotationFileError(
            f"{path}: not a TextGrid Praat can read (its header and tiers are not there)"
        ) from None
    return [
        Tier(
            position,
            tier["name"],
            [
                Interval(_ms(path, tier["name"], start), _ms(path, tier["name"], end), str(label))
                for start, end, label in tier["entries"]
            ],
        )
        for position, tier in enumerate(parsed.get("tiers", []), start=1)
        if tier.get("class") == "IntervalTier"
    ]


def _ms(path: Path, tier: str, seconds: object) -> int:
    """SECONDS, a time as praatio read it (its text, where it is no number), in whole milliseconds."""
    try:
        value = float(str(seconds))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise AnnotationFileError(f"{path}: tier {tier}: {str(seconds)!r} is not a time in seconds")
    return int(round(value * 1000))
