"""The desktop application: the only package that imports PySide6 or pyqtgraph."""
