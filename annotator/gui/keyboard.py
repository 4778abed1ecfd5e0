"""The one owner of the main window's keyboard: where every key goes is decided here (docs/keyboard.md).

The rule: a printable key typed in the main window, while no widget that wants it has the focus, goes into
the transcription editor of the current user turn. On a system turn the selection first moves to the user
turn Ctrl+Enter would choose next (the status bar names it); when the session has no user turn left to
transcribe, the status bar says so and nothing else changes. The turn table never searches on typed keys.

What a focused widget wants (keeps_key): a text field every key; a check box, a button or a combo box its
Space and Return. Keys with Ctrl, Alt or Meta are shortcuts and never typing; and the keys that type are
never shortcuts (is_typing_key: the keyboard dialog refuses them).

The other pieces ask this module: the text fields which window keys they let through (hand_to_window),
the keyboard dialog which keys may be bound (typing_key_reason); the keys typed during a load are handed
to the focused widget once it is shown (gui/opening/typing_during_load.py), and so pass through this rule.

When one of the window's dialogs or message boxes closes, the window is made active again: without a
window manager that does it (a bare X server, the offscreen platform, some tiling set-ups) nothing would
be active and every key typed next would be lost.

A dialog shown with show() is not made active by Qt: without a window manager to do it (a bare X server,
some tiling set-ups) the keyboard stays with the window behind it, so Escape does not close the dialog and
the next word goes into the transcription. present() raises and activates it and focuses its first widget.

Making a dialog and showing it takes a moment (the keyboard dialog lists every action), and the platform
moves the keyboard to it only some milliseconds later still: the keys typed meanwhile were aimed at the
window, which the annotator no longer looks at. Until the dialog is active those keys go to the dialog's
focused widget, in order, as they would have once it showed (an Escape among them closes it); a key the
window would take as a shortcut is not one while the dialog is on its way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from annotator.log.text import SHOWN_ID_CHARS, shorten

if TYPE_CHECKING:
    from annotator.gui.annotating.navigation import Navigator

TAKES_TYPING = "takes_typing"  # a widget property: the widget (an editable table) wants typed characters itself
SHORTCUT_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
)
PRESSING_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Select)
# Keys that type or edit text although Qt gives some of them no text: never a shortcut without a modifier.
EDITING_KEYS = {
    Qt.Key.Key_Space: "Space types a space",
    Qt.Key.Key_Return: "Return breaks a line",
    Qt.Key.Key_Enter: "Enter breaks a line",
    Qt.Key.Key_Backspace: "Backspace deletes typed text",
    Qt.Key.Key_Delete: "Delete deletes typed text",
    Qt.Key.Key_Tab: "Tab moves the focus",
}
UNDO, REDO = QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z")
TYPING_HERE = "Turn {turn} · typing here"
NO_USER_TURN_LEFT = "No user turn left to transcribe in session {session}: nothing was typed"


def takes_text(widget: QWidget) -> bool:
    """Whether WIDGET wants typed characters for itself."""
    if widget.property(TAKES_TYPING):
        return True
    if isinstance(widget, (QLineEdit, QAbstractSpinBox)):
        return True
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return not widget.isReadOnly()
    return False


def keeps_key(widget: QWidget, event: QKeyEvent) -> bool:
    """Whether WIDGET, focused, wants EVENT's key itself: a text field every key, a check box, button or
    combo box the keys that press it (Space ticks a box)."""
    if takes_text(widget):
        return True
    return isinstance(widget, (QAbstractButton, QComboBox)) and event.key() in PRESSING_KEYS


def is_typing(event: QKeyEvent) -> bool:
    """Whether EVENT types a character: printable text and no Ctrl, Alt or Meta."""
    text = event.text()
    return bool(text) and text.isprintable() and not event.modifiers() & SHORTCUT_MODIFIERS


def typing_key_reason(key: str | QKeySequence) -> str | None:
    """Why KEY (one chord) cannot be a shortcut because it types or edits text, or None when it may be one:
    without Ctrl, Alt or Meta, a letter, digit, punctuation, Space, Return, Backspace, Delete (Shift too)."""
    sequence = QKeySequence(key)
    if sequence.isEmpty():
        return None
    combination = sequence[0]  # type: ignore[index]  # PySide6's stub leaves out QKeySequence's indexing
    if combination.keyboardModifiers() & SHORTCUT_MODIFIERS:
        return None
    code = combination.key()
    shown = sequence.toString(QKeySequence.SequenceFormat.NativeText)
    if code in EDITING_KEYS:
        return f"{shown} cannot be a shortcut: {EDITING_KEYS[code]} in the transcription"
    if 0x20 < code.value < 0x1000000 and chr(code.value).isprintable():
        return (
            f"{shown} cannot be a shortcut: it types a character in the transcription "
            "(add Ctrl, Alt or Meta, or choose an F-key or a navigation key)"
        )
    return None


def typing_keys_among(keys: Iterable[str]) -> list[str]:
    """KEYS that type (typing_key_reason) and so are never bound."""
    return [key for key in keys if typing_key_reason(key) is not None]


def copy_key_event(event: QKeyEvent) -> QKeyEvent:
    """A key event of our own, to keep or send on: Qt reuses the one it delivered once delivery ends."""
    return QKeyEvent(
        event.type(),
        event.key(),
        event.modifiers(),
        event.nativeScanCode(),
        event.nativeVirtualKey(),
        event.nativeModifiers(),
        event.text(),
        event.isAutoRepeat(),
        event.count(),
    )


def hand_to_window(event: QEvent, window_keys: list[QKeySequence], can_undo: bool, can_redo: bool) -> bool:
    """Whether EVENT, offered to a text field, is one of WINDOW_KEYS that the field leaves to the window's
    actions, except undo and redo while the field has typing of its own to undo or redo (that goes first).
    True means the event was ignored: the caller returns True from event() and Qt's shortcut map triggers
    the window's QAction."""
    if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
        return False
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(event.key() | modifiers.value)
    if (pressed == UNDO and can_undo) or (pressed == REDO and can_redo):
        return False
    if not any(pressed == key for key in window_keys):
        return False
    event.ignore()  # not overridden
    return True


class KeyboardOwner(QObject):
    """An application event filter giving the main window's typing to the transcription (the module's rule)."""

    def __init__(self, navigator: Navigator):
        super().__init__(navigator)
        self.navigator = navigator
        self.window = navigator.window
        self._sending = False  # a key being handed to the editor: its refusal travels up, not back here
        app = QApplication.instance()
        assert app is not None, "a window exists in a running application only"
        app.installEventFilter(self)  # removed by Qt when this object dies

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isinstance(watched, QWidget):
            return False
        # Every event of every widget passes here: its type is read once (each read makes a Python enum).
        kind = event.type()
        if kind == QEvent.Type.Hide and self._is_own_dialog(watched):
            QTimer.singleShot(0, self, self._reactivate)  # dropped if the window goes first
            return False
        if (
            kind != QEvent.Type.KeyPress
            or not isinstance(event, QKeyEvent)
            or not self._is_stray_typing(watched, event)
        ):
            return False
        if self.navigator.session is None or self.navigator.editor.read_only:
            return False  # nothing to type into: the key goes where it was going (and the table ignores it)
        target = self.typing_target()
        if target is None:
            return True  # no user turn left: the key types nothing anywhere
        if target is watched or self._sending or (isinstance(target, QPlainTextEdit) and target.isReadOnly()):
            # Already where typing goes, or handed there and refused: a text box shown read-only (its text too
            # long to edit) lets the key go up to its parents, which must not hand it back again.
            return False
        self._sending = True
        try:
            QApplication.sendEvent(
                target,
                QKeyEvent(
                    event.type(), event.key(), event.modifiers(), event.text(), event.isAutoRepeat(), event.count()
                ),
            )
        finally:
            self._sending = False
        return True

    def typing_target(self) -> QWidget | None:
        """The editor's text box, focused, of the user turn typing goes to (moving there from a system turn
        and saying so); None when the session has none left (said in the status bar) or nothing is shown."""
        navigator = self.navigator
        if navigator.session is None:
            return None
        turn = navigator.current_turn()
        if turn is None or turn.speaker == "system":
            row = navigator.next_user_row(navigator.table.current_row())
            if row is None:
                self.window.show_status(NO_USER_TURN_LEFT.format(session=shorten(navigator.session.id, SHOWN_ID_CHARS)))
                return None
            navigator.select_row(row)
            turn = navigator.current_turn()
            assert turn is not None, "the row just selected is a user turn's"
            self.window.show_status(TYPING_HERE.format(turn=shorten(turn.id, SHOWN_ID_CHARS)))
        if not navigator.editor.text.isEnabled():
            return None
        navigator.editor.focus_text()
        return navigator.editor.text

    def _is_own_dialog(self, widget: QWidget) -> bool:
        parent = widget.parentWidget()
        return widget.isWindow() and widget is not self.window and parent is not None and parent.window() is self.window

    def _reactivate(self) -> None:
        # Qt may name the window active again while the platform's focus has gone with the dialog's own
        # window, or keep naming the hidden dialog active (offscreen, or no window manager): the next key would
        # go to the hidden dialog's button. Activating the window again is harmless when it has both.
        active = QApplication.activeWindow()
        window_or_nothing_shown = active is None or active is self.window or not active.isVisible()
        if (
            self.window.isVisible()
            and window_or_nothing_shown
            and QApplication.activeModalWidget() is None
            and QApplication.activePopupWidget() is None
        ):
            self.window.activateWindow()

    def _is_stray_typing(self, watched: QWidget, event: QKeyEvent) -> bool:
        if not is_typing(event) or watched.window() is not self.window or watched is self.navigator.editor.text:
            return False
        if keeps_key(watched, event):
            return False
        return QApplication.activePopupWidget() is None and QApplication.activeModalWidget() is None


# The platform activates a dialog within milliseconds; past this, keys go where the platform sends them again.
DIALOG_WAIT_MS = 2000
DIALOG_KEYS = {QEvent.Type.KeyPress, QEvent.Type.KeyRelease}


def show_active(widget: QWidget) -> None:
    """Show WIDGET's window raised and active. Without a window manager (a bare X server) nothing else makes
    a window active: typing would reach it, but none of its shortcuts (Ctrl+Q, Ctrl+K...) until it was clicked."""
    widget.show()
    widget.raise_()
    widget.activateWindow()


def present(dialog: QWidget, window: QWidget) -> None:
    """Show DIALOG over WINDOW, raised, active, its first widget focused; WINDOW's keys go to it until then."""
    KeysOnTheirWay(dialog, window)
    show_active(dialog)
    if dialog.focusWidget() is None:
        dialog.focusNextChild()


class KeysOnTheirWay(QObject):
    """Gives DIALOG the keys aimed at WINDOW until DIALOG is active (or hidden, or DIALOG_WAIT_MS passed)."""

    def __init__(self, dialog: QWidget, window: QWidget):
        super().__init__(dialog)
        self.dialog, self.window = dialog, window
        app = QApplication.instance()
        assert app is not None, "a dialog is shown in a running application only"
        app.installEventFilter(self)
        QTimer.singleShot(DIALOG_WAIT_MS, self, self.stop)

    def stop(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self.deleteLater()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.dialog and event.type() in (QEvent.Type.WindowActivate, QEvent.Type.Hide):
            self.stop()
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut of the window fires: the key press comes next and goes to the dialog
            return True
        if event.type() not in DIALOG_KEYS or not isinstance(event, QKeyEvent):
            return False
        target = self.dialog.focusWidget() or self.dialog
        QApplication.sendEvent(target, copy_key_event(event))
        return True
