"""A child process `anynt serve-env`, spoken to by protocol anynt/1 (direction B).

One request, then its answer, in order (docs/protocol.md, "Direction B"):
the simplest client, and the one a Gymnasium `step` needs.

The client trusts nothing of the process it started: every answer is awaited
for at most `timeout` seconds (then the process is killed), a process that
dies is reported with its exit status or signal and the end of what it wrote
on its standard error, and a line that is not a JSON object is quoted, naming
the program, rather than parsed further.
"""

from __future__ import annotations

import json
import math
import os
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, NoReturn

PROTOCOL = "anynt/1"

# The default seconds to wait for an answer. Far above any legitimate answer
# (a `make` of a large file takes seconds, a step microseconds), short enough
# that a training run whose serve-env hangs fails within a minute.
DEFAULT_TIMEOUT = 60.0

# The end of serve-env's standard error quoted by an error (serve-env writes
# little there: a panic's trace, a message before it exits).
STDERR_TAIL = 4096

# A line of the answer longer than this is not serve-env's (its longest
# answers are a few KiB): the client stops reading rather than grow without end.
MAX_ANSWER = 64 << 20

CRLF = b"\r\n"

# The name of the program carried by a platform wheel, inside the package.
_BUNDLED = Path(__file__).resolve().parent / "_bin" / ("anynt.exe" if os.name == "nt" else "anynt")

# Marks a console script of this package (`anynt`, which runs the bundled
# program), so that find_binary never takes it for the program itself.
_ENTRY_POINT_MARK = b"anynt._main"


class AnyntError(RuntimeError):
    """serve-env refused a request (the message is serve-env's own, which names
    the request's fault; a file's errors come positioned, file:line:col), or
    the serve-env process failed: it died (the message names its exit status
    or signal and quotes the end of its standard error) or answered something
    that is not the protocol (the message quotes the line)."""

    def __init__(self, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.errors: list[str] = errors or []


class AnyntTimeout(AnyntError):
    """serve-env did not answer a request within the timeout; it was killed."""


def bundled_binary() -> str | None:
    """The anynt program carried by the package (installed from a platform
    wheel), or None when the package carries none (installed from source)."""
    return str(_BUNDLED) if _BUNDLED.is_file() else None


def find_binary() -> str:
    """The anynt program: $ANYNT_BIN if set, else the program carried by the
    package (a platform wheel's), else `anynt` on PATH.

    Raises FileNotFoundError naming every place looked at.
    """
    path = os.environ.get("ANYNT_BIN")
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise FileNotFoundError(
                f"ANYNT_BIN={path!r} is not an executable file: build it with "
                "`go build -o bin/anynt ./cmd/anynt` and point ANYNT_BIN at it, or unset it"
            )
        return path
    bundled = bundled_binary()
    if bundled is not None:
        if not os.access(bundled, os.X_OK):
            raise FileNotFoundError(
                f"the anynt program carried by the package, {bundled}, is not executable: "
                "reinstall the wheel with pip, or set ANYNT_BIN"
            )
        return bundled
    found = _on_path()
    if found is None:
        raise FileNotFoundError(
            "no anynt program: ANYNT_BIN is not set, the package carries none "
            f"(installed from source, not from a platform wheel: no {_BUNDLED}), "
            "and `anynt` is not on PATH: install a platform wheel (`make wheel`), "
            "`go install ./cmd/anynt`, or set ANYNT_BIN to the program's path"
        )
    return found


def _on_path() -> str | None:
    """`anynt` on PATH, skipping this package's own console script."""
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("anynt", path=directory or os.curdir)
        if found is not None and not _is_entry_point(found):
            return found
    return None


def _is_entry_point(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return _ENTRY_POINT_MARK in f.read(4096)
    except OSError:
        return False


def check_timeout(timeout: Any) -> float | None:
    """A timeout argument: None (wait for ever) or a positive number of seconds."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds or None, not {timeout!r}")
    if not timeout > 0 or math.isnan(timeout):
        raise ValueError(f"timeout must be positive (seconds), or None to wait for ever, not {timeout!r}")
    return None if math.isinf(timeout) else float(timeout)


def describe_status(returncode: int) -> str:
    """How a process ended: "ended with exit status 3", "was killed by signal 9 (SIGKILL)"."""
    if returncode >= 0:
        return f"ended with exit status {returncode}"
    try:
        name = f" ({signal.Signals(-returncode).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-returncode}{name}"


class Server:
    """One `anynt serve-env` process; not safe for concurrent use.

    timeout: seconds to wait for each answer (the hello's included), or None
    to wait for ever; on expiry the process (its process group) is killed and
    AnyntTimeout raised.
    """

    def __init__(self, binary: str | None = None, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        self.timeout = check_timeout(timeout)
        self.binary = binary or find_binary()
        posix = os.name == "posix"
        # Its own process group: a timeout kills whatever it started too, and
        # a Ctrl-C at the terminal reaches Python (which closes the env)
        # rather than killing serve-env under it. Off POSIX (no poll on
        # pipes) stderr is not captured but shown, and answers are awaited
        # without a timeout (docs/python.md).
        self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
            [self.binary, "serve-env"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if posix else None,
            bufsize=0,
            process_group=0 if posix else None,
        )
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None
        self._in = proc.stdin.fileno()
        self._out = proc.stdout.fileno()
        self._err: int | None = proc.stderr.fileno() if proc.stderr is not None else None
        self._buf = bytearray()  # what stdout gave after the last answer's line end
        self._tail = bytearray()  # the last STDERR_TAIL bytes of stderr
        self._poll: Any = None
        self._timeout_ms = -1 if self.timeout is None else math.ceil(self.timeout * 1000)
        if posix:
            # Read only when poll says there is something, never blocking.
            assert self._err is not None
            os.set_blocking(self._out, False)
            os.set_blocking(self._err, False)
            self._poll = select.poll()
            self._poll.register(self._out, select.POLLIN)
            self._poll.register(self._err, select.POLLIN)
        try:
            hello = self.ask({"type": "hello", "protocol": PROTOCOL})
            if hello.get("type") != "hello":
                self._fail("hello", f"answered the hello with {_quote(json.dumps(hello))}, not a hello: "
                           f"is {self.binary} anynt's program?")
        except BaseException:
            self.close()  # not serve-env, or refused: leave no process behind
            raise
        self.tool: str = str(hello.get("tool", ""))

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Sends one request and returns its answer; an error answer raises
        AnyntError, no answer within the timeout AnyntTimeout."""
        if self._proc is None:
            raise AnyntError("the environment is closed")
        kind = str(request.get("type"))
        data = json.dumps(request, ensure_ascii=False).encode("utf-8") + b"\n"
        try:
            try:
                # One request is in flight at a time, so the pipe holds it
                # whole and the write does not wait when it is below the
                # pipe's 64 KiB, as every request is but a vector's
                # episode_seeds for thousands of copies. That one waits for
                # serve-env to read it, which it does before anything else;
                # only a serve-env stuck before reading it could hold this
                # write past the timeout (not guarded: the write blocks).
                written = os.write(self._in, data)
                while written < len(data):
                    data = data[written:]
                    written = os.write(self._in, data)
            except OSError:  # BrokenPipeError, mostly: the process is gone
                self._died(kind)
            line = self._line(kind)
        except AnyntError:
            raise  # the process is already ended
        except BaseException:
            # Interrupted (a Ctrl-C) between the request and its answer,
            # which would then be read as the next request's: end serve-env.
            self._kill()
            self._shut()
            raise
        try:
            answer = json.loads(line.decode("utf-8"))  # not json's own guess of the encoding
        except ValueError:  # UnicodeDecodeError too
            self._fail(kind, f"answered {kind!r} with a line that is not JSON, {_quote(line.rstrip(CRLF))}: "
                       f"is {self.binary} anynt's program?")
        if not isinstance(answer, dict):
            self._fail(kind, f"answered {kind!r} with {_quote(line.rstrip(CRLF))}, not a JSON object: "
                       f"is {self.binary} anynt's program?")
        if answer.get("type") == "error":
            raise AnyntError(str(answer.get("message", _quote(line.rstrip(CRLF)))), answer.get("errors"))
        return answer

    def _line(self, kind: str) -> bytes:
        """The next line of stdout (its end may be kept: JSON ignores it),
        awaited until the timeout."""
        buf = self._buf
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        if not buf and self._poll is not None:
            # The usual case, kept short (it is every step's): nothing
            # buffered, and the answer comes as one read of one whole line.
            events = self._poll.poll(self._timeout_ms)
            if len(events) == 1 and events[0][0] == self._out:
                try:
                    chunk = os.read(self._out, 1 << 16)
                except BlockingIOError:
                    chunk = None
                if chunk is not None:
                    if not chunk:
                        self._died(kind)
                    if chunk.find(b"\n") == len(chunk) - 1:
                        return chunk
                    buf += chunk
        end = buf.find(b"\n")
        while end < 0:
            if len(buf) > MAX_ANSWER:
                self._fail(kind, f"wrote more than {MAX_ANSWER} bytes without a line end, "
                           f"beginning {_quote(bytes(buf[:200]))}: is {self.binary} anynt's program?")
            for fd in self._wait(kind, deadline):
                if fd == self._err:
                    self._read_stderr()
                    continue
                try:
                    chunk = os.read(self._out, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    self._died(kind)
                start = len(buf)
                buf += chunk
                end = buf.find(b"\n", start)
        line = bytes(buf[:end])
        del buf[: end + 1]
        return line

    def _wait(self, kind: str, deadline: float | None) -> list[int]:
        """The descriptors ready to read, waiting until the deadline (then the
        process is killed and AnyntTimeout raised)."""
        if self._poll is None:
            return [self._out]  # off POSIX: a blocking read, without a timeout
        while True:
            if deadline is None:
                events = self._poll.poll()
            else:
                left = deadline - time.monotonic()
                events = self._poll.poll(math.ceil(left * 1000)) if left > 0 else []
            if events:
                return [fd for fd, _ in events]
            if deadline is not None and time.monotonic() >= deadline:
                assert self.timeout is not None
                self._kill()
                self._drain_stderr()
                self._shut()
                raise AnyntTimeout(
                    f"anynt serve-env ({self.binary}) did not answer {kind!r} within "
                    f"{self.timeout:g} s (the environment's timeout=, default {DEFAULT_TIMEOUT:g} s): "
                    f"it was killed{self._tail_text()}"
                )

    def _read_stderr(self) -> None:
        """Keeps what stderr has now (its last STDERR_TAIL bytes)."""
        if self._err is None:
            return
        try:
            chunk = os.read(self._err, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:  # the process closed it (exited): stop polling it
            if self._poll is not None:
                self._poll.unregister(self._err)
            self._err = None
            return
        self._tail += chunk
        del self._tail[:-STDERR_TAIL]

    def _drain_stderr(self, seconds: float = 1.0) -> None:
        """Reads stderr to its end (the process has ended), for at most `seconds`."""
        if self._poll is None:
            return
        deadline = time.monotonic() + seconds
        while self._err is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._err], [], [], left)[0]:
                return
            self._read_stderr()

    def _tail_text(self) -> str:
        text = self._tail.decode("utf-8", errors="replace").strip()
        if not text:
            return " (its stderr is empty)"
        indented = "\n".join("    " + line for line in text.splitlines())
        return f"; its stderr ends:\n{indented}"

    def _died(self, kind: str) -> NoReturn:
        """The process closed its output (or its input): wait for it briefly,
        and raise AnyntError naming how it ended and quoting its stderr."""
        proc = self._proc
        assert proc is not None
        try:
            how = describe_status(proc.wait(timeout=2))
        except subprocess.TimeoutExpired:
            self._kill()
            how = "closed its output but did not exit; it was killed"
        self._drain_stderr()
        self._shut()
        raise AnyntError(f"anynt serve-env ({self.binary}) {how} before answering {kind!r}{self._tail_text()}")

    def _fail(self, kind: str, what: str) -> NoReturn:
        """The process broke the protocol: end it and raise AnyntError."""
        self._kill()
        self._drain_stderr(0.2)
        self._shut()
        raise AnyntError(f"anynt serve-env ({self.binary}) {what}")

    def _kill(self) -> None:
        """Kills the process and its process group, and waits for it."""
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:  # not waited for, so its pid is still its own
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
        proc.wait()

    def _shut(self) -> None:
        """Closes the pipes and forgets the (ended) process."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass
        self._err = None

    def close(self) -> None:
        """Closes serve-env's input, which ends it, and waits for it (kills it after 5 s)."""
        proc = self._proc
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
            self._kill()
        self._shut()

    @property
    def closed(self) -> bool:
        return self._proc is None


def _quote(line: bytes | str, limit: int = 200) -> str:
    """A line as a Python literal, shortened to `limit` characters."""
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    if len(text) > limit:
        return repr(text[:limit]) + f"… ({len(text)} characters)"
    return repr(text)

