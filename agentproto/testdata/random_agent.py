#!/usr/bin/env python3
"""A random agent for anynt's agent protocol, version anynt/1.

Run it with: anynt test --agent-cmd "python3 random_agent.py"
It reads one JSON message a line on standard input and answers on
standard output (docs/protocol.md); it uses the standard library only.
"""
import json
import random
import sys


def main() -> None:
    rng = random.Random()
    actions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if not message["protocol"].startswith("anynt/1"):
                reply = {"type": "error", "message": "I speak anynt/1 only"}
            else:
                reply = {"type": "hello", "protocol": "anynt/1", "name": "random.py"}
        elif kind == "start":
            actions = message["actions"]
            rng.seed(message["seed"])  # reproducible: the same seed, the same actions
            continue
        elif kind == "observe":
            reply = {"type": "act", "action": rng.randrange(actions)}
        elif kind == "bye":
            return
        else:  # "end": nothing to answer
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()  # anynt waits for each answer


if __name__ == "__main__":
    main()
