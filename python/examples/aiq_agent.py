"""An agent of AIQ examined by anynt's tests: a thin adapter.

AIQ is the test of Legg and Veness (2011), "An Approximation of the
Universal Intelligence Measure" (docs/references.md). Its agents are Python
classes in the `agents/` package of its repository, one module a class of
the same name (`agents/Q_l.py` holds `Q_l`), and AIQ uses them in three
calls: `Name(refm, disc_rate, *params)` (the reference machine `refm`
answers `getNumActions()`, `getNumObs()`, `getNumObsSyms()`,
`getNumObsCells()` and `getNumRewards()`), `reset()` before a run, and
`action = perceive(observations, reward)` at each step, `observations`
being a list of `getNumObsCells()` integers below `getNumObsSyms()`.

AIQ's agents are not part of anynt (AIQ is GPLv3): get them yourself. The
Python 3 version of AIQ, kept up by O. Vadinský and others, is at
https://github.com/xvado00/AIQ:

    git clone https://github.com/xvado00/AIQ ~/AIQ
    pip install numpy scipy                      # AIQ's requirements.txt

Then give an agent to anynt test, named as AIQ's `-a` names it
(`Name,param1,param2,…`), either as an agent program

    anynt test --agent-cmd "python python/examples/aiq_agent.py --aiq ~/AIQ Q_l,0,0,0.05,0.05,0,0.35" \\
        --agent qlearning --tests 20 --seed 1

or from Python, through anynt.evaluate in this process (anynt test's own
flags after `--`):

    python python/examples/aiq_agent.py --aiq ~/AIQ --evaluate --tests 20 --seed 1 Freq,0.05 -- --agent random

(`--aiq` defaults to the environment variable AIQ_PATH.)

What the adapter does, each choice as AIQ would have it:

- **One agent a run.** AIQ makes a new agent for each run of an environment
  and calls `reset()` before its first `perceive`; the adapter does the same
  for each episode anynt starts (an exercise of the Λ_one test is one
  episode unless `--episodes` says otherwise), at its first observation.
- **Observations.** anynt's observation is a list of `length` indices into
  an alphabet of `symbols` (docs/protocol.md). AIQ's tabular agents size a
  table by `getNumObs()` = symbols ** cells, too large for anynt's
  observations (9 ** 8 for the smallest Λ_one exercise), so by default
  (`--observation state`) each distinct observation is a state numbered in
  the order the episode first shows it: one cell of `--states` symbols
  (default 1024; more distinct observations than that share the last state,
  with a warning on standard error). `--observation cells` gives the
  observation itself, `length` cells of `symbols` symbols, for agents that
  encode cells themselves (one-hot input to a network).
- **Rewards.** AIQ's reference machine BF gives rewards in [−100, 100] and
  its agents' parameters (initial Q values, divergence limits) are set for
  that range; anynt's are in [−1, 1], so the agent sees them times
  `--reward-scale` (default 100). anynt scores the episode from its own
  rewards, whatever the agent sees.
- **Seeds.** AIQ's agents draw from Python's `random` and numpy's global
  generator; the adapter seeds both from the episode's seed (the protocol's
  `start`), so the same `anynt test --seed` gives the same actions.
- **Standard output** is the protocol's channel: whatever an agent prints
  there (AIQ's agents print warnings) goes to standard error instead.
- `--disc-rate` is AIQ's `-d` (default 1.0, as AIQ's): the agent's own
  discount, which anynt's score does not use. AIQ's `Q_l` refuses a
  discount of 1.0 unless its last parameter, gamma, sets its own.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import random
import sys
from pathlib import Path
from typing import Any, TextIO

import anynt

WHERE = "git clone https://github.com/xvado00/AIQ (AIQ's Python 3 version; GPLv3, not part of anynt)"


class ReferenceMachine:
    """What an AIQ agent asks of AIQ's reference machine, for one anynt episode."""

    def __init__(self, actions: int, obs_symbols: int, obs_cells: int, reward_scale: float) -> None:
        self.actions, self.obs_symbols, self.obs_cells = actions, obs_symbols, obs_cells
        self.reward_scale = reward_scale

    def getNumActions(self) -> int:  # noqa: N802 (AIQ's names)
        return self.actions

    def getNumObsSyms(self) -> int:  # noqa: N802
        return self.obs_symbols

    def getNumObsCells(self) -> int:  # noqa: N802
        return self.obs_cells

    def getNumObs(self) -> int:  # noqa: N802
        return int(self.obs_symbols**self.obs_cells)

    def getNumRewards(self) -> int:  # noqa: N802
        # anynt's rewards are not a finite set; this counts the integers of
        # [-scale, scale], the rewards an agent that rounds them could see.
        return int(2 * self.reward_scale) + 1

    def __str__(self) -> str:
        return f"anynt({self.actions},{self.obs_symbols},{self.obs_cells})"


class AIQAgent:
    """An anynt policy (anynt.agent's act/start) that runs an AIQ agent class."""

    def __init__(
        self,
        cls: Any,
        params: list[float],
        *,
        disc_rate: float = 1.0,
        observation: str = "state",
        states: int = 1024,
        reward_scale: float = 100.0,
    ) -> None:
        self.cls, self.params, self.disc_rate = cls, params, disc_rate
        self.observation, self.states, self.reward_scale = observation, states, reward_scale
        self.episode: anynt.Start | None = None
        self.agent: Any = None
        self.numbering: dict[tuple[int, ...], int] = {}
        self.overflow = 0

    def start(self, start: anynt.Start) -> None:
        """A new episode: the agent is made at its first observation."""
        self.warn_overflow()
        self.episode, self.agent, self.numbering, self.overflow = start, None, {}, 0
        random.seed(start.seed)
        _seed_numpy(start.seed)

    def act(self, observation: list[int], reward: float) -> int:
        """AIQ's perceive(observations, reward), the observation as --observation says."""
        if self.agent is None:
            self.agent = self.make(len(observation))
        if self.observation == "cells":
            seen = list(observation)
        else:
            key = tuple(observation)
            state = self.numbering.get(key)
            if state is None:
                if len(self.numbering) < self.states:
                    state = self.numbering[key] = len(self.numbering)
                else:
                    state, self.overflow = self.states - 1, self.overflow + 1
            seen = [state]
        return int(self.agent.perceive(seen, reward * self.reward_scale))

    def end(self, reward: float, score: float) -> None:
        self.warn_overflow()
        if self.agent is not None and getattr(self.agent, "has_failed", lambda: False)():
            assert self.episode is not None
            print(f"aiq_agent: {self.agent} reports a failure in {self.episode.exercise}", file=sys.stderr)

    def make(self, length: int) -> Any:
        """A new agent for the episode, reset as AIQ resets it before a run."""
        assert self.episode is not None
        if self.observation == "cells":
            refm = ReferenceMachine(self.episode.actions, self.episode.symbols, length, self.reward_scale)
        else:
            refm = ReferenceMachine(self.episode.actions, self.states, 1, self.reward_scale)
        try:
            agent = self.cls(refm, self.disc_rate, *self.params)
            agent.reset()
        except SystemExit as e:  # AIQ's agents exit on bad parameters
            raise RuntimeError(f"{self.cls.__name__} exited while being made (status {e.code}): see standard error") from None
        return agent

    def warn_overflow(self) -> None:
        if self.overflow and self.episode is not None:
            print(
                f"aiq_agent: {self.episode.exercise} showed more than {self.states} distinct observations; "
                f"{self.overflow} were given state {self.states - 1}: raise --states",
                file=sys.stderr,
            )
            self.overflow = 0


def _seed_numpy(seed: int) -> None:
    try:
        import numpy
    except ImportError:
        return
    numpy.random.seed(seed % 2**32)


def parse_agent(spec: str) -> tuple[str, list[float]]:
    """AIQ's -a syntax: Name[,param1[,param2…]], the parameters as floats (as AIQ reads them)."""
    name, *rest = spec.split(",")
    if not name.isidentifier():
        raise ValueError(f"an agent is named as AIQ's -a names it, Name[,param,…], not {spec!r}")
    try:
        return name, [float(p) for p in rest]
    except ValueError:
        raise ValueError(f"the parameters of {spec!r} must be numbers, as AIQ's -a takes them") from None


def load_agent(aiq: str, name: str, params: list[float]) -> Any:
    """The class agents.NAME.NAME of the AIQ checkout at `aiq`, checked against the parameters."""
    root = Path(aiq).expanduser()
    if not (root / "agents").is_dir():
        raise ValueError(f"{root} has no agents/ folder: give the root of your AIQ checkout ({WHERE})")
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(f"agents.{name}")
    except ModuleNotFoundError as e:
        if e.name in (f"agents.{name}", "agents"):
            known = sorted(p.stem for p in (root / "agents").glob("*.py") if p.stem not in ("__init__", "Agent"))
            raise ValueError(f"AIQ has no agent {name} in {root / 'agents'}; it has: {', '.join(known)}") from None
        raise ValueError(f"AIQ's agent {name} needs the module {e.name}: install it (pip install {e.name})") from None
    cls = getattr(module, name, None)
    if not inspect.isclass(cls):
        raise ValueError(f"{module.__file__} has no class {name}")
    try:
        inspect.signature(cls).bind(None, 1.0, *params)
    except TypeError:
        raise ValueError(f"{name}{inspect.signature(cls)} does not take {len(params)} parameters after refm and disc_rate") from None
    return cls


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description="Give an agent of AIQ (Legg and Veness 2011) to anynt test: as --agent-cmd, "
        "or with --evaluate through anynt.evaluate. anynt test's own flags go after --.",
        epilog=f"AIQ's agents are not part of anynt: {WHERE}",
    )
    p.add_argument("agent", help="as AIQ's -a: Name[,param1[,param2…]], e.g. Q_l,0,0,0.05,0.05,0,0.35 or Freq,0.05")
    p.add_argument("--aiq", default=os.environ.get("AIQ_PATH"), help="the root of your AIQ checkout (default: $AIQ_PATH)")
    p.add_argument("--disc-rate", type=float, default=1.0, help="AIQ's -d, the agent's own discount (default 1.0)")
    p.add_argument("--observation", choices=["state", "cells"], default="state",
                   help="state: each distinct observation a state (one cell); cells: the indices themselves")
    p.add_argument("--states", type=int, default=1024, help="state: the states an episode can have (default 1024)")
    p.add_argument("--reward-scale", type=float, default=100.0, help="the agent sees rewards times this (default 100: AIQ's range)")
    p.add_argument("--evaluate", action="store_true", help="run anynt test from here (anynt.evaluate) and print its summary")
    p.add_argument("--tests", type=int, default=20, help="--evaluate: Λ_one tests (default 20)")
    p.add_argument("--seed", type=int, default=1, help="--evaluate: the test's seed (default 1)")
    p.add_argument("--json", action="store_true", help="--evaluate: print anynt test's JSON lines instead")
    return p


def main(argv: list[str] | None = None) -> None:
    args_in = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in args_in:
        cut = args_in.index("--")
        args_in, extra = args_in[:cut], args_in[cut + 1:]
    p = parser()
    args = p.parse_args(args_in)
    if extra and not args.evaluate:
        p.error("anynt test's flags (after --) are for --evaluate; as --agent-cmd, give them to anynt test")
    if not args.aiq:
        p.error(f"where is AIQ? give --aiq PATH or set AIQ_PATH to your checkout ({WHERE})")
    if args.states < 1:
        p.error("--states must be at least 1")
    if args.reward_scale <= 0:
        p.error("--reward-scale must be positive")
    try:
        name, params = parse_agent(args.agent)
        cls = load_agent(args.aiq, name, params)
    except ValueError as e:
        p.error(str(e))
    policy = AIQAgent(cls, params, disc_rate=args.disc_rate, observation=args.observation,
                      states=args.states, reward_scale=args.reward_scale)
    label = f"aiq:{args.agent}"
    if not args.evaluate:
        # The protocol keeps the real standard output; the agent's prints go to stderr.
        protocol: TextIO = sys.stdout
        sys.stdout = sys.stderr
        anynt.policy_agent(policy, name=label, stdout=protocol)
        return
    try:
        ev = anynt.evaluate(policy, *extra, tests=args.tests, seed=args.seed, name=label)
    except anynt.AnyntError as e:
        sys.exit(f"aiq_agent: {e}")
    if args.json:
        for line in ev.lines:
            print(json.dumps(line))
        return
    for agent in [label] + sorted({x["agent"] for x in ev.lines if x.get("kind") == "summary"} - {label}):
        s = ev.summary(agent)
        ci = s["ci95"] or [float("nan")] * 2
        print(f"{agent}: mean {s['mean']:.3f}, 95% CI [{ci[0]:.3f}, {ci[1]:.3f}], n = {s['n']}")


if __name__ == "__main__":
    main()
