#!/usr/bin/env python3
"""constant_agent.py in batches, for the batched benchmark's floor: it
accepts the batch offered, parses nothing but the number of slots, and
stays in every slot."""
import sys

out = sys.stdout
acts = {}  # the act of n slots, made once
for line in sys.stdin:
    if line.startswith('{"type":"observe"'):
        slots = line.index("[")  # the slots, listed first
        n = line.count(",", slots, line.index("]", slots)) + 1
        act = acts.get(n)
        if act is None:
            act = acts[n] = '{"type":"act","actions":[' + ",".join(["0"] * n) + "]}\n"
        out.write(act)
        out.flush()
    elif line.startswith('{"type":"hello"'):
        batch = line[line.index('"batch":') + 8 : line.rindex("}")]
        out.write('{"type":"hello","protocol":"anynt/1.1","name":"constant-batch","batch":' + batch + "}\n")
        out.flush()
    elif line.startswith('{"type":"bye"'):
        break
