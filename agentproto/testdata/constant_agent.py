#!/usr/bin/env python3
"""The cheapest agent there is, for the benchmark's floor: it parses
nothing, answers hello, and stays at every observe."""
import sys

out = sys.stdout
for line in sys.stdin:
    if line.startswith('{"type":"observe"'):
        out.write('{"type":"act","action":0}\n')
        out.flush()
    elif line.startswith('{"type":"hello"'):
        out.write('{"type":"hello","protocol":"anynt/1","name":"constant"}\n')
        out.flush()
    elif line.startswith('{"type":"bye"'):
        break
