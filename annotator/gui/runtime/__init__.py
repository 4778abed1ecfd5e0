"""Running work beside the GUI thread: background tasks, the GUI thread's garbage collector, work done in
slices between events, waiting for the first paint, and the stop signals (SIGTERM, SIGHUP) turned into a
call on the GUI thread.

May import: the shell modules only."""
