#!/usr/bin/env bash
# Issue 25's budget experiment: is SmolLM2-135M's failure on SemEval-2018 V-oc a budget limit or a model limit?
# SemEval V-oc (shared data), lr 1e-3, batch 8 (as the first study: only the budget changes), seeds 1001 and 1002, an
# evaluation every 100 steps on the whole validation split, checkpoints at every evaluation.
#   full_vocab:   the papers' loss and early stopping, from step 2,500, capped at 4,000 steps
#   label_tokens: our loss over the three label words alone, 1,000 steps, no early stopping
# Resumable: run it again after a kill (each run continues from its last checkpoint; a finished run is skipped).
#   bash scripts/semeval_budget.sh [FOLDER]      (default: results/smollm2-135m/semeval-budget/runs)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-results/smollm2-135m/semeval-budget/runs}
SPBIAS=${SPBIAS:-.venv/bin/spbias}
mkdir -p "$OUT"
common=(--model smollm2 --dataset semeval --seeds 1001-1002 --lr 1e-3 --batch-size 8 --eval-every 100)
run() {
  local out=$OUT/$1; shift
  if [ -f "$out/finished.json" ]; then echo "$out: finished"; return 0; fi
  if [ -d "$out" ]; then "$SPBIAS" tune "${common[@]}" "$@" --out "$out" --resume; else "$SPBIAS" tune "${common[@]}" "$@" --out "$out"; fi
}
run full_vocab --min-steps 2500 --max-steps 4000 > "$OUT/full_vocab.log" 2>&1 &
run label_tokens --loss label_tokens --no-early-stopping --max-steps 1000 > "$OUT/label_tokens.log" 2>&1 &
wait
