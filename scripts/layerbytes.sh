#!/usr/bin/env bash
# Prints what the layer files of a frontier count's checkpoint take on
# disk: for each file, its key order and coding (rice, or varints), the
# states its groups hold and the bytes a state; then the layer's and, for
# a checkpoint written between the passes of a square, the passes' so far.
# It reads the checkpoint's records only, not the files, so it can watch a
# count of hours as it runs, and tell how near its disk is to full.
#
#   scripts/layerbytes.sh /work/long/h/8x12-free/ckpt
set -euo pipefail
ckpt=${1:?usage: scripts/layerbytes.sh CHECKPOINT}
python3 - "$ckpt" <<'EOF'
import json, sys

data = open(sys.argv[1], encoding="utf-8").read()
body = data[: data.rindex("\ncrc32c ")]
m = json.loads(body)
stride = m["limbs"] + 1


def show(title, files, groups):
    # A group's record is [file, offset, words, bytes on disk].
    states = {}
    for g in groups:
        states[g[0]] = states.get(g[0], 0) + g[2] // stride
    print(f"{title}:")
    total_states = total_bytes = 0
    for i, f in enumerate(files):
        n = states.get(i, 0)
        total_states += n
        total_bytes += f["size"]
        per = f"{f['size'] / n:.2f}" if n else "-"
        print(f"  {f['name']}: {f.get('order', '')} {f.get('coding') or 'varints'}, "
              f"{n:,} states, {f['size']:,} bytes, {per} bytes a state")
    if total_states:
        print(f"  in all: {total_states:,} states, {total_bytes / 1e9:.2f} GB, "
              f"{total_bytes / total_states:.2f} bytes a state")


show(f"the layer after square {m['squares']}", m["files"], m.get("groups") or [])
step = m.get("step")
if step:
    show(f"square {step['square'] + 1} so far, its passes done: {step['passes']}", step.get("files") or [], step.get("groups") or [])
EOF
