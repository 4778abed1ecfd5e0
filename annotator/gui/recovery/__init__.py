"""The recovery journal in the window: journalling every unsaved edit, the questions at open (another
window holds the log, work left by a window that died), and restoring typing as a draft.

May import: the shell modules, annotating (undo commands, the editor's draft), opening and runtime."""
