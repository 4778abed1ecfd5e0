"""Benchmark: `annotator validate` grows linearly with the number of DTD errors in a log.

    python tests/benchmarks/bench_validate.py [--errors 20000,200000,2000000] [--shape flat|spread|attributes|all]

Writes logs that break the DTD once per element and times what `annotator validate` does for
each (load, then validate_document with the CLI's cap on listed findings), printing per log

    shape N errors (M MB): load X s, validate Y s = Z s per 10k errors (ratio R to the smallest)

A linear validator keeps R near 1 as N grows tenfold; before the validation was done in pieces
(annotator.analysis.dtd_pieces) the flat shape's time per error grew with N (200k errors: 86 s).
Shapes: "flat" puts every erring element (an undeclared <x/>) in one GC_SESSION, the worst
case for libxml2's node paths; "spread" shares them among 1,000 sessions of turns that each
lack their etime, closer to a real corpus gone wrong; "attributes" puts every error on one element, an
undeclared attribute each, written before the element's own (lxml looked each of them up from the
start of the list: 80,000 attributes took 64 s, 200,000 over 120 s).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository, when run as a script

SESSIONS_WHEN_SPREAD = 1000


def write_log(path: Path, errors: int, shape: str) -> None:
    if shape == "attributes":
        extra = " ".join(f'x{number}="{number}"' for number in range(errors))
        path.write_text(
            f'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG><GC_SESSION id="s" stime="1" etime="2">'
            f'<GC_TURN id="1" stime="1" etime="2"><GC_OPERATION {extra} name="greet" server="s" '
            'location="l:1" turnid="1" stime="1" etime="2"/></GC_TURN></GC_SESSION></GC_LOG>\n',
            encoding="utf-8",
        )
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG>\n')
        if shape == "flat":
            out.write('<GC_SESSION id="s" stime="1" etime="2">\n')
            out.writelines("<x/>\n" for _ in range(errors))
            out.write("</GC_SESSION>\n")
        else:
            per_session = errors // SESSIONS_WHEN_SPREAD
            for number in range(SESSIONS_WHEN_SPREAD):
                out.write(f'<GC_SESSION id="s{number}" stime="1" etime="2">\n')
                out.writelines(f'<GC_TURN id="{i}" stime="1"/>\n' for i in range(per_session))
                out.write("</GC_SESSION>\n")
        out.write("</GC_LOG>\n")


def measure(path: Path) -> tuple[float, float, int]:
    """(load seconds, validate seconds, findings counted) as `annotator validate --no-audio` does it."""
    from annotator.analysis.validation import KEEP_PER_KIND, validate_document
    from annotator.log.document import LogDocument

    gc.collect()
    start = time.perf_counter()
    doc = LogDocument.load(path)
    loaded = time.perf_counter()
    findings = validate_document(doc, audio=False, keep=KEEP_PER_KIND)
    done = time.perf_counter()
    return loaded - start, done - loaded, sum(finding.count for finding in findings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", default="20000,200000,2000000", help="comma-separated numbers of errors")
    parser.add_argument("--shape", choices=("flat", "spread", "attributes", "all"), default="all")
    args = parser.parse_args()
    counts = [int(part) for part in args.errors.split(",")]
    shapes = ("flat", "spread", "attributes") if args.shape == "all" else (args.shape,)
    import lxml.etree

    print(
        f"Python {sys.version.split()[0]}, lxml {lxml.etree.__version__}, libxml2 "
        f"{'.'.join(map(str, lxml.etree.LIBXML_VERSION))}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        for shape in shapes:
            first_rate = None
            for errors in counts:
                path = Path(folder) / f"{shape}-{errors}.xml"
                write_log(path, errors, shape)
                load_s, validate_s, found = measure(path)
                rate = (load_s + validate_s) / errors * 10_000
                first_rate = first_rate or rate
                print(
                    f"{shape} {errors:,} errors ({path.stat().st_size / 1e6:.1f} MB, {found:,} findings): "
                    f"load {load_s:.2f} s, validate {validate_s:.2f} s = {rate:.3f} s per 10k errors "
                    f"(ratio {rate / first_rate:.2f} to the smallest)",
                    flush=True,
                )
                path.unlink()


if __name__ == "__main__":
    main()
