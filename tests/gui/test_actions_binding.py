"""Every action of the table is bound to the handler its spec names, and binding refuses an action
that nothing in the composition handles."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import QObject

from annotator.gui.actions import UnhandledActionError, bind_actions, build_actions
from annotator.gui.app import parts_of


def _handlers(window, **overrides) -> SimpleNamespace:
    """The parts gui/app.py binds the actions to, taken from a composed WINDOW, with OVERRIDES."""
    workspace = parts_of(window)
    parts = dict(window=window, controller=parts_of(window).controller, navigator=parts_of(window).navigator, editor=window.editor,
                 playback=parts_of(window).playback, workspace=workspace, markers=parts_of(window).markers, exports=parts_of(window).exports,
                 timeline=workspace.timeline, team=parts_of(window).team, appearance=parts_of(window).appearance,
                 search=window.search, compare=parts_of(window).compare, flags=parts_of(window).flags)
    parts.update(overrides)
    return SimpleNamespace(**{name: part for name, part in parts.items() if part is not None})


def test_the_composed_window_handles_every_action(make_window):
    window = make_window()
    bind_actions(build_actions(QObject(window), parts_of(window).controller.undo_stack), _handlers(window))


def test_an_action_nobody_handles_is_refused_by_name(make_window):
    window = make_window()
    actions = build_actions(QObject(window), parts_of(window).controller.undo_stack)
    with pytest.raises(UnhandledActionError, match="action 'load_markers': nothing handles it"):
        bind_actions(actions, _handlers(window, markers=None))


def test_a_part_without_the_named_method_is_refused_by_name(make_window):
    window = make_window()
    actions = build_actions(QObject(window), parts_of(window).controller.undo_stack)
    with pytest.raises(UnhandledActionError, match="action 'fit_timeline': nothing handles it"):
        bind_actions(actions, _handlers(window, timeline=QObject(window)))
