"""Widgets of the main window: each view is one file, fed by the Qt-free core."""
