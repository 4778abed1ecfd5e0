"""Runtime hook: programs the app starts get the system's libraries, not the build's.

PyInstaller's bootloader points LD_LIBRARY_PATH at the build's own folder, and
every child process inherits it: rubberband (speed change) and the browser or
editor that Help opens through xdg-open would then load the build's copies of
libraries instead of their own. This process's loader read the variable when
it started, so restoring the user's value here only changes what children see.
The app's own audio probe child is this executable again, whose bootloader
sets the variable anew.
"""

import os

_original = os.environ.pop("LD_LIBRARY_PATH_ORIG", None)
if _original is not None:
    os.environ["LD_LIBRARY_PATH"] = _original
else:
    os.environ.pop("LD_LIBRARY_PATH", None)
