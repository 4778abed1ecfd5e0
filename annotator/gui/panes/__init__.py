"""The session's panes: Details, Metrics and Findings, and the worker that fills a long session's metrics and
timeline after the first paint.

May import: the shell modules, opening, runtime, timeline and widgets."""
