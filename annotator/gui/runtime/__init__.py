"""Running work beside the GUI thread: background tasks, the GUI thread's garbage collector, work done in
slices between events, and waiting for the first paint.

May import: the shell modules only."""
