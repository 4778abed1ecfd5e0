"""The standalone app's entry point: the `annotator` command, frozen.

freeze_support() first: the audio probe (annotator/audio/devices.py) starts a
multiprocessing "spawn" child, which in a frozen app is this same executable
started again with --multiprocessing-fork; PyInstaller's multiprocessing hook
makes freeze_support() turn that run into the child on every platform.

ANNOTATOR_FROZEN_SELF_TEST=1 replaces the command with a check of what only a
build can get wrong (packaging/smoke_test.sh and tests/packaging use it): the
environment child programs get, the versions Help > About shows, validation in a process pool as the GUI runs
it, a speed change through rubberband, the audio probe's child process, the bundled PortAudio and a 0.2 s tone played on the
default output. One line each.
"""

import multiprocessing
import os
import sys


def self_test() -> int:
    import numpy as np

    from annotator.analysis.validation import findings_with_paths_in_subprocess
    from annotator.audio import devices, stretch
    from annotator.errors import AudioError
    from annotator.gui.about import library_versions
    from annotator.resources import sample_session_path

    print(f"self-test: children get LD_LIBRARY_PATH={os.environ.get('LD_LIBRARY_PATH', '(unset)')}")
    # Help > About reads versions from package metadata, which the spec must have copied.
    print("self-test: about: " + "; ".join(f"{library.name}={library.version}" for library in library_versions()))
    # The GUI validates in a process pool (spawn): queues, semaphores and the resource tracker, frozen.
    findings = findings_with_paths_in_subprocess(sample_session_path())
    print(f"self-test: validation in a child process: {len(findings)} findings")
    rate = 16000
    tone = (np.sin(np.arange(rate // 5) * 2 * np.pi * 440 / rate) * 0.2).astype("float32")[:, None]
    if stretch.stretch_available():
        try:
            print(f"self-test: speed 1.5x turned {len(tone)} frames into {len(stretch.change_speed(tone, rate, 1.5))}")
        except AudioError as error:
            print(f"self-test: speed failed: {error}")
    # The probe child that devices.sounddevice() starts, run here to see its exit status (0: PortAudio started).
    child = multiprocessing.get_context("spawn").Process(target=devices._start_portaudio)
    child.start()
    child.join(60)
    print(f"self-test: audio probe child exit status {child.exitcode}")
    try:
        sd = devices.sounddevice()
    except AudioError as error:
        print(f"self-test: portaudio=none reason={error}")
        return 1
    print(f"self-test: portaudio={sd._libname} version={sd.get_portaudio_version()[1]}")
    try:
        device = devices.default_output()
        rate, channels = devices.playable_format(device, rate, 1)
    except AudioError as error:
        print(f"self-test: output=none reason={error}")
        return 1
    sd.play(np.repeat(tone, channels, axis=1), rate, device=device.index, blocking=True)
    print(f"self-test: output={device.name!r} played={len(tone)} frames at {rate} Hz")
    return 0


def main() -> int:
    multiprocessing.freeze_support()
    if os.environ.get("ANNOTATOR_FROZEN_SELF_TEST"):
        return self_test()
    from annotator.cli.main import main as annotator_main

    return annotator_main()


if __name__ == "__main__":
    sys.exit(main())
