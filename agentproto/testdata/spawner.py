#!/usr/bin/env python3
"""An agent that starts processes of its own, for anynt's tests that the
agent's process group ends with it.

spawner.py PIDFILE MODE: starts `sleep 1000` at once and writes its own
process id and the sleeper's to PIDFILE, one a line; then it plays as a
stay agent (answering each observe after MODE's pause), except in MODE
garbage, where it writes garbage at step 2, and MODE bye, where it starts
another sleeper at bye, adds its id to PIDFILE, and exits. In MODE
stubborn it pauses as slow does and does not exit when its input or its
output ends (as an agent busy computing would not); it writes PIDFILE.playing
once it has answered its first observe. In MODE detach the sleeper runs in
a session of its own (setsid), out of the agent's process group, holding
the agent's input and output, and the agent exits with status 4 at its
first observe, without answering. Offered batches, it takes them,
answering a round as a step.
"""
import json
import os
import subprocess
import sys
import time


def main() -> None:
    pidfile, mode = sys.argv[1], sys.argv[2]
    sleeper = subprocess.Popen(["sleep", "1000"], start_new_session=mode == "detach")
    pids = [os.getpid(), sleeper.pid]
    with open(pidfile + ".tmp", "w") as f:
        f.write("".join(f"{p}\n" for p in pids))
    os.rename(pidfile + ".tmp", pidfile)  # whole, or not there yet
    try:
        play(pidfile, mode, pids)
    except OSError:  # its output closed
        pass
    if mode == "stubborn":
        time.sleep(1000)


def play(pidfile: str, mode: str, pids: list) -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            hello = {"type": "hello", "protocol": "anynt/1", "name": "spawner"}
            if "batch" in message:
                hello["batch"] = message["batch"]
            print(json.dumps(hello), flush=True)
        elif kind == "observe":
            if mode == "detach":
                sys.exit(4)
            if mode == "garbage":
                print("garbage", flush=True)
                continue
            if mode in ("slow", "stubborn"):
                time.sleep(0.01)
            if "slots" in message:
                print(json.dumps({"type": "act", "actions": [0] * len(message["slots"])}), flush=True)
            else:
                print(json.dumps({"type": "act", "action": 0}), flush=True)
            if mode == "stubborn" and not os.path.exists(pidfile + ".playing"):
                open(pidfile + ".playing", "w").close()
        elif kind == "bye":
            pids.append(subprocess.Popen(["sleep", "1000"]).pid)
            with open(pidfile + ".tmp", "w") as f:
                f.write("".join(f"{p}\n" for p in pids))
            os.rename(pidfile + ".tmp", pidfile)
            return


if __name__ == "__main__":
    main()
