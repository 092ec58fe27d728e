"""evaluate(policy): `anynt test` given to a Python policy in this process."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

from ._server import AnyntError, find_binary


@dataclass
class Evaluation:
    """anynt test's JSON lines (docs/output.md): items and summaries of every agent."""

    lines: list[dict[str, Any]]
    name: str

    def items(self, agent: str | None = None) -> list[dict[str, Any]]:
        """The item objects of an agent (default: the policy)."""
        who = self.name if agent is None else agent
        return [x for x in self.lines if x.get("kind") == "item" and x.get("agent") == who]

    def summary(self, agent: str | None = None) -> dict[str, Any]:
        """The summary object of an agent (default: the policy): mean, ci95, r, …"""
        who = self.name if agent is None else agent
        for x in self.lines:
            if x.get("kind") == "summary" and x.get("agent") == who:
                return x
        raise KeyError(f"no summary of agent {who!r}")

    @property
    def scores(self) -> list[float]:
        """The policy's score of each item, in the test's order."""
        return [x["score"] for x in self.items()]


def evaluate(
    policy: Any,
    *args: str,
    tests: int = 20,
    seed: int = 1,
    name: str = "python",
    binary: str | None = None,
) -> Evaluation:
    """Gives `anynt test --tests TESTS --seed SEED ARGS…` to the policy and returns its JSON.

    The test is anynt's own: anynt runs a small relay as --agent-cmd, which
    joins its pipes to this process, where policy_agent runs the policy; so
    the numbers are those of `anynt test --agent-cmd "python -m anynt.agent
    M:P"` for the same seed (bit for bit for a policy that draws only from
    Start.rng, its response times aside), and ARGS (for example "--agent",
    "qlearning", or "--episodes", "5") are anynt test's flags. A fault of the
    policy or a failure of anynt raises AnyntError with anynt's message; its
    `lines` attribute keeps what anynt measured before it.
    """
    # Imported here: `import anynt` must not import anynt.agent, which
    # `python -m anynt.agent` then runs as __main__ (runpy warns otherwise).
    from .agent import policy_agent

    exe = binary or find_binary()
    with tempfile.TemporaryDirectory(prefix="anynt-") as tmp:
        path = os.path.join(tmp, "agent.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(0.1)
        done = threading.Event()  # anynt has exited
        failure: list[BaseException] = []

        def serve() -> None:
            # One connection a relay: anynt starts a new one after a fault
            # under --on-fault continue, and it gets a new policy_agent.
            while not done.is_set():
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue  # a close does not wake accept: look at done
                except OSError:
                    return
                with conn, conn.makefile("r", encoding="utf-8") as r, conn.makefile("w", encoding="utf-8") as w:
                    try:
                        policy_agent(policy, name=name, stdin=r, stdout=w)
                    except BaseException as e:  # reported by anynt as the agent's fault
                        failure.append(e)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        relay = shlex.join([sys.executable, "-m", "anynt._relay", path])
        cmd = [exe, "test", "--agent-cmd", relay, "--tests", str(tests), "--seed", str(seed),
               "--json", "--quiet", *args]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
        finally:
            done.set()
            thread.join(timeout=10)
            listener.close()
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0:
        error = AnyntError(f"anynt test exited with status {run.returncode}: {run.stderr.strip()}")
        error.lines = lines  # type: ignore[attr-defined]
        if failure:
            raise error from failure[0]
        raise error
    return Evaluation(lines=lines, name=name)
