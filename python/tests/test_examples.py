"""The examples of python/examples/: the AIQ adapter for real, the PPOs by their arguments.

aiq_agent.py runs here for real, through `anynt test --agent-cmd` and
through anynt.evaluate, with a stand-in for an AIQ agent that the test
writes itself (AIQ's agents are not part of anynt). sb3_ppo.py needs
stable-baselines3 and torch, cleanrl_ppo.py torch, which CI does not
install: here only their arguments and their messages without them are
checked; the tests marked `slow` train and evaluate for real with a small
budget (`make test-examples`, which installs them; deselected from `make
test` by pyproject's addopts).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import anynt

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
AIQ_AGENT = EXAMPLES / "aiq_agent.py"
SB3_PPO = EXAMPLES / "sb3_ppo.py"
CLEANRL_PPO = EXAMPLES / "cleanrl_ppo.py"

# The test's own stand-in for an agent of AIQ: NOT AIQ's code, and no copy of
# it. It has the interface AIQ calls (Name(refm, disc_rate, *params), reset,
# perceive(observations, reward) -> action; the module agents/Probe.py of a
# checkout's root) and writes every call to $PROBE_LOG as JSON lines. It
# takes `action` (a fixed action; -1: epsilon-greedy on the mean reward of
# each action, drawing from Python's random as AIQ's agents do) and prints
# to standard output when made, as AIQ's agents print warnings there.
PROBE = '''
import json, os, random


class Probe:
    def __init__(self, refm, disc_rate, action=-1.0, epsilon=0.25):
        self.log = open(os.environ["PROBE_LOG"], "a")
        self.actions = refm.getNumActions()
        self.cells = refm.getNumObsCells()
        self.symbols = refm.getNumObsSyms()
        self.action, self.epsilon = int(action), epsilon
        self.write(event="init", actions=self.actions, cells=self.cells, symbols=self.symbols,
                   num_obs=refm.getNumObs(), disc_rate=disc_rate, params=[action, epsilon])
        print("Probe: made")  # on standard output, as AIQ's agents print
        self.reset()

    def write(self, **record):
        self.log.write(json.dumps(record) + "\\n")
        self.log.flush()

    def reset(self):
        self.total = [0.0] * self.actions
        self.count = [1] * self.actions
        self.last = 0
        self.write(event="reset")

    def perceive(self, observations, reward):
        assert len(observations) == self.cells
        assert all(0 <= o < self.symbols for o in observations)
        self.total[self.last] += reward
        self.count[self.last] += 1
        if self.action >= 0:
            a = self.action
        elif random.random() < self.epsilon:
            a = random.randrange(self.actions)
        else:
            means = [t / c for t, c in zip(self.total, self.count)]
            a = means.index(max(means))
        self.last = a
        self.write(event="perceive", observations=list(observations), reward=reward, action=a)
        return a
'''


@pytest.fixture
def aiq(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder laid out as an AIQ checkout, with the stand-in agents/Probe.py."""
    root = tmp_path / "AIQ"
    (root / "agents").mkdir(parents=True)
    (root / "agents" / "__init__.py").write_text("")
    (root / "agents" / "Probe.py").write_text(PROBE)
    monkeypatch.setenv("PROBE_LOG", str(tmp_path / "probe.jsonl"))
    return root


def probe_log(aiq: Path) -> list[dict[str, Any]]:
    path = Path(os.environ["PROBE_LOG"])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    path.unlink()
    return lines


def agent_cmd(aiq: Path, agent: str, *flags: str) -> str:
    return shlex.join([sys.executable, str(AIQ_AGENT), "--aiq", str(aiq), *flags, agent])


def anynt_test(binary: str, *args: str) -> list[dict[str, Any]]:
    run = subprocess.run([binary, "test", "--json", "--quiet", *args], capture_output=True, text=True, encoding="utf-8")
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def item_scores(lines: list[dict[str, Any]], agent: str) -> list[tuple[str, float]]:
    return [(x["name"], x["score"]) for x in lines if x["kind"] == "item" and x["agent"] == agent]


def episodes(log: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The log cut at each init: one list of records an agent made."""
    out: list[list[dict[str, Any]]] = []
    for record in log:
        if record["event"] == "init":
            out.append([])
        out[-1].append(record)
    return out


def test_aiq_agent_that_stays_scores_as_the_builtin_stay(binary: str, aiq: Path) -> None:
    """An AIQ-style agent that always answers 0, through --agent-cmd, scores what
    anynt's built-in `stay` scores, item for item: its answers reach anynt, and
    what it prints on standard output does not break the protocol."""
    lines = anynt_test(binary, "--agent-cmd", agent_cmd(aiq, "Probe,0"), "--agent", "stay", "--tests", "2", "--seed", "3")
    ours, stay = item_scores(lines, "aiq:Probe,0"), item_scores(lines, "stay")
    assert len(ours) == 14 and ours == stay
    assert len(episodes(probe_log(aiq))) == 14  # a new agent each episode


@pytest.mark.parametrize("observation", ["state", "cells"])
def test_aiq_agent_sees_the_protocols_observations(binary: str, aiq: Path, observation: str) -> None:
    """The AIQ agent is made and reset as AIQ does, once an episode, with a
    reference machine of the episode's actions; it sees each observation of the
    protocol (cells: the indices; state: numbered in the order the episode first
    shows them) and the reward times 100."""
    raw: list[list[tuple[list[int], float]]] = []
    starts: list[anynt.Start] = []

    class Stay:  # what the protocol shows an agent that always stays
        def start(self, start: anynt.Start) -> None:
            starts.append(start)
            raw.append([])

        def act(self, observation: list[int], reward: float) -> int:
            raw[-1].append((observation, reward))
            return 0

    anynt.evaluate(Stay(), tests=1, seed=5)
    anynt_test(binary, "--agent-cmd", agent_cmd(aiq, "Probe,0", "--observation", observation, "--disc-rate", "0.9"),
               "--tests", "1", "--seed", "5")
    got = episodes(probe_log(aiq))
    assert len(got) == len(raw) == 7
    for start, shown, records in zip(starts, raw, got):
        init, *rest = records
        steps = [r for r in rest if r["event"] == "perceive"]
        # made, then reset (by its constructor, as AIQ's agents do, and by the
        # adapter, as AIQ does) before its first perceive, and not after it
        assert init["event"] == "init" and rest[: len(rest) - len(steps)] == [{"event": "reset"}] * 2
        assert init["actions"] == start.actions and init["disc_rate"] == 0.9 and init["params"] == [0.0, 0.25]
        if observation == "cells":
            assert (init["cells"], init["symbols"]) == (len(shown[0][0]), start.symbols)
            assert init["num_obs"] == start.symbols ** len(shown[0][0])
            expected = [obs for obs, _ in shown]
        else:
            assert (init["cells"], init["symbols"], init["num_obs"]) == (1, 1024, 1024)
            numbers: dict[tuple[int, ...], int] = {}
            expected = [[numbers.setdefault(tuple(obs), len(numbers))] for obs, _ in shown]
        assert [s["observations"] for s in steps] == expected
        assert [s["reward"] for s in steps] == [100 * r for _, r in shown]
        assert len(steps) == start.steps


def test_aiq_agent_is_reproducible_both_ways(binary: str, aiq: Path) -> None:
    """An AIQ agent drawing from Python's random takes the same actions for the
    same seed, as an --agent-cmd program twice and through --evaluate: the
    adapter seeds random from each episode's seed."""
    runs = [item_scores(anynt_test(binary, "--agent-cmd", agent_cmd(aiq, "Probe"), "--tests", "2", "--seed", "7"),
                        "aiq:Probe") for _ in range(2)]
    actions = [[s["action"] for s in e if s["event"] == "perceive"] for e in episodes(probe_log(aiq))]
    evaluated = subprocess.run(
        [sys.executable, str(AIQ_AGENT), "--aiq", str(aiq), "--evaluate", "--tests", "2", "--seed", "7", "--json", "Probe"],
        capture_output=True, text=True, encoding="utf-8",
    )
    assert evaluated.returncode == 0, evaluated.stderr
    lines = [json.loads(line) for line in evaluated.stdout.splitlines() if line.startswith("{")]
    assert runs[0] == runs[1] == item_scores(lines, "aiq:Probe")
    assert len(runs[0]) == 14
    assert actions[:14] == actions[14:28]  # the agent's actions, not only its scores
    assert len({a for e in actions for a in e}) > 1  # it does draw


def test_aiq_agent_evaluate_prints_summaries(aiq: Path) -> None:
    """--evaluate prints a summary line for the agent and each built-in agent
    named after --."""
    run = subprocess.run(
        [sys.executable, str(AIQ_AGENT), "--aiq", str(aiq), "--evaluate", "--tests", "1", "Probe,0", "--", "--agent", "stay"],
        capture_output=True, text=True, encoding="utf-8",
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    assert [line.split(":")[0] for line in out if "mean" in line] == ["aiq", "stay"]
    assert all("n = 7" in line for line in out if "mean" in line)


@pytest.mark.parametrize(
    "args, env_aiq, message",
    [
        (["Probe"], None, "git clone https://github.com/xvado00/AIQ"),
        (["--aiq", "{tmp}", "Probe"], None, "has no agents/ folder"),
        (["Probe"], "{aiq}", None),
        (["--aiq", "{aiq}", "Nope"], None, "AIQ has no agent Nope"),
        (["--aiq", "{aiq}", "Probe,1,2,3"], None, "does not take 3 parameters"),
        (["--aiq", "{aiq}", "Probe,x"], None, "must be numbers"),
        (["--aiq", "{aiq}", "Probe", "--", "--agent", "stay"], None, "are for --evaluate"),
        (["--aiq", "{aiq}", "--states", "0", "Probe"], None, "--states must be at least 1"),
    ],
)
def test_aiq_agent_bad_input(aiq: Path, args: list[str], env_aiq: str | None, message: str | None) -> None:
    """Bad arguments exit with status 2 and a message saying what to do (no
    traceback); AIQ_PATH stands for --aiq."""
    fill = {"tmp": str(aiq.parent), "aiq": str(aiq)}
    env = {k: v for k, v in os.environ.items() if k != "AIQ_PATH"}
    if env_aiq is not None:
        env["AIQ_PATH"] = env_aiq.format(**fill)
    run = subprocess.run(
        [sys.executable, str(AIQ_AGENT), *(a.format(**fill) for a in args)],
        capture_output=True, text=True, encoding="utf-8", env=env, input="", timeout=60,
    )
    if message is None:  # AIQ_PATH found the agent: it waits for anynt, which sends nothing
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and "Traceback" not in run.stderr


def run_example(script: Path, args: tuple[str, ...], block: str | None) -> subprocess.CompletedProcess[str]:
    """An example in this interpreter, saying on standard error whether torch
    or stable-baselines3 was imported by the time it exited; block: a
    top-level module to import as if it were not installed (CI's venv has not
    got the heavy ones; the venv of make test-examples has)."""
    code = (
        "import sys, runpy, atexit\n"
        "atexit.register(lambda: print('heavy imported:', any(m in sys.modules for m in ('torch', 'stable_baselines3')), file=sys.stderr))\n"
        "if BLOCK is not None:\n"
        "    class Block:\n"
        "        def find_spec(self, name, path=None, target=None):\n"
        "            if name.split('.')[0] == BLOCK: raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "    sys.meta_path.insert(0, Block())\n"
        "sys.argv = [SCRIPT] + ARGS\n"
        "runpy.run_path(SCRIPT, run_name='__main__')\n"
    ).replace("BLOCK", repr(block)).replace("SCRIPT", repr(str(script))).replace("ARGS", repr(list(args)))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8", timeout=600)


def run_sb3_ppo(*args: str, block_sb3: bool = False) -> subprocess.CompletedProcess[str]:
    """sb3_ppo.py; block_sb3: as if stable-baselines3 were not installed."""
    return run_example(SB3_PPO, args, "stable_baselines3" if block_sb3 else None)


def run_cleanrl_ppo(*args: str, block_torch: bool = False) -> subprocess.CompletedProcess[str]:
    """cleanrl_ppo.py; block_torch: as if torch were not installed."""
    return run_example(CLEANRL_PPO, args, "torch" if block_torch else None)


def test_sb3_ppo_help_needs_no_torch() -> None:
    """--help answers without importing torch or stable-baselines3."""
    run = run_sb3_ppo("--help")
    assert run.returncode == 0, run.stderr
    assert "--timesteps" in run.stdout and "heavy imported: False" in run.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--env-id", "anynt/Nope-v0"], "no environment 'anynt/Nope-v0': one of anynt/Omega1Blocker-v0"),
        (["--n-envs", "0"], "--n-envs must be at least 1"),
        (["--timesteps", "0"], "--timesteps must be at least 1"),
        (["--n-steps", "1", "--n-envs", "1"], "at least 2"),
        (["--steps", "0"], "--steps must be at least 1"),
        (["--eval-episodes", "x"], "invalid int value"),
    ],
)
def test_sb3_ppo_bad_arguments_before_torch(args: list[str], message: str) -> None:
    """A bad argument exits with status 2 and says why, before torch is imported."""
    run = run_sb3_ppo(*args)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and "heavy imported: False" in run.stderr and "Traceback" not in run.stderr


def test_sb3_ppo_without_stable_baselines3_says_what_to_install() -> None:
    """Without stable-baselines3 the example says how to install it (status 2)."""
    run = run_sb3_ppo("--timesteps", "64", block_sb3=True)
    assert run.returncode == 2, run.stderr
    assert "pip install './python[examples]'" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_sb3_ppo_trains_and_evaluates_on_other_seeds(tmp_path: Path) -> None:
    """The SB3 example for real, with a small budget: make_vec_env of a
    registered id (render_mode="rgb_array", seeds 1–2), PPO's learn, and
    evaluate_policy on another seed for PPO and the random baseline, both on
    the same episodes of the same length; the model is saved. Needs
    stable-baselines3 and torch (make test-examples installs them)."""
    model = tmp_path / "ppo.zip"
    run = run_sb3_ppo("--timesteps", "256", "--n-steps", "64", "--n-envs", "2", "--steps", "50",
                      "--eval-seed", "77", "--eval-episodes", "2", "--save", str(model), "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert result["timesteps"] >= 256 and result["n_envs"] == 2
    for name in ("ppo", "random"):
        assert result[name]["episode_lengths"] == [50, 50]
        assert -1 <= result[name]["reward_per_step"] <= 1
    assert model.stat().st_size > 0


def test_cleanrl_ppo_help_needs_no_torch() -> None:
    """--help answers without torch (blocked here, so in either venv)."""
    run = run_cleanrl_ppo("--help", block_torch=True)
    assert run.returncode == 0, run.stderr
    assert "--num-minibatches" in run.stdout and "--json" in run.stdout and "heavy imported: False" in run.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--env-id", "anynt/Nope-v0"], "no anynt environment 'anynt/Nope-v0': one of anynt/Omega1Blocker-v0"),
        (["--env-id", "CartPole-v1"], "no anynt environment 'CartPole-v1'"),
        (["--num-envs", "0"], f"--num-envs must be from 1 to {anynt.vector.MAX_NUM_ENVS}"),
        (["--num-envs", str(anynt.vector.MAX_NUM_ENVS + 1)], f"--num-envs must be from 1 to {anynt.vector.MAX_NUM_ENVS}"),
        (["--total-timesteps", "0"], "--total-timesteps must be at least 1"),
        (["--num-steps", "0"], "--num-steps must be at least 1"),
        (["--num-minibatches", "0"], "--num-minibatches must be at least 1"),
        (["--update-epochs", "0"], "--update-epochs must be at least 1"),
        (["--steps", "0"], "--steps must be at least 1"),
        (["--num-envs", "3", "--num-steps", "5", "--num-minibatches", "4"], "must be a multiple of --num-minibatches"),
        (["--num-envs", "4", "--num-steps", "64", "--total-timesteps", "255"], "must hold at least one rollout"),
        (["--gamma", "1.5"], "--gamma and --gae-lambda must be in [0, 1]"),
        (["--gae-lambda", "nan"], "--gamma and --gae-lambda must be in [0, 1]"),
        (["--learning-rate", "0"], "--learning-rate must be a positive number"),
        (["--learning-rate", "nan"], "--learning-rate must be a positive number"),
        (["--clip-coef", "-0.2"], "--clip-coef must be a positive number"),
        (["--max-grad-norm", "inf"], "--max-grad-norm must be a positive number"),
        (["--ent-coef", "-1"], "--ent-coef must be a number at least 0"),
        (["--vf-coef", "nan"], "--vf-coef must be a number at least 0"),
        (["--seed", "x"], "invalid int value"),
    ],
)
def test_cleanrl_ppo_bad_arguments_before_torch(args: list[str], message: str) -> None:
    """A bad argument exits with status 2 and says why, before torch is imported."""
    run = run_cleanrl_ppo(*args)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and "heavy imported: False" in run.stderr and "Traceback" not in run.stderr


def test_cleanrl_ppo_without_torch_says_what_to_install() -> None:
    """Without torch the example says how to install it (status 2), and has
    not started an environment."""
    run = run_cleanrl_ppo("--num-envs", "2", "--num-steps", "32", "--total-timesteps", "64", block_torch=True)
    assert run.returncode == 2, run.stderr
    assert "needs torch (torch is missing): pip install torch" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_cleanrl_ppo_trains_and_evaluates_reproducibly() -> None:
    """The CleanRL-style example for real, with a small budget: 2 copies in
    one serve-env, 4 rollouts of 32 steps, episodes of 20 steps; every copy
    ends 6 episodes (20 steps and the autoreset step each), which
    RecordEpisodeStatistics reports; the greedy and the random policy are
    evaluated on the same other episode streams. The same seed gives the
    same result: the text output prints what --json did. Needs torch (make
    test-examples installs it)."""
    budget = ("--num-envs", "2", "--num-steps", "32", "--total-timesteps", "256", "--steps", "20",
              "--num-minibatches", "2", "--update-epochs", "2", "--seed", "3", "--eval-seed", "77")
    run = run_cleanrl_ppo(*budget, "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert (result["env_id"], result["num_envs"], result["timesteps"], result["seed"]) == ("anynt/LambdaOneFixtureB-v0", 2, 256, 3)
    assert result["episodes"] == 12 and result["eval_seed"] == 77
    for name in ("ppo", "random"):
        assert -1 <= result[f"{name}_reward_per_step"] <= 1
    again = run_cleanrl_ppo(*budget)
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert [line.split()[1] for line in lines if line.startswith("step ")] == ["64", "128", "192", "256"]
    assert lines[-1] == (f"on episode streams 77+i: PPO {result['ppo_reward_per_step']:+.3f} a step, "
                         f"random {result['random_reward_per_step']:+.3f}")
