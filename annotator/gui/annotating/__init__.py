"""Annotating a turn: the navigator (the session and turn shown, Ctrl+Enter, task completion), the turn
table and its cells, the transcription editor with its n-best list, the Concepts panel, the session bar,
flags and comments, active time, the undo commands, and the doubt order.

May import: the shell modules at the top of annotator/gui, listening (the navigator plays the turn),
opening (the open document), runtime and widgets."""
