"""The serve-env client trusts nothing: timeouts, dead servers, garbage, the
program's lookup, the console script, and `python -m anynt.agent` quiet.

The misbehaving servers are small Python scripts given as `binary=`; the
timeouts are small, the bounds on elapsed time generous (CI is loaded): a
test asserts that the client gives up, not how fast.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import gymnasium as gym
import pytest

import anynt
from anynt import _server
from anynt._server import Server

# Far above the timeouts below even on a loaded machine, far below "hangs".
BOUND = 30.0


def fake(tmp_path: Path, body: str, name: str = "fake-anynt") -> str:
    """An executable Python script: `body` runs after it wrote its pid to tmp_path/pid.

    `answer(line)` writes a line to stdout, `requests()` yields the
    requests' types as they come.
    """
    path = tmp_path / name
    path.write_text(
        f"#!{sys.executable}\n"
        + textwrap.dedent(
            f"""\
            import json, os, signal, sys, time
            open({str(tmp_path / "pid")!r}, "w").write(str(os.getpid()))
            def answer(line):
                sys.stdout.write(line + "\\n"); sys.stdout.flush()
            def requests():
                for line in sys.stdin:
                    yield json.loads(line)["type"]
            """
        )
        + textwrap.dedent(body),
        encoding="utf-8",
    )
    path.chmod(0o755)
    return str(path)


def hello_then(tmp_path: Path, body: str) -> str:
    """A fake that answers the hello, then runs `body` at the next request."""
    return fake(
        tmp_path,
        "it = requests()\nnext(it)\n"
        "answer('{\"type\":\"hello\",\"protocol\":\"anynt/1\",\"tool\":\"fake\"}')\n"
        "next(it)\n" + textwrap.dedent(body),
    )


def assert_gone(tmp_path: Path) -> None:
    """The fake's process has ended and was waited for."""
    pid = int((tmp_path / "pid").read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_server_that_never_answers_hello_times_out(tmp_path: Path) -> None:
    binary = fake(tmp_path, "time.sleep(600)\n")
    start = time.monotonic()
    with pytest.raises(anynt.AnyntTimeout) as caught:
        gym.make("anynt/Example5-v0", binary=binary, timeout=0.5)
    assert time.monotonic() - start < BOUND
    message = str(caught.value)
    assert "did not answer 'hello' within 0.5 s" in message, message
    assert binary in message and "killed" in message, message
    assert isinstance(caught.value, anynt.AnyntError)
    assert_gone(tmp_path)


def test_a_server_that_stops_answering_times_out_and_its_group_is_killed(tmp_path: Path) -> None:
    # It starts a child of its own (in its process group) and hangs: the
    # timeout kills both, not only the process the client started.
    child = tmp_path / "child"
    binary = hello_then(
        tmp_path,
        f"""\
        import subprocess
        p = subprocess.Popen(["sleep", "600"])
        open({str(child)!r}, "w").write(str(p.pid))
        sys.stderr.write("stuck on purpose\\n"); sys.stderr.flush()
        time.sleep(600)
        """,
    )
    server = Server(binary, timeout=1.0)
    start = time.monotonic()
    with pytest.raises(anynt.AnyntTimeout) as caught:
        server.ask({"type": "step", "env": 1, "action": 0})
    assert time.monotonic() - start < BOUND
    message = str(caught.value)
    assert "did not answer 'step' within 1 s" in message, message
    assert "stuck on purpose" in message, message
    assert server.closed
    assert_gone(tmp_path)
    # The child was killed (a zombie at most, until its new parent reaps it).
    pid = int(child.read_text(encoding="utf-8"))
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            break
        if state == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the server's child {pid} outlived the timeout")
    with pytest.raises(anynt.AnyntError, match="closed"):
        server.ask({"type": "step", "env": 1, "action": 0})


def test_a_slow_answer_within_the_timeout_is_read_whole(tmp_path: Path) -> None:
    # The answer comes late and in pieces: the client joins them.
    binary = hello_then(
        tmp_path,
        """\
        time.sleep(0.3)
        sys.stdout.write('{"type":"observation",'); sys.stdout.flush()
        time.sleep(0.3)
        answer('"step":1}')
        for _ in requests():
            answer('{"type":"closed"}')
        """,
    )
    server = Server(binary, timeout=BOUND)
    try:
        assert server.ask({"type": "step"}) == {"type": "observation", "step": 1}
        assert server.ask({"type": "close"}) == {"type": "closed"}
    finally:
        server.close()


def test_an_interrupted_request_ends_the_server(tmp_path: Path) -> None:
    # A Ctrl-C while an answer is awaited: that answer would otherwise be
    # read as the next request's, so the server is ended, not reused.
    binary = hello_then(tmp_path, "time.sleep(600)\n")
    server = Server(binary, timeout=BOUND)

    class Interrupt(Exception):
        pass

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Interrupt):
            server.ask({"type": "step", "env": 1, "action": 0})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert server.closed
    assert_gone(tmp_path)
    with pytest.raises(anynt.AnyntError, match="closed"):
        server.ask({"type": "step", "env": 1, "action": 0})


@pytest.mark.parametrize("at_hello", [True, False])
def test_a_server_that_exits_names_its_status_and_quotes_its_stderr(tmp_path: Path, at_hello: bool) -> None:
    body = 'sys.stderr.write("serve-env: something broke\\nat line 7\\n"); sys.stderr.flush()\nsys.exit(3)\n'
    binary = fake(tmp_path, body) if at_hello else hello_then(tmp_path, body)
    with pytest.raises(anynt.AnyntError) as caught:
        server = Server(binary, timeout=BOUND)
        server.ask({"type": "make", "file": "x.anynt"})
    message = str(caught.value)
    assert "exit status 3" in message, message
    assert "something broke" in message and "at line 7" in message, message
    assert ("'hello'" if at_hello else "'make'") in message, message
    assert "None" not in message, message
    assert_gone(tmp_path)


def test_stderr_is_quoted_by_its_end(tmp_path: Path) -> None:
    binary = fake(tmp_path, 'sys.stderr.write("x" * 100000 + "\\nthe last words\\n")\nsys.exit(2)\n')
    with pytest.raises(anynt.AnyntError) as caught:
        Server(binary, timeout=BOUND)
    message = str(caught.value)
    assert "exit status 2" in message and "the last words" in message, message
    assert len(message) < _server.STDERR_TAIL + 1000


def test_a_server_killed_by_a_signal_names_it(tmp_path: Path) -> None:
    binary = hello_then(tmp_path, "os.kill(os.getpid(), signal.SIGKILL)\n")
    server = Server(binary, timeout=BOUND)
    with pytest.raises(anynt.AnyntError) as caught:
        server.ask({"type": "step", "env": 1, "action": 0})
    message = str(caught.value)
    assert "killed by signal 9 (SIGKILL)" in message, message
    assert "'step'" in message and "None" not in message, message


def test_a_real_serve_env_killed_under_the_env_names_the_signal(binary: str) -> None:
    # The write of the next request meets a closed pipe (EPIPE), not an EOF.
    env = anynt.Env(anynt.corpus_file("Example5"))
    env.reset(seed=1)
    proc = env._server._proc
    assert proc is not None
    os.kill(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + BOUND
    while not Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    with pytest.raises(anynt.AnyntError) as caught:
        env.step(0)
    message = str(caught.value)
    assert "killed by signal 9 (SIGKILL)" in message and "'step'" in message, message
    with pytest.raises(anynt.AnyntError, match="closed"):
        env.step(0)
    env.close()


@pytest.mark.parametrize(
    "line, says",
    [
        ("hello world", "a line that is not JSON, 'hello world'"),
        ("[1, 2]", "'[1, 2]', not a JSON object"),
        ('{"type":"made","env":1}', "not a hello"),
        ("", "a line that is not JSON, ''"),
    ],
)
def test_a_program_that_is_not_serve_env_is_named_and_quoted(tmp_path: Path, line: str, says: str) -> None:
    binary = fake(tmp_path, f"answer({line!r})\ntime.sleep(600)\n")
    with pytest.raises(anynt.AnyntError) as caught:
        anynt.Env(anynt.corpus_file("Example5"), binary=binary, timeout=BOUND)
    message = str(caught.value)
    assert says in message, message
    assert f"is {binary} anynt's program?" in message, message
    assert not isinstance(caught.value, anynt.AnyntTimeout)
    assert_gone(tmp_path)


def test_an_endless_line_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_server, "MAX_ANSWER", 1 << 16)
    binary = fake(tmp_path, 'while True:\n    sys.stdout.write("z" * 4096); sys.stdout.flush()\n')
    with pytest.raises(anynt.AnyntError, match="without a line end, beginning 'zzz"):
        Server(binary, timeout=BOUND)
    assert_gone(tmp_path)


@pytest.mark.parametrize(
    "timeout, error",
    [(0, ValueError), (-1, ValueError), (float("nan"), ValueError), ("5", TypeError), (True, TypeError)],
)
def test_bad_timeouts_are_refused(binary: str, timeout: object, error: type) -> None:
    with pytest.raises(error, match="timeout"):
        anynt.Env(anynt.corpus_file("Example5"), timeout=timeout)  # type: ignore[arg-type]


@pytest.mark.parametrize("timeout", [None, float("inf"), 5])
def test_a_real_serve_env_within_any_timeout(binary: str, timeout: float | None) -> None:
    env = gym.make("anynt/Example5-v0", timeout=timeout)
    try:
        env.reset(seed=1)
        for _ in range(20):
            env.step(env.action_space.sample())
        assert env.unwrapped._server.timeout == (None if timeout in (None, float("inf")) else timeout)
    finally:
        env.close()


def test_the_default_timeout(binary: str) -> None:
    env = anynt.Env(anynt.corpus_file("Example5"))
    try:
        assert env._server.timeout == anynt.DEFAULT_TIMEOUT == 60.0
    finally:
        env.close()


def executable(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_find_binary_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_bin = executable(tmp_path / "env" / "anynt", "#!/bin/sh\n")
    bundled = tmp_path / "pkg" / "_bin" / "anynt"
    # On PATH: first this package's console script (never taken), then a program.
    script = executable(tmp_path / "venv" / "anynt", "#!/usr/bin/python3\nfrom anynt._main import main\nmain()\n")
    on_path = executable(tmp_path / "usr" / "anynt", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(script).parent), str(Path(on_path).parent)]))
    monkeypatch.setattr(_server, "_BUNDLED", bundled)

    monkeypatch.delenv("ANYNT_BIN", raising=False)
    assert anynt.find_binary() == on_path
    executable(bundled, "#!/bin/sh\n")
    assert anynt.find_binary() == str(bundled)
    monkeypatch.setenv("ANYNT_BIN", env_bin)
    assert anynt.find_binary() == env_bin

    monkeypatch.delenv("ANYNT_BIN")
    bundled.chmod(0o644)
    with pytest.raises(FileNotFoundError, match="carried by the package.*not executable"):
        anynt.find_binary()
    bundled.unlink()
    monkeypatch.setenv("PATH", str(Path(script).parent))
    with pytest.raises(FileNotFoundError) as caught:
        anynt.find_binary()
    message = str(caught.value)
    assert "ANYNT_BIN is not set" in message and str(bundled) in message and "not on PATH" in message, message


def test_the_console_script_becomes_the_program(binary: str) -> None:
    # On POSIX the script execs the program: same process, same status.
    run = [sys.executable, "-c", "from anynt._main import main; main()"]
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("anynt version "), version.stdout
    assert subprocess.run([*run, "check", "/nonexistent.anynt"], capture_output=True).returncode == \
        subprocess.run([binary, "check", "/nonexistent.anynt"], capture_output=True).returncode != 0
    with subprocess.Popen([*run, "serve-env"], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as proc:
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(b'{"type":"hello","protocol":"anynt/1"}\n')
            proc.stdin.flush()
            assert b'"hello"' in proc.stdout.readline()
            assert os.path.samefile(f"/proc/{proc.pid}/exe", binary)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=BOUND) == -signal.SIGTERM
        finally:
            proc.kill()


def test_the_console_script_without_a_program_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ANYNT_BIN"}
    env["PATH"] = str(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", "from anynt._main import main; main()", "--version"],
        capture_output=True, text=True, env=env,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("anynt: no anynt program"), run.stderr


def test_python_m_anynt_agent_prints_no_warning() -> None:
    # Without arguments it prints its usage and exits: that, and nothing else.
    run = subprocess.run(
        [sys.executable, "-W", "error", "-m", "anynt.agent"], capture_output=True, text=True,
    )
    assert run.returncode == 1
    assert run.stderr == "usage: python -m anynt.agent MODULE:NAME [AGENT-NAME]\n"


def test_the_agent_names_are_still_the_package_s() -> None:
    assert anynt.policy_agent.__module__ == "anynt.agent"
    assert anynt.Start.__module__ == "anynt.agent"
    assert {"Start", "policy_agent", "evaluate"} <= set(dir(anynt))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        anynt.nothing  # type: ignore[attr-defined]  # noqa: B018
