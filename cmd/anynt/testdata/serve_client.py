#!/usr/bin/env python3
"""A client of `anynt serve-env` (protocol anynt/1, docs/protocol-serve.md),
written from the protocol's documentation with the standard library only.

It makes an environment (a file, or a Λ_one exercise), resets it with a
seed, plays a fixed cycle of actions to the end of the episode and prints the
trajectory as `anynt run --trace` prints it (interaction, observation,
action, reward), the observation spelled from the alphabet of the reset
answer.

    serve_client.py --file F | --lambda-one SEED:EXERCISE [--seed S]
                    [--steps N] [--actions 2,1,0] [--bench N] [-- CMD ...]

With CMD (for example `anynt serve-env`) the client starts the server;
without, it speaks over its own standard input and output, and prints the
trajectory on standard error. --bench N plays N steps after the trajectory,
resetting at each truncation, and prints the steps a second: one step, then
its answer, as a Gymnasium loop does; with --batch K, K environments are
made and stepped together, K requests sent before their K answers are read,
as a vector of environments can be.
"""

import argparse
import json
import subprocess
import sys
import time


class Server:
    """One serve-env: a request, then its answer, in order."""

    def __init__(self, writer, reader):
        self.writer, self.reader = writer, reader

    def ask(self, request):
        return self.ask_all([request])[0]

    def ask_all(self, requests):
        """Sends the requests, then reads their answers, in order."""
        self.writer.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests))
        self.writer.flush()
        answers = []
        for _ in requests:
            line = self.reader.readline()
            if not line:
                raise SystemExit("serve-env closed its output")
            answer = json.loads(line)
            if answer["type"] == "error":
                raise SystemExit("serve-env: " + answer["message"])
            answers.append(answer)
        return answers


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--file")
    p.add_argument("--lambda-one")
    p.add_argument("--seed", type=int)
    p.add_argument("--steps", type=int)
    p.add_argument("--actions", default="0")
    p.add_argument("--bench", type=int, default=0)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("cmd", nargs="*")
    args = p.parse_args()

    out = sys.stdout
    if args.cmd:
        proc = subprocess.Popen(args.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, encoding="utf-8", bufsize=1 << 16)
        server = Server(proc.stdin, proc.stdout)
    else:
        sys.stdin.reconfigure(encoding="utf-8")
        sys.stdout.reconfigure(encoding="utf-8")
        server = Server(sys.stdout, sys.stdin)
        out = sys.stderr

    server.ask({"type": "hello", "protocol": "anynt/1"})
    make = {"type": "make"}
    if args.file:
        make["file"] = args.file
    else:
        seed, exercise = args.lambda_one.split(":")
        make["lambda_one"] = {"seed": int(seed), "exercise": int(exercise)}
    if args.steps:
        make["steps"] = args.steps
    made = server.ask(make)
    env = made["env"]
    reset = {"type": "reset", "env": env}
    if args.seed is not None:
        reset["seed"] = args.seed
    answer = server.ask(reset)
    alphabet = answer["alphabet"]
    actions = [int(a) for a in args.actions.split(",")]
    names = made["action_names"]

    out.write("interaction\tobservation\taction\treward\n")
    step = 0
    while not answer["truncated"]:
        seen = "".join(alphabet[i] for i in answer["observation"])
        action = actions[step % len(actions)]
        answer = server.ask({"type": "step", "env": env, "action": action})
        step += 1
        out.write("%d\t%s\t%s\t%+.4g\n" % (step, seen, names[action], answer["reward"]))
    out.flush()

    if args.bench:
        envs = [env] + [server.ask(make)["env"] for _ in range(args.batch - 1)]
        for e in envs[1:]:
            server.ask({"type": "reset", "env": e, "seed": args.seed or 1})
        truncated = {e: answer["truncated"] for e in envs}
        start = time.perf_counter()
        done = 0
        while done < args.bench:
            requests = []
            for k, e in enumerate(envs):
                if truncated[e]:
                    requests.append({"type": "reset", "env": e})
                else:
                    requests.append({"type": "step", "env": e, "action": actions[(done + k) % len(actions)]})
            for a in server.ask_all(requests):
                truncated[a["env"]] = a["truncated"]
            done += len(envs)
        elapsed = time.perf_counter() - start
        out.write("%d steps in %.3f s, %d environment(s) at a time: %.0f steps/s\n"
                  % (done, elapsed, len(envs), done / elapsed))

    server.ask({"type": "close", "env": env})
    if args.cmd:
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
