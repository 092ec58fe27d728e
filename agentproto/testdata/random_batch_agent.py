#!/usr/bin/env python3
"""The random agent of random_agent.py, taking items in batches.

Run it with: anynt test --agent-cmd "python3 random_batch_agent.py" --agent-batch 16
It accepts every batch anynt offers (docs/protocol.md, Batches), keeps
each slot's random stream, seeded by the slot's start as random_agent.py
seeds its one, and answers one act for each observe: so it takes the
actions random_agent.py takes, item by item. Unbatched, it speaks
anynt/1 as random_agent.py does. Standard library only.
"""
import json
import random
import sys


def main() -> None:
    rngs: dict[int, random.Random] = {}
    actions: dict[int, int] = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": message["protocol"], "name": "random-batch.py"}
            if "batch" in message:
                reply["batch"] = message["batch"]  # every slot offered
        elif kind == "start":
            slot = message.get("slot", 0)
            actions[slot] = message["actions"]
            rngs.setdefault(slot, random.Random()).seed(message["seed"])
            continue
        elif kind == "observe":
            if "slots" in message:
                reply = {"type": "act", "actions": [rngs[s].randrange(actions[s]) for s in message["slots"]]}
            else:
                reply = {"type": "act", "action": rngs[0].randrange(actions[0])}
        elif kind == "bye":
            return
        else:  # "end": nothing to answer
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
