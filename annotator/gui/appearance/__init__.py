"""How the window looks: theme and zoom as the View menu sets them, and the window's size and dock layout
fitted to the screen.

May import: the shell modules at the top of annotator/gui only."""
