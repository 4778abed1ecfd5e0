"""The project's errors cross process boundaries: the validation child process sends them back
pickled, and an error that cannot be unpickled there becomes a crash of the pool instead of the
one-line message it carries."""

from __future__ import annotations

import pickle

import pytest

from annotator import errors

EXAMPLES = [
    errors.LogReadError("logs/a.xml", "not well-formed", 3, 14),
    errors.UnsafeLogError("logs/b.xml", "entity declarations are refused"),
    errors.AnnotationFileError("a.csv: missing column(s) session_id"),
    errors.WriteError("out.csv: not written"),
    errors.AudioError("turn 2: no audio"),
    errors.AnnotationError("turn 2: control character"),
    errors.LogChangedOnDiskError("logs/a.xml", removed=True),
    errors.LogChangedOnDiskError("logs/a.xml"),
]


@pytest.mark.parametrize("error", EXAMPLES, ids=lambda error: type(error).__name__)
def test_every_error_survives_pickling_with_its_message_and_fields(error: errors.AnnotatorError):
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)
    assert vars(again) == vars(error)


def test_every_error_class_with_its_own_arguments_is_among_the_examples():
    own_arguments = {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, errors.AnnotatorError) and "__init__" in vars(value)
    }
    assert own_arguments <= {type(error) for error in EXAMPLES}
