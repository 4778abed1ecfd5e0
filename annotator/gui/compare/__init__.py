"""Compare and adjudicate in the window: every annotator's work on the open log side by side, keys to
go from one disagreement to the next and to take an annotator's version, and saving the adjudication
into the log with its sidecar record (docs/agreement.md, "Compare in the window").

May import: the shell modules, annotating, corpus (the Sessions browser's entry), opening and widgets."""
