"""Edit > Preferences: the settings table, a widget per kind of setting, the dialog and what applies a change."""
