"""The corpus in the window: the Sessions browser (its list, filter language and notes, filled in the
background), and team mode.

May import: the shell modules, opening, runtime and widgets."""
