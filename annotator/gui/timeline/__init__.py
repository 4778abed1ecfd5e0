"""The timeline view: turns, audio, marker and server lanes drawn from annotator.timeline's arrays, with
its legend and toolbar.

May import: the shell modules and widgets."""
