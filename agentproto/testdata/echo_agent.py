#!/usr/bin/env python3
"""Writes every message it is sent to standard error and always stays
(action 0): the tests read what anynt sent from its standard error. Offered
batches, it takes 3 items at once (or fewer, if offered fewer)."""
import json
import sys

for line in sys.stdin:
    sys.stderr.write(line)
    sys.stderr.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        hello = {"type": "hello", "protocol": "anynt/1.4", "name": "echo", "extra": [1, 2]}
        if "batch" in message:
            hello["batch"] = min(3, message["batch"])
        print(json.dumps(hello), flush=True)
    elif kind == "observe" and "slots" in message:
        print(json.dumps({"type": "act", "actions": [0] * len(message["slots"])}), flush=True)
    elif kind == "observe":
        print(json.dumps({"type": "act", "action": 0, "comment": "unknown fields are ignored"}), flush=True)
    elif kind == "bye":
        break
