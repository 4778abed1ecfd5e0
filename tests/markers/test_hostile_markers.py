"""Hostile marker files through `annotator markers`: exit status 0 or 2, one line, never 70.

A 9-line YAML alias bomb ran past 60 s and 2 GB; a control character ended in exit 70.
Hand-made hostile files, then hypothesis: byte-level mutations of the shipped KPIs
and generated YAML with anchors, aliases, merge keys, tags and odd scalars. About
300 examples in the default run; FUZZ_SCALE=N runs N times as many.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.cli.main import main
from annotator.markers.language import MAX_EXPANDED_NODES, MAX_FILE_BYTES, TAGS
from tests.support.cli import run_annotator
from tests.support.repository import REPO, SAMPLE_LOGS

LOG = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
KPIS = (REPO / "resources" / "markers" / "communicator-kpis.yml").read_bytes()
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))

ALIAS_BOMB = b"""\
a: &a {or: [{intent: x}, {intent: x}, {intent: x}, {intent: x}, {intent: x}, {intent: x}, {intent: x}, {intent: x}]}
b: &b {or: [*a, *a, *a, *a, *a, *a, *a, *a, *a]}
c: &c {or: [*b, *b, *b, *b, *b, *b, *b, *b, *b]}
d: &d {or: [*c, *c, *c, *c, *c, *c, *c, *c, *c]}
e: &e {or: [*d, *d, *d, *d, *d, *d, *d, *d, *d]}
f: &f {or: [*e, *e, *e, *e, *e, *e, *e, *e, *e]}
g: &g {or: [*f, *f, *f, *f, *f, *f, *f, *f, *f]}
h: &h {or: [*g, *g, *g, *g, *g, *g, *g, *g, *g]}
i: &i {or: [*h, *h, *h, *h, *h, *h, *h, *h, *h]}
"""
MERGE_BOMB = b"a: &a {x: 1, y: 2}\n" + b"".join(
    b"%s: &%s {<<: [*%s, *%s, *%s, *%s]}\n" % (k, k, p, p, p, p)
    for p, k in zip([b"a", *(b"k%d" % n for n in range(30))], [b"k%d" % n for n in range(31)])
)

HOSTILE = {
    "alias-bomb": (ALIAS_BOMB, f"m.yml:5: the YAML expands to more than {MAX_EXPANDED_NODES} nodes"),
    "merge-key-bomb": (MERGE_BOMB, f"m.yml:9: the YAML expands to more than {MAX_EXPANDED_NODES} nodes"),
    "control-character": (b'm:\n  intent: "a\x01b"\n', "m.yml:2: not valid YAML: the character #x0001 is not allowed"),
    "escape-to-control-character": (b'm:\n  intent: "a\\x01b"\n', None),  # YAML's own escape: a valid value
    "recursive-alias": (b"m: &m\n  not:\n    - *m\n", "m.yml:1: an alias refers to a node that contains it"),
    "deep-nesting": (b"m: " + b"[" * 5000 + b"]" * 5000 + b"\n", "m.yml: nested too deeply to read"),
    "5000-digit-integer": (b"m:\n  intent: 1" + b"0" * 5000 + b"\n", "m.yml:2: marker m: cannot read the value"),
    "python-tag": (b"m: !!python/object/apply:os.system ['echo pwned']\n", "m.yml:1"),
    "binary-tag": (b"m:\n  intent: !!binary '####'\n", "m.yml:2"),
    "timestamp-out-of-range": (b"m:\n  intent: 2001-99-99\n", "m.yml:2"),
    "nul-byte": (b"m:\n  intent: a\x00b\n", "m.yml:2: not valid YAML"),
    "not-utf8": (b"m:\n  intent: caf\xe9\n", "m.yml: not UTF-8 text"),
    "too-large": (b"# " + b"x" * MAX_FILE_BYTES + b"\nm: {intent: x}\n", "m.yml: larger than 1 MiB"),
    "two-documents": (b"m: {intent: x}\n---\nn: {intent: y}\n", "m.yml:2: not valid YAML: but found another document"),
    "huge-regex-nesting": (b"m:\n  text_matches: '" + b"(" * 3000 + b")" * 3000 + b"'\n", "m.yml"),
}


def run_markers(config: bytes, tmp_path: Path, capsys) -> tuple[int, str]:
    path = tmp_path / "m.yml"
    path.write_bytes(config)
    status = main(
        ["markers", "--config", str(path), str(LOG), "-o", str(tmp_path / "out.csv"), "--no-stats", "--force"]
    )
    return status, capsys.readouterr().err


def assert_clean(status: int, err: str) -> None:
    assert status in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("annotator: "), err


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.slow
def test_hostile_marker_files(tmp_path: Path, capsys, name: str):
    config, expected = HOSTILE[name]
    status, err = run_markers(config, tmp_path, capsys)
    assert_clean(status, err)
    if expected is None:
        assert status == 0, err
    else:
        assert status == 2 and err.startswith(f"annotator: {tmp_path / expected}"), err


def _bounded(limit_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def test_the_alias_bomb_through_the_real_command(tmp_path: Path):
    """As a subprocess with 1 GB of address space: refused in one line, not killed."""
    config = tmp_path / "bomb.yml"
    config.write_bytes(ALIAS_BOMB)
    done = run_annotator(
        "markers", "--config", config, LOG, "-o", tmp_path / "out.csv", preexec_fn=lambda: _bounded(1 << 30)
    )

    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"annotator: {config}:5: the YAML expands to more than {MAX_EXPANDED_NODES} nodes "
        "(through aliases or merge keys); marker files are small\n"
    )
    assert not (tmp_path / "out.csv").exists()


# --- fuzzing ----------------------------------------------------------------------------------------

TOKENS = [
    b"&a ",
    b"*a",
    b"<<: *a",
    b"!!python/object:os.system",
    b"!!binary",
    b"!!set",
    b"!!omap",
    b"? ",
    b"- ",
    b": ",
    b"[",
    b"]",
    b"{",
    b"}",
    b"\x00",
    b"\x01",
    b"\x7f",
    b"\x85",
    b"\xe2\x80\xa8",
    b"\t",
    b"\r",
    b"\xff",
    b"'",
    b'"',
    b"\\",
    b"%YAML 1.1\n",
    b"---\n",
    b"...\n",
    b"#",
    b"|",
    b">",
    b"9" * 5000,
    b"0x" + b"f" * 3000,
    b"1e99999",
    b"2001-13-45",
    b"~",
    b"yes",
    b"no",
    b".nan",
    b"((((",
]


@st.composite
def mutated_kpis(draw) -> bytes:
    data = bytearray(KPIS)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["token", "token", "delete", "flip", "truncate"]))
        if kind == "token":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        else:
            del data[at:]
    return bytes(data)


SCALARS = st.one_of(
    st.sampled_from(
        ["x", "true", "no", "~", "1" + "0" * 5000, "-.inf", "2001-12-14", "'q'", "(?i)^no\\b", "((", "*a", "&a b"]
    ),
    st.text(max_size=12),
)
NAMES = st.one_of(
    st.sampled_from(sorted(TAGS) + ["description", "<<", "marker_x", "and", "1", "- x"]), st.text(max_size=8)
)


def _yaml_value(draw, depth: int) -> str:
    kind = draw(st.sampled_from(["scalar", "scalar", "list", "map", "alias"] if depth < 4 else ["scalar"]))
    if kind == "scalar":
        return _quoted(draw(SCALARS)) if draw(st.booleans()) else draw(SCALARS).replace("\n", " ")
    if kind == "alias":
        return draw(st.sampled_from(["*a", "*b", "&a {intent: x}", "&b [*a, *a]", "{<<: *a}"]))
    items = [_yaml_value(draw, depth + 1) for _ in range(draw(st.integers(0, 3)))]
    if kind == "list":
        return "[" + ", ".join(items) + "]"
    keys = [_quoted(draw(NAMES)) for _ in items]
    return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items)) + "}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def generated_yaml(draw) -> bytes:
    lines = [f"{_quoted(draw(NAMES))}: {_yaml_value(draw, 0)}" for _ in range(draw(st.integers(1, 4)))]
    return "\n".join(lines).encode("utf-8", "surrogatepass")


FUZZ = settings(
    max_examples=150 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(config=mutated_kpis())
@pytest.mark.slow
def test_mutated_marker_files_are_read_or_refused_in_one_line(tmp_path: Path, capsys, config: bytes):
    assert_clean(*run_markers(config, tmp_path, capsys))


@FUZZ
@given(config=generated_yaml())
@pytest.mark.slow
def test_generated_marker_files_are_read_or_refused_in_one_line(tmp_path: Path, capsys, config: bytes):
    assert_clean(*run_markers(config, tmp_path, capsys))
