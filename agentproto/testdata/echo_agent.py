#!/usr/bin/env python3
"""Writes every message it is sent to standard error and always stays
(action 0): the tests read what anynt sent from its standard error."""
import json
import sys

for line in sys.stdin:
    sys.stderr.write(line)
    sys.stderr.flush()
    kind = json.loads(line)["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "protocol": "anynt/1.4", "name": "echo", "extra": [1, 2]}), flush=True)
    elif kind == "observe":
        print(json.dumps({"type": "act", "action": 0, "comment": "unknown fields are ignored"}), flush=True)
    elif kind == "bye":
        break
