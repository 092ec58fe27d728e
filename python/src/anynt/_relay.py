"""The --agent-cmd program of evaluate(): it joins anynt test's pipes to the
Unix socket of the evaluating process, where the policy runs, byte for byte."""

from __future__ import annotations

import os
import socket
import sys
import threading


def main() -> None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(sys.argv[1])

    def up() -> None:  # anynt -> the policy
        while data := os.read(0, 1 << 16):
            conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)

    threading.Thread(target=up, daemon=True).start()
    while data := conn.recv(1 << 16):  # the policy -> anynt
        view = memoryview(data)
        while view:
            view = view[os.write(1, view):]


if __name__ == "__main__":
    main()
