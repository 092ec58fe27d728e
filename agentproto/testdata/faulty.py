#!/usr/bin/env python3
"""An agent that misbehaves on purpose, for anynt's tests of faults.

faulty.py FAULT [EXERCISE STEP]: behaves as a random agent, then at the
given step of the given exercise (counting start messages from 1; default
1 1) commits FAULT: hang, crash, garbage, range, float, error, wrongtype,
long, twice (two acts in one write), giveup (an act and an error in one
write), or version (at the handshake).
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
    exercise, step = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (1, 1)
    rng, actions, started = random.Random(1), 0, 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            say({"type": "hello", "protocol": "anynt/2" if fault == "version" else "anynt/1", "name": "faulty"})
        elif kind == "start":
            actions, started = message["actions"], started + 1
        elif kind == "observe":
            if started == exercise and message["step"] == step:
                print(f"faulty.py: committing {fault} now", file=sys.stderr, flush=True)
                if fault == "hang":
                    time.sleep(3600)
                elif fault == "crash":
                    sys.exit(3)
                elif fault == "garbage":
                    sys.stdout.write("this is not JSON\n")
                elif fault == "range":
                    say({"type": "act", "action": actions + 5})
                elif fault == "float":
                    say({"type": "act", "action": 1.5})
                elif fault == "error":
                    say({"type": "error", "message": "out of ideas"})
                elif fault == "wrongtype":
                    say({"type": "hello", "protocol": "anynt/1"})
                elif fault == "long":
                    sys.stdout.write("x" * (2 << 20) + "\n")
                elif fault == "twice":  # one write: both lines are in the pipe at once
                    act = json.dumps({"type": "act", "action": 0}) + "\n"
                    sys.stdout.write(act + act)
                elif fault == "giveup":
                    sys.stdout.write(json.dumps({"type": "act", "action": 0}) + "\n" + json.dumps({"type": "error", "message": "enough"}) + "\n")
                sys.stdout.flush()
                continue
            say({"type": "act", "action": rng.randrange(actions)})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
