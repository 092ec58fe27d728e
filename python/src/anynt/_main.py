"""The `anynt` console script of the package: runs the anynt program.

The program is found as the package finds it (find_binary: $ANYNT_BIN, else
the one a platform wheel carries, else `anynt` on PATH, this script never
counting as one) and runs with the same arguments. On POSIX it replaces this
process (os.execv), so its exit status, its signals and its standard streams
are the program's own, as if it had been run directly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from ._server import find_binary


def main() -> None:
    """Runs the anynt program with this script's arguments."""
    try:
        binary = find_binary()
    except FileNotFoundError as e:
        sys.exit(f"anynt: {e}")
    args = [binary, *sys.argv[1:]]
    if os.name == "posix":
        os.execv(binary, args)
    # Elsewhere a child process: Ctrl-C reaches it as well, so this process
    # lets it decide, then exits with its status.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(subprocess.call(args))
