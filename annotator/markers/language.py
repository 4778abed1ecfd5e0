"""The marker language: YAML files mapping marker names to one condition or operator.

    marker_cheer_up_failed:
      description: the user stayed unhappy      # optional
      seq:
        - intent: mood_unhappy
        - action: utter_cheer_up

`load_markers(path)` reads a file, or every *.yml / *.yaml file below a
folder (sorted, hidden files and folders skipped), and validates it into a
MarkerSet of trees of Condition and Operator objects. Every problem raises
MarkerConfigError: one line naming the file, the line, the marker and what
is wrong. Names are unique across all files and may not be a tag name.

Marker files come from other people, so the loader is bounded: a file is at
most MAX_FILE_BYTES, and its YAML, with every alias and merge key expanded,
at most MAX_EXPANDED_NODES nodes (a 9-line "billion laughs" of aliases would
otherwise take minutes and gigabytes), without cycles; characters YAML does not
allow, values Python cannot hold and nesting deeper than the parser can follow
are errors like any other.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from annotator.errors import AnnotatorError
from annotator.input_files import open_input_file, read_problem, utf8_problem
from annotator.markers.conditions import CONDITIONS_BY_TAG, Condition
from annotator.markers.facts import FactNeeds
from annotator.markers.operators import OPERATORS_BY_TAG, EvaluationContext, Operator

YAML_SUFFIXES = (".yml", ".yaml")
SHIPPED_KPIS = ("markers", "communicator-kpis.yml")  # under resources/
DESCRIPTION = "description"
TAGS = frozenset(CONDITIONS_BY_TAG) | frozenset(OPERATORS_BY_TAG)
_MAX_DEPTH = 50  # markers nested deeper are surely a mistake
MAX_FILE_BYTES = 1 << 20  # the shipped KPIs are 3 KB
MAX_EXPANDED_NODES = 100_000  # YAML nodes with aliases expanded; the shipped KPIs have about 100


class MarkerConfigError(AnnotatorError):
    """A marker file that cannot be used: names the file, line, marker and what is wrong."""

    def __init__(self, path: str | Path, reason: str, marker: str | None = None, line: int | None = None):
        self.path, self.marker, self.line = str(path), marker, line
        self.reason = " ".join(str(reason).split())
        where = self.path + (f":{line}" if line else "")
        who = f" marker {marker}:" if marker else ""
        super().__init__(f"{where}:{who} {self.reason}")


@dataclass(frozen=True, eq=False)
class Marker:
    name: str
    root: Condition | Operator
    description: str | None
    path: Path
    line: int

    def reported_events(self, context: EvaluationContext) -> np.ndarray:
        """File-level indices of the events at which this marker is reported, ascending."""
        values = self.root.evaluate(context)
        if isinstance(self.root, Operator):
            return self.root.reported(values, context)
        return np.flatnonzero(values)

    def __str__(self) -> str:
        return f"{self.name}: {self.root}"


class MarkerSet:
    """Markers in the order they were defined (files in sorted order)."""

    def __init__(self, markers: list[Marker], fingerprint: str | None = None):
        self.markers = tuple(markers)
        self._by_name = {marker.name: marker for marker in markers}
        # Names what the markers mean (a hash of their files' texts, in order), so that the counts of an unchanged
        # log can be kept for them; None: not known (markers made in code), never kept.
        self.fingerprint = fingerprint

    @property
    def names(self) -> list[str]:
        return [marker.name for marker in self.markers]

    @property
    def needs(self) -> FactNeeds:
        """What a scan of a log must collect to evaluate every marker."""
        conditions = (c for marker in self.markers for c in marker.root.conditions())
        return functools.reduce(lambda a, b: a | b, (c.needs() for c in conditions), FactNeeds())

    def __iter__(self) -> Iterator[Marker]:
        return iter(self.markers)

    def __len__(self) -> int:
        return len(self.markers)

    def __getitem__(self, name: str) -> Marker:
        return self._by_name[name]

    def description(self, name: str) -> str | None:
        return self._by_name[name].description


def load_markers(path: str | Path) -> MarkerSet:
    """The markers of a YAML file, or of all YAML files in a folder tree."""
    path = Path(path)
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.suffix.lower() in YAML_SUFFIXES
            and p.is_file()
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            raise MarkerConfigError(path, "no marker files (*.yml, *.yaml) in this folder")
    elif path.exists():
        files = [path]  # not necessarily a regular file: reading it says what it is instead
    else:
        raise MarkerConfigError(path, "no such file or folder")
    markers: list[Marker] = []
    defined: dict[str, Marker] = {}
    fingerprint = hashlib.sha256()
    for file in files:
        text = _read_text(file)
        fingerprint.update(text.encode("utf-8", "surrogatepass") + b"\0")
        markers += _FileParser(file, defined).parse(text)
    return MarkerSet(markers, fingerprint.hexdigest())


def _read_text(file: Path) -> str:
    try:
        with open_input_file(file) as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise MarkerConfigError(file, read_problem(error)) from None
    if len(data) > MAX_FILE_BYTES:
        raise MarkerConfigError(file, f"larger than {MAX_FILE_BYTES >> 20} MiB; marker files are small")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MarkerConfigError(file, utf8_problem(error)) from None


def shipped_kpis_path() -> Path:
    """resources/markers/communicator-kpis.yml, in a checkout or an installed wheel."""
    from annotator.resources import resource_path

    return resource_path(*SHIPPED_KPIS)


def parse_markers(text: str, path: str | Path = "<markers>") -> MarkerSet:
    """The markers of YAML TEXT; PATH only names it in errors."""
    return MarkerSet(_FileParser(Path(path), {}).parse(text))


class _FileParser:
    """Walks the YAML node tree (not plain Python values) so that every error can name its line."""

    def __init__(self, path: Path, defined: dict[str, Marker]):
        self.path = path
        self.defined = defined  # names of all files read so far
        self.loader: yaml.SafeLoader | None = None
        self.marker: str | None = None

    def error(self, node: Node | None, reason: str) -> MarkerConfigError:
        line = node.start_mark.line + 1 if node is not None else None
        return MarkerConfigError(self.path, reason, self.marker, line)

    def parse(self, text: str) -> list[Marker]:
        try:
            self.loader = yaml.SafeLoader(text)
            root = self.loader.get_single_node()
            _check_size(root)
            return self._markers(root)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            raise MarkerConfigError(
                self.path,
                f"not valid YAML: {error.problem or error.context}",
                self.marker,
                line=mark.line + 1 if mark else None,
            ) from None
        except yaml.reader.ReaderError as error:  # a character YAML does not allow
            line = text.count("\n", 0, error.position) + 1 if isinstance(error.position, int) else None
            raise MarkerConfigError(
                self.path,
                f"not valid YAML: the character #x{error.character:04x} is not allowed (control characters are not)",
                line=line,
            ) from None
        except yaml.YAMLError as error:
            raise MarkerConfigError(self.path, f"not valid YAML: {error}", self.marker) from None
        except _TooLarge as error:
            raise MarkerConfigError(self.path, str(error), line=error.line) from None
        except RecursionError:
            raise MarkerConfigError(self.path, "nested too deeply to read", self.marker) from None
        finally:
            if self.loader is not None:
                self.loader.dispose()

    def _markers(self, root: Node | None) -> list[Marker]:
        if root is None or isinstance(root, ScalarNode) and root.tag.endswith(":null"):
            raise self.error(root, "no markers defined (the file is empty)")
        if not isinstance(root, MappingNode):
            raise self.error(
                root,
                "expected marker names, each mapped to a condition or operator "
                f"(e.g. `marker_help: {{help_message: true}}`), found {_describe(root)}",
            )
        markers = []
        for key_node, value_node in self._entries(root):
            self.marker = None
            name = self._name(key_node)
            self.marker = name
            tree, description = self._marker(value_node, depth=0)
            marker = Marker(name, tree, description, self.path, key_node.start_mark.line + 1)
            self.defined[name] = marker
            markers.append(marker)
        self.marker = None
        return markers

    def _entries(self, node: MappingNode) -> list[tuple[Node, Node]]:
        assert self.loader is not None, "nodes are read while the loader is open"
        self.loader.flatten_mapping(node)  # YAML merge keys (<<)
        return list(node.value)

    def _scalar(self, node: ScalarNode) -> object:
        assert self.loader is not None, "nodes are read while the loader is open"
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError) as error:  # e.g. an integer of 5000 digits
            raise self.error(node, f"cannot read the value {node.value[:40]!r}: {error}") from None

    def _name(self, node: Node) -> str:
        value = self._scalar(node) if isinstance(node, ScalarNode) else None
        if not isinstance(value, str) or not value.strip():
            shown = node.value if isinstance(node, ScalarNode) else _describe(node)
            raise self.error(node, f"marker names must be text, found {shown!r}; put it in quotes")
        if value in TAGS:
            raise self.error(node, f"{value!r} is a condition or operator, it cannot name a marker")
        if value in self.defined:
            first = self.defined[value]
            where = "" if first.path == self.path else f"{first.path}:"
            raise self.error(
                node,
                f"marker {value!r} is defined twice (first at {where}line {first.line}); "
                "names must be unique across all marker files",
            )
        return value

    def _marker(self, node: Node, depth: int) -> tuple[Condition | Operator, str | None]:
        """One condition or operator, with its optional description."""
        if depth > _MAX_DEPTH:
            raise self.error(node, f"markers nested more than {_MAX_DEPTH} levels deep")
        if not isinstance(node, MappingNode):
            raise self.error(
                node, f"expected one condition or operator such as `intent: greet`, found {_describe(node)}"
            )
        description, entries = None, []
        for key_node, value_node in self._entries(node):
            key = self._scalar(key_node) if isinstance(key_node, ScalarNode) else None
            if key == DESCRIPTION:
                description = self._description(value_node)
            else:
                entries.append((key, key_node, value_node))
        if len(entries) != 1:
            found = ", ".join(str(key) for key, _, _ in entries) or "nothing"
            raise self.error(node, f"expected exactly one condition or operator, found {found}")
        key, key_node, value_node = entries[0]
        if key in OPERATORS_BY_TAG:
            return self._operator(key, value_node, depth), description
        if key in CONDITIONS_BY_TAG:
            return self._condition(key, value_node), description
        raise self.error(key_node, self._unknown(key))

    def _description(self, node: Node) -> str:
        if not isinstance(node, ScalarNode) or not isinstance(self._scalar(node), str):
            raise self.error(node, f"the description must be text, found {_describe(node)}")
        return str(self._scalar(node))

    def _operator(self, tag: str, node: Node, depth: int) -> Operator:
        cls, negated = OPERATORS_BY_TAG[tag]
        if not isinstance(node, SequenceNode):
            raise self.error(
                node, f"{tag} takes a list of sub-markers (`- intent: greet` lines under it), found {_describe(node)}"
            )
        children = [self._marker(item, depth + 1)[0] for item in node.value]
        try:
            return cls(children, negated=negated)
        except ValueError as error:
            raise self.error(node, str(error)) from None

    def _condition(self, tag: str, node: Node) -> Condition:
        kind, negated = CONDITIONS_BY_TAG[tag]
        if not isinstance(node, ScalarNode):
            raise self.error(node, f"{tag} takes one value (e.g. `{kind.example}`), found {_describe(node)}")
        try:
            value = kind.parse_value(self._scalar(node), node.value)
        except ValueError as error:
            raise self.error(node, f"{tag}: {error}") from None
        return Condition(kind, value, negated, node.value)

    def _unknown(self, key: object) -> str:
        if isinstance(key, str) and key in self.defined:
            return f"{key!r} is a marker; markers cannot refer to other markers, repeat its definition instead"
        close = difflib.get_close_matches(str(key), sorted(TAGS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"unknown condition or operator {key!r}{hint}; known: {', '.join(sorted(TAGS))}"


class _TooLarge(Exception):
    def __init__(self, reason: str, node: Node):
        super().__init__(reason)
        self.line = node.start_mark.line + 1


def _check_size(root: Node | None) -> None:
    """Refuse a YAML graph that expands (aliases and merge keys followed) beyond MAX_EXPANDED_NODES, or a cycle.

    Each distinct node is visited once: expanded sizes are summed bottom-up, so the
    check costs what the file holds, not what it would expand to."""
    if root is None:
        return
    sizes: dict[int, int] = {}
    pending: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children = _children(node)
        if children_done:
            pending.discard(id(node))
            size = 1 + sum(sizes[id(child)] for child in children)
            if size > MAX_EXPANDED_NODES:
                raise _TooLarge(
                    f"the YAML expands to more than {MAX_EXPANDED_NODES} nodes "
                    "(through aliases or merge keys); marker files are small",
                    node,
                )
            sizes[id(node)] = size
            continue
        if id(node) in pending:
            raise _TooLarge("an alias refers to a node that contains it (a recursive structure)", node)
        pending.add(id(node))
        stack.append((node, True))
        for child in children:
            if id(child) in pending:
                raise _TooLarge("an alias refers to a node that contains it (a recursive structure)", child)
            stack.append((child, False))


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _describe(node: Node | None) -> str:
    if node is None:
        return "nothing"
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, MappingNode):
        return "a mapping"
    if node.tag.endswith(":null"):
        return "nothing"
    return f"{node.value!r}"
