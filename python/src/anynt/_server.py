"""A child process `anynt serve-env`, spoken to by protocol anynt/1 (direction B).

One request, then its answer, in order (docs/protocol.md, "Direction B"):
the simplest client, and the one a Gymnasium `step` needs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any

PROTOCOL = "anynt/1"


class AnyntError(RuntimeError):
    """serve-env refused a request: the message is serve-env's own, which
    names the request's fault (a file's errors come positioned, file:line:col)."""

    def __init__(self, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.errors: list[str] = errors or []


def find_binary() -> str:
    """The anynt program: $ANYNT_BIN if set, else `anynt` on PATH."""
    path = os.environ.get("ANYNT_BIN")
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise FileNotFoundError(
                f"ANYNT_BIN={path!r} is not an executable file: build it with "
                "`go build -o bin/anynt ./cmd/anynt` and point ANYNT_BIN at it"
            )
        return path
    found = shutil.which("anynt")
    if found is None:
        raise FileNotFoundError(
            "the anynt program is not on PATH and ANYNT_BIN is not set: "
            "install it (`go install ./cmd/anynt`) or set ANYNT_BIN to its path"
        )
    return found


class Server:
    """One `anynt serve-env` process; not safe for concurrent use."""

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary or find_binary()
        self._proc: subprocess.Popen[str] | None = subprocess.Popen(
            [self.binary, "serve-env"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1 << 16,
        )
        try:
            hello = self.ask({"type": "hello", "protocol": PROTOCOL})
        except BaseException:
            self.close()  # not serve-env, or refused: leave no process behind
            raise
        self.tool: str = str(hello.get("tool", ""))

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Sends one request and returns its answer; an error answer raises AnyntError."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise AnyntError("the environment is closed")
        try:
            proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        except (BrokenPipeError, OSError) as e:
            raise AnyntError(f"anynt serve-env ({self.binary}) is gone: {e}") from e
        if not line:
            status = proc.poll()
            raise AnyntError(
                f"anynt serve-env ({self.binary}) closed its output (exit status {status})"
            )
        answer: dict[str, Any] = json.loads(line)
        if answer.get("type") == "error":
            raise AnyntError(str(answer.get("message", line)), answer.get("errors"))
        return answer

    def close(self) -> None:
        """Closes serve-env's input, which ends it, and waits for it (kills it after 5 s)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    @property
    def closed(self) -> bool:
        return self._proc is None
