"""Every action of the table is bound to the handler its spec names, and binding refuses an action
that nothing in the composition handles."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject

from annotator.gui.actions import UnhandledActionError, bind_actions, build_actions
from annotator.gui.app import parts_of


class _PartsBut:
    """The composed WINDOW's parts (gui/app.py's Annotator), but OVERRIDES: a part set to None is missing."""

    def __init__(self, window, **overrides):
        self._parts, self._overrides = parts_of(window), overrides

    def __getattr__(self, name: str):
        if name in self._overrides:
            if self._overrides[name] is None:
                raise AttributeError(name)
            return self._overrides[name]
        return getattr(self._parts, name)


@pytest.mark.slow
def test_the_composed_window_handles_every_action(make_window):
    window = make_window()
    bind_actions(build_actions(QObject(window), parts_of(window).controller.undo_stack), parts_of(window))


def test_an_action_nobody_handles_is_refused_by_name(make_window):
    window = make_window()
    actions = build_actions(QObject(window), parts_of(window).controller.undo_stack)
    with pytest.raises(UnhandledActionError, match="action 'load_markers': nothing handles it"):
        bind_actions(actions, _PartsBut(window, markers=None))


def test_a_part_without_the_named_method_is_refused_by_name(make_window):
    window = make_window()
    actions = build_actions(QObject(window), parts_of(window).controller.undo_stack)
    with pytest.raises(UnhandledActionError, match="action 'fit_timeline': nothing handles it"):
        bind_actions(actions, _PartsBut(window, timeline=QObject(window)))
