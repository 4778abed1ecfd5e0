"""Whose work is which: the command line's PATH arguments as annotators and their annotations.

Each argument is one annotator's work, `NAME=PATH` or PATH alone:
- a MITRE human-annotation file, an annotations CSV (`annotator extract`), an annotated log, or a
  folder of annotated logs: the annotations of those files;
- a log or a folder of logs with per-annotator human files beside them (`X-human-NAME.xml`, the
  team mode's files; human_files_beside): every annotator found there, each under their own name.
  Then NAME= cannot be given (the files name their annotators).
A PATH alone is named by the annotator its file records (the `annotator` attribute of a human
file's root, else of its first GC_SESSION that has one), else by its file name (`X-human-NAME.xml` gives NAME; any other file its stem, a
folder its name). Works of one name are merged (two different values for one turn are an error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from annotator.annotation_files.annotation_csv import read_annotation_csv
from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import extract
from annotator.annotation_files.human_format import ROOT_TAG, annotations_from_human_tree, parse_annotation_xml
from annotator.corpus.paths import expand_log_paths, root_tag
from annotator.errors import AnnotationFileError, AnnotatorError
from annotator.log.document import LogDocument
from annotator.team.files import HumanFileIndex
from annotator.team.names import annotator_of_file_name

ANNOTATOR_ATTRIBUTE = "annotator"


@dataclass
class FileWork:
    """What one file holds: its annotations (concepts included) and the annotator it names (if it does)."""

    path: Path
    annotations: AnnotationSet
    recorded_name: str | None = None


@dataclass
class AnnotatorWork:
    """One annotator's annotations, from one or several files."""

    name: str
    annotations: AnnotationSet
    paths: list[Path]


@dataclass(frozen=True)
class WorkSpec:
    """One argument: which files, and the name given (None: from the file)."""

    name: str | None
    files: tuple[Path, ...]


def is_team_file(path: Path) -> bool:
    return annotator_of_file_name(path.name) is not None


def parse_specs(arguments: Iterable[str]) -> list[WorkSpec]:
    """The WorkSpecs of the command line's arguments; a missing path is an error naming it."""
    specs: list[WorkSpec] = []
    for argument in arguments:
        name, path = _split_name(argument)
        if not path.exists():
            raise AnnotatorError(f"{path}: no such file or folder")
        specs += _specs_of(name, path)
    return specs


def argument_paths(arguments: Iterable[str]) -> list[Path]:
    """The paths the command line's [NAME=]PATH arguments name."""
    return [_split_name(argument)[1] for argument in arguments]


def _split_name(argument: str) -> tuple[str | None, Path]:
    name, equals, rest = argument.partition("=")
    if equals and name and not Path(argument).exists() and "/" not in name and "\\" not in name:
        return name, Path(rest)
    return None, Path(argument)


def _specs_of(name: str | None, path: Path) -> list[WorkSpec]:
    if path.is_dir() or _has_root(path, ("GC_LOG", "GC_SESSION")):
        logs = [log for log in expand_log_paths([path]) if not is_team_file(log)]
        index = HumanFileIndex()
        beside = [(annotator, file) for log in logs for annotator, file in index.files_of(log).items()]
        if beside:
            if name is not None:
                raise AnnotatorError(
                    f"{path}: holds per-annotator human files, which name their annotators; give it without {name}="
                )
            return [WorkSpec(annotator, (file,)) for annotator, file in beside]
        if not logs:
            raise AnnotatorError(f"{path}: no logs, human files or annotation CSVs in this folder")
        return [WorkSpec(name or path.resolve().name, tuple(logs))]
    if is_team_file(path) and name is None:
        return [WorkSpec(annotator_of_file_name(path.name), (path,))]
    return [WorkSpec(name, (path,))]


def _has_root(path: Path, tags: tuple[str, ...]) -> bool:
    return path.suffix.lower() == ".xml" and path.is_file() and root_tag(path) in tags


def read_file_work(path: Path) -> FileWork:
    """The annotations (and concepts) of one file: a human file, an annotated log or an annotations CSV."""
    if path.suffix.lower() == ".csv":
        return FileWork(path, read_annotation_csv(path))
    tag = root_tag(path) if path.is_file() else None
    if tag in ("GC_LOG", "GC_SESSION"):
        with LogDocument.load(path) as doc:
            return FileWork(path, extract(doc))
    tree = parse_annotation_xml(path)
    if tree.getroot().tag != ROOT_TAG:
        raise AnnotationFileError(
            f"{path}: neither a log, a MITRE human-annotation file nor an annotations CSV "
            f"(the root is <{tree.getroot().tag}>)"
        )
    return FileWork(path, annotations_from_human_tree(tree, path), _recorded_name(tree))


def _recorded_name(tree) -> str | None:
    """The annotator a human file records: its root's `annotator` attribute, else its first session's."""
    root = tree.getroot()
    for element in (root, *root.iter("GC_SESSION")):
        name = (element.get(ANNOTATOR_ATTRIBUTE) or "").strip()
        if name:
            return name
    return None


FileReader = Callable[[list[Path]], Iterable[FileWork]]


def gather(specs: list[WorkSpec], read_files: FileReader) -> list[AnnotatorWork]:
    """Each annotator's work, in order of first mention: READ_FILES reads the files (in parallel when
    the command line asks), works of one name are merged."""
    files = [file for spec in specs for file in spec.files]
    by_path = {work.path: work for work in read_files(files)}
    grouped: dict[str, list[FileWork]] = {}
    for spec in specs:
        for file in spec.files:
            work = by_path[file]
            name = spec.name or work.recorded_name or _name_of_file(file)
            grouped.setdefault(name, []).append(work)
    return [_merged(name, works) for name, works in grouped.items()]


def _name_of_file(path: Path) -> str:
    return annotator_of_file_name(path.name) or path.stem


def _merged(name: str, works: list[FileWork]) -> AnnotatorWork:
    try:  # one file needs no merging (merging re-checks every value)
        annotations = works[0].annotations if len(works) == 1 else AnnotationSet.merged(w.annotations for w in works)
    except AnnotationFileError as error:
        raise AnnotationFileError(f"annotator {name}: {error}") from None
    return AnnotatorWork(name, annotations, [work.path for work in works])
