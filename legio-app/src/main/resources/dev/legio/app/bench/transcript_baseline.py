"""Baseline for `legio bench transcripts`: the straightforward two-pass load in Python.

Pass one reads every part and collects the tombstones; pass two reads every part again and keeps
the messages (user, assistant, system, attachment, summary) that no tombstone names, each line
parsed with the standard json module (C-accelerated). Prints `wall_seconds cpu_seconds messages`.
"""
import json
import sys
import time

MESSAGE_TYPES = {"user", "assistant", "system", "attachment", "summary"}


def load(paths):
    deleted = set()
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                if not line.endswith(b"\n"):
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("type") == "tombstone":
                    deleted.add(entry.get("deletedUuid"))
    messages = []
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                if not line.endswith(b"\n"):
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("type") in MESSAGE_TYPES and entry.get("uuid") not in deleted:
                    messages.append(entry)
    return messages


start = time.perf_counter()
cpu = time.process_time()
loaded = load(sys.argv[1:])
print(f"{time.perf_counter() - start:.6f} {time.process_time() - cpu:.6f} {len(loaded)}")
