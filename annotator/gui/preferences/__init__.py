"""Edit > Preferences and Help > Keyboard shortcuts: the settings table, a widget per kind of setting, the
dialogs, the user's own keys (refused when they type text), and what applies a change to the window's parts.

May import: the shell modules only (the parts it reaches are given to it, typed by PreferencesParts)."""
