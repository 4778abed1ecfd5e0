"""Opening a log: reading it on a worker with a progress dialog, handing it over to the window in passes,
which file a path names, where the annotator stopped, the undo stack, and the keys typed while it loads.

May import: the shell modules and runtime."""
