"""Listening to a turn: playback off the GUI thread, the clip loaded and stretched on a worker, the
listening kit (loudness, pause while typing, voice activity), the waveform and spectrogram views, and the shown
turn's words placed on its audio, drawn on them, played one by one.

May import: the shell modules, runtime and widgets (never annotating: the editor drives playback, not the reverse)."""
