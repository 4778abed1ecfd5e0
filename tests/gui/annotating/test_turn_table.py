"""The turn table model on real sample logs: cells, roles, edits through the undo stack, core events."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QBrush, QUndoStack
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView, QWidget
from pytestqt.modeltest import ModelTester

from annotator.gui.annotating.turn_table import UNTRANSCRIBED_PLACEHOLDER, Column, TurnTableModel, needs_transcription
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.settings import AppSettings
from annotator.gui.widgets.roles import NEEDS_TRANSCRIPTION_ROLE, SECONDS_ROLE, SPEAKER_ROLE, TURN_ROLE
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument

Role = Qt.ItemDataRole


@pytest.fixture
def stack(qapp) -> QUndoStack:
    return QUndoStack()


def model_on(path, stack) -> tuple[TurnTableModel, LogDocument]:
    document = LogDocument.load(path)
    model = TurnTableModel(stack)
    model.set_session(document.sessions[0])
    return model, document


def cell(model, row, column, role=Role.DisplayRole):
    return model.index(row, column).data(role)


def test_passes_qt_model_checks(qtbot, stack, absolute_audio_log):
    model, _document = model_on(absolute_audio_log, stack)
    ModelTester(qtbot).check(model, force_py=True)


def test_cells_of_a_millisecond_log_are_seconds_from_the_session_start(stack, absolute_audio_log):
    model, document = model_on(absolute_audio_log, stack)
    assert model.rowCount() == 10 and model.columnCount() == len(Column)
    assert [cell(model, row, Column.TURN) for row in range(3)] == ["01", "02", "03"]
    assert cell(model, 0, Column.SPEAKER) == "system" and cell(model, 1, Column.SPEAKER) == "user"
    assert cell(model, 0, Column.START) == "0.03"  # 1795273200150 ms - session stime 1795273200120 ms
    assert cell(model, 0, Column.DURATION) == "4.94"
    assert cell(model, 0, Column.START, SECONDS_ROLE) == 0.03
    assert cell(model, 1, Column.RECOGNIZER) == "i need to go to san francisco"
    assert cell(model, 0, Column.SYSTEM).startswith("Welcome to the Communicator travel service")
    assert cell(model, 0, Column.TRANSCRIPTION) == ""  # a system turn: nothing to transcribe, no marker
    assert cell(model, 0, Column.START, Role.TextAlignmentRole) is not None
    assert cell(model, 1, 0, TURN_ROLE) == document.sessions[0].turns[1]
    assert cell(model, 1, 0, SPEAKER_ROLE) == "user"


def test_untranscribed_user_turns_are_marked(stack, absolute_audio_log):
    model, _document = model_on(absolute_audio_log, stack)
    assert cell(model, 1, Column.TRANSCRIPTION) == UNTRANSCRIBED_PLACEHOLDER
    assert cell(model, 1, Column.TRANSCRIPTION, Role.EditRole) == ""  # the editor opens empty
    assert cell(model, 1, 0, NEEDS_TRANSCRIPTION_ROLE) is True
    assert isinstance(cell(model, 1, Column.RECOGNIZER, Role.BackgroundRole), QBrush)
    assert cell(model, 1, Column.TURN, Role.DecorationRole) is not None
    assert cell(model, 0, 0, NEEDS_TRANSCRIPTION_ROLE) is False
    assert cell(model, 0, Column.RECOGNIZER, Role.BackgroundRole) is None
    assert cell(model, 0, Column.TURN, Role.DecorationRole) is None


def test_roles_it_does_not_serve_are_none(stack, absolute_audio_log):
    model, _document = model_on(absolute_audio_log, stack)
    assert cell(model, 1, Column.TURN, Role.WhatsThisRole) is None
    assert cell(model, 1, Column.TURN, Role.UserRole + 99) is None
    assert model.data(QModelIndex()) is None
    assert model.headerData(0, Qt.Orientation.Vertical) is None


def test_an_annotated_log_shows_transcriptions_and_wer(stack, annotated_log):
    model, _document = model_on(annotated_log, stack)
    assert cell(model, 1, Column.TRANSCRIPTION) == "i want to fly to boston"
    assert cell(model, 1, Column.WER) == "16.7 %"  # austin for boston: 1 of 6 words
    assert "1 substituted" in cell(model, 1, Column.WER, Role.ToolTipRole)
    assert cell(model, 3, Column.WER) == "0.0 %"
    assert cell(model, 0, Column.WER) == ""
    assert model.transcription_progress() == (6, 6)
    assert not any(needs_transcription(t) for t in model.session.turns)


def test_latin1_text_is_shown_as_read(stack, latin1_log):
    model, _document = model_on(latin1_log, stack)
    texts = [cell(model, row, Column.RECOGNIZER) for row in range(model.rowCount())]
    assert "no zürich" in texts and "i would like to fly to são paulo" in texts


@pytest.fixture
def controller(qtbot) -> DocumentController:
    """The document controller, whose annotation_changed the model hears as the window connects it."""
    owner = QWidget()
    qtbot.addWidget(owner)
    return DocumentController(owner, AppSettings())


def model_heard_through(controller: DocumentController, path) -> TurnTableModel:
    assert controller.open_path(path)
    model = TurnTableModel(controller.undo_stack)
    controller.annotation_changed.connect(model.on_annotation_changed)
    model.set_session(controller.document.sessions[0])
    return model


def test_editing_a_cell_pushes_an_undoable_command(qtbot, controller, absolute_audio_log):
    model = model_heard_through(controller, absolute_audio_log)
    document, stack = controller.document, controller.undo_stack
    index = model.index(1, Column.TRANSCRIPTION)
    assert model.flags(index) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(model.index(0, Column.TRANSCRIPTION)) & Qt.ItemFlag.ItemIsEditable  # system turn
    assert not model.flags(model.index(1, Column.RECOGNIZER)) & Qt.ItemFlag.ItemIsEditable
    with qtbot.waitSignal(model.dataChanged) as changed:
        assert model.setData(index, "  i need to go to\nsan francisco  ")
    assert changed.args[0].row() == 1 and changed.args[1].column() == len(Column) - 1 >= Column.WER  # the row, WER too
    turn = document.sessions[0].turns[1]
    assert turn.transcription == "i need to go to san francisco"
    assert stack.undoText() == "Transcribe turn 02"
    assert cell(model, 1, Column.WER) == "0.0 %"
    assert cell(model, 1, 0, NEEDS_TRANSCRIPTION_ROLE) is False
    assert model.setData(index, "i need to go to san francisco")  # the same again: no new step
    assert stack.count() == 1
    stack.undo()
    assert turn.transcription is None
    assert cell(model, 1, Column.TRANSCRIPTION) == UNTRANSCRIBED_PLACEHOLDER
    assert not model.setData(model.index(0, Column.TRANSCRIPTION), "system turns take none")


def test_changes_made_by_the_core_reach_the_view(qtbot, controller, absolute_audio_log):
    model = model_heard_through(controller, absolute_audio_log)
    with qtbot.waitSignal(model.dataChanged) as changed:
        set_transcription(controller.document.sessions[0].turns[3], "from the mile high city")
    assert changed.args[0].row() == 3
    assert cell(model, 3, Column.TRANSCRIPTION) == "from the mile high city"


@pytest.mark.slow
def test_switching_documents_stops_listening_to_the_old_one(qtbot, controller, absolute_audio_log, latin1_log):
    model = model_heard_through(controller, absolute_audio_log)
    old = controller.document
    assert controller.open_path(latin1_log)
    model.set_session(controller.document.sessions[0])
    with qtbot.assertNotEmitted(model.dataChanged):
        set_transcription(old.sessions[0].turns[1], "not shown any more")
    model.set_session(None)
    assert model.rowCount() == 0 and model.turn_at(0) is None


def test_find_row_searches_both_ways_and_wraps(stack, absolute_audio_log):
    model, document = model_on(absolute_audio_log, stack)
    user = lambda turn: turn.speaker == "user"  # noqa: E731
    assert model.find_row(0, +1, user) == 1
    assert model.find_row(1, +1, user) == 3
    assert model.find_row(3, -1, user) == 1
    assert model.find_row(1, -1, user) is None
    assert model.find_row(9, +1) is None
    assert model.find_row(-1, +1) == 0
    set_transcription(document.sessions[0].turns[1], "done")
    assert model.find_row(9, +1, needs_transcription, wrap=True) == 3
    assert model.find_row(3, +1, needs_transcription, wrap=True) == 5
    for row in (3, 5, 7, 9):
        set_transcription(document.sessions[0].turns[row], "done")
    assert model.find_row(9, +1, needs_transcription, wrap=True) is None


def test_what_the_delegate_paints_is_what_data_answers(qtbot, stack, absolute_audio_log):
    """The view reads a cell's roles in one multiData call; each must be the value data() gives for it."""
    model, _document = model_on(absolute_audio_log, stack)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    delegate = view.itemDelegate()
    painted = []
    for row in range(model.rowCount()):
        for column in Column:
            index = model.index(row, column)
            option = QStyleOptionViewItem()
            delegate.initStyleOption(option, index)
            brush = index.data(Role.BackgroundRole)
            assert option.text == index.data(Role.DisplayRole)
            assert option.font.italic() == (index.data(Role.FontRole) is not None)
            assert option.backgroundBrush == (brush if brush is not None else QBrush())
            assert option.icon.isNull() == (index.data(Role.DecorationRole) is None)
            aligned_right = bool(option.displayAlignment & Qt.AlignmentFlag.AlignRight)
            assert aligned_right == (column in (Column.START, Column.DURATION, Column.WER, Column.CONCEPTS))
            painted.append(option.text)
    assert "i need to go to san francisco" in painted and UNTRANSCRIBED_PLACEHOLDER in painted
    index = model.index(1, Column.TURN)
    for role in (Role.DisplayRole, Role.ToolTipRole, Role.WhatsThisRole, TURN_ROLE, NEEDS_TRANSCRIPTION_ROLE):
        item = QModelRoleData(int(role))
        model.multiData(index, QModelRoleDataSpan(item))
        assert item.data() == model.data(index, role)


def test_search_hits_and_a_negative_duration_are_painted(stack, absolute_audio_log):
    from annotator.gui.theme import theme_colour

    model, document = model_on(absolute_audio_log, stack)
    model.set_search_hits({1: {Column.RECOGNIZER, Column.SYSTEM}, 2: {Column.TURN}}, (1, Column.RECOGNIZER))
    colour = lambda row, column: cell(model, row, column, Role.BackgroundRole).color()  # noqa: E731
    assert colour(1, Column.RECOGNIZER) == theme_colour("search_current_hit_background")
    assert colour(1, Column.SYSTEM) == theme_colour("search_hit_background")
    assert colour(2, Column.TURN) == theme_colour("search_hit_background")
    assert colour(1, Column.SPEAKER) == theme_colour("untranscribed_background")  # row 1 is still to transcribe
    assert cell(model, 0, Column.SPEAKER, Role.BackgroundRole) is None
    broken = LogDocument.load(absolute_audio_log)
    turn = broken.sessions[0].turns[0]
    turn.el.set("etime", str(int(turn.get("stime")) - 1000))  # ends before it starts
    model.set_session(broken.sessions[0])
    assert turn.duration < 0
    assert cell(model, 0, Column.DURATION, Role.ForegroundRole).color() == theme_colour("warning_text")
    assert cell(model, 0, Column.START, Role.ForegroundRole) is None
