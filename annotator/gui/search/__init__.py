"""Find (Ctrl+F), corpus search (Ctrl+Shift+F) and replace (Ctrl+H, Ctrl+Shift+H): the bars, dialogs and
results dock, every pattern run off the GUI thread with a time limit.

May import: the shell modules, annotating, corpus, opening and runtime."""
