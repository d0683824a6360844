#!/usr/bin/env bash
# Every `matjip eval` figure, every set and split, into one text file (issue 25: the behaviour
# oracle for a refactor; compare two runs with `diff`, ignoring the lines that report milliseconds):
#   scripts/eval_all.sh before.txt ; ...change... ; scripts/eval_all.sh after.txt
#   diff <(grep -v ' ms' before.txt) <(grep -v ' ms' after.txt)
set -u
out=${1:-eval_all.txt}
M=${MATJIP:-.venv/bin/matjip}
E=src/matjip/eval
: > "$out"
run() { echo "### matjip eval $*" >> "$out"; COLUMNS=200 "$M" eval "$@" >> "$out" 2>&1; }
run relevance --split all
for f in "$E"/relevance_dev*.jsonl "$E"/relevance_test*.jsonl; do run relevance --split all --set "$f"; done
run dialogues --split all
for f in "$E"/dialogue_dev*.jsonl "$E"/dialogue_test*.jsonl; do run dialogues --split all --set "$f"; done
run strategies --split all
run reviews --split all
for f in "$E"/review_dev*.jsonl "$E"/review_test3.jsonl; do run reviews --split all --set "$f"; done
run reviews --split all --by-place --set "$E"/review_test3.jsonl
run agent
run search
