#!/usr/bin/env python3
"""An agent that takes batches and misbehaves on purpose, for anynt's tests.

faulty_batch.py FAULT [ROUND]: accepts every batch offered and acts at
random, then at the given round (counting observes from 1; default 3)
commits FAULT: count (one action too few), range (the last slot's action
out of range), action (a single "action" in place of "actions"), crash
(exit status 3), garbage, or hang; refuse answers hello without "batch",
as an agent of anynt/1 does; many accepts more than anynt offered.
"""
import json
import random
import sys
import time


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    fault = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rng, actions, rounds = random.Random(1), {}, 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            hello = {"type": "hello", "protocol": "anynt/1", "name": "faulty-batch"}
            if fault != "refuse":
                hello["batch"] = message["batch"] + (1 if fault == "many" else 0)
            say(hello)
        elif kind == "start":
            actions[message["slot"]] = message["actions"]
        elif kind == "observe":
            rounds += 1
            acts = [rng.randrange(actions[s]) for s in message["slots"]]
            if rounds == at:
                print(f"faulty_batch.py: committing {fault} now", file=sys.stderr, flush=True)
                if fault == "hang":
                    time.sleep(3600)
                elif fault == "crash":
                    sys.exit(3)
                elif fault == "garbage":
                    sys.stdout.write("this is not JSON\n")
                    sys.stdout.flush()
                    continue
                elif fault == "count":
                    acts = acts[:-1]
                elif fault == "range":
                    acts[-1] = actions[message["slots"][-1]] + 5
                elif fault == "action":
                    say({"type": "act", "action": 0})
                    continue
            say({"type": "act", "actions": acts})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
