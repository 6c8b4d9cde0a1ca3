"""Before Qt opens a window on Linux/X11: the libraries it needs, and a display that answers.

Qt aborts with "could not connect to display" and a hint about ``xcb-cursor0`` when either
is missing, and a first run on a fresh machine hits both: the system packages were only
just installed, or the virtual screen (Xvfb) was still starting when the app did. These
checks run before Qt is imported (standard library only): a missing library is named with
the exact ``apt-get`` line, and a local display that is still starting is waited for (up
to ``DISPLAY_WAIT_S``) instead of failing the first time and working the second.
"""

from __future__ import annotations

import ctypes
import os
import re
import socket
import sys
import time
from collections.abc import Callable

DISPLAY_WAIT_S = 15.0

WINDOW_LIBRARIES: dict[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
}
"""The shared libraries Qt's xcb platform plugin loads, with the Debian package of each
(the same list as ``scripts/system-deps.sh run``)."""


def uses_x11() -> bool:
    """Qt will open its window through X11 (xcb): Linux, a DISPLAY, no other platform."""
    return (sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM")
            and not os.environ.get("WAYLAND_DISPLAY") and bool(os.environ.get("DISPLAY")))


def missing_packages(load: Callable[[str], object] = ctypes.CDLL) -> list[str]:
    """The Debian packages whose library the dynamic loader cannot find, in order."""
    missing: list[str] = []
    for library, package in WINDOW_LIBRARIES.items():
        try:
            load(library)
        except OSError:
            missing.append(package)
    return missing


def _socket_path(display: str) -> str | None:
    """``:99`` or ``:99.0`` -> ``/tmp/.X11-unix/X99``; None for a remote display."""
    match = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display.strip())
    return f"/tmp/.X11-unix/X{match.group(1)}" if match else None


_SETUP_REQUEST = b"l\0" + (11).to_bytes(2, "little") + (0).to_bytes(2, "little") + bytes(6)
"""X11's connection setup, little-endian, protocol 11.0, no authorisation: a server that
is up answers it (success, failure or "authenticate"); one still starting does not yet."""


def display_answers(display: str, timeout: float = 1.0) -> bool:
    """A local X display answers the X11 handshake (a remote one is taken on trust).

    Xvfb opens its socket before it is ready: a plain connect succeeds while Qt, a moment
    later, still gets "could not connect to display". The handshake's first reply byte is
    what says the server is serving."""
    path = _socket_path(display)
    if path is None:
        return True
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(path)
            sock.sendall(_SETUP_REQUEST)
            reply = sock.recv(1)
        except OSError:
            return False
    return len(reply) == 1 and reply[0] in (0, 1, 2)


def wait_for_display(display: str, seconds: float = DISPLAY_WAIT_S,
                     answers: Callable[[str], bool] | None = None,
                     sleep: Callable[[float], None] | None = None,
                     say: Callable[[str], None] | None = None) -> bool:
    """True once ``display`` answers; waits up to ``seconds`` for one still starting."""
    answers = answers or display_answers
    sleep = sleep or time.sleep
    if answers(display):
        return True
    if say is not None:
        say(f"dlhw: waiting up to {seconds:.0f} s for the display {display} to start…")
    waited = 0.0
    while waited < seconds:
        sleep(0.25)
        waited += 0.25
        if answers(display):
            return True
    return False


def window_problem(say: Callable[[str], None] | None = None) -> str | None:
    """Why Qt could not open a window here (one line for stderr), or None when it can."""
    if not uses_x11():
        return None
    missing = missing_packages()
    if missing:
        return ("Qt's window libraries are missing: install them, then start the app again "
                f"(make run does this for you): sudo apt-get install --no-install-recommends "
                f"{' '.join(missing)}")
    display = os.environ.get("DISPLAY", "")
    if not wait_for_display(display, say=say):
        return (f"the display {display} does not answer (no X server there after "
                f"{DISPLAY_WAIT_S:.0f} s); start it, or run under a virtual screen: "
                "xvfb-run -a dlhw")
    return None
