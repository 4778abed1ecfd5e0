"""Small widgets and item roles several features share: a layout boundary, a view that keeps its current
row in view, list tables, a pinned column, the time axis.

May import: the shell modules only."""
