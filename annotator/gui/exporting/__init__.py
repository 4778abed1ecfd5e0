"""File > Export: every export in the background behind the output guard, and Praat / ELAN (export, open
a session in Praat, fold a TextGrid or EAF back).

May import: the shell modules, annotating (the open session), opening and runtime."""
