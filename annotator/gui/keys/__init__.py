"""The window's keys: the action table's defaults with the user's own keys over them, and the dialog that rebinds them."""
