#!/usr/bin/env bash
# The accelerator study of issue 37 in one command, each part resumable (a finished part is skipped on a rerun):
#   1 doctor   spbias doctor --accel ACCEL                 -> benchmarks/results/gpu-doctor.txt
#   2 bench    python benchmarks/gpu.py                    -> benchmarks/results/gpu.json
#   3 sweep    spbias sweep sweeps/smollm2-papers.yaml     -> papermill_runs/smollm2-papers/main/... (SST-5, SemEval; --grid
#              one-run: the rate grid and the 15 seeds in one run per set; staged: also lr/, the rate stage)
#   4 publish  spbias gaps / table2 / export, then the page -> results/smollm2-135m-papers/
# It prints the device time each part took and what is left of --budget-s. A part that cannot start with its minimum
# time left is skipped with a message; the sweep runs under a deadline that leaves the publication its time, and is
# stopped there (SIGINT, then SIGKILL 30 s later) so that a rerun resumes it (finished runs are kept, an unfinished one
# continues from its last checkpoint).
#
# Before the sweep, a cost model (spbias.sweeps.gpu_study: the FLOPs of each part over the throughput bench measured on this
# device, plus its measured load and compile seconds) prints each part's predicted device time; the sweep is not
# started when its first part is predicted over what is left (it waits for the next machine). With --pack DIR every
# invocation ends by packing its whole folder into DIR (at most 8 files of at most 16 MiB: what a lent machine brings
# back); --resume-from DIR reads such a pack back first, so the next machine continues where this one stopped.
#
#   bash scripts/gpu_study.sh [--budget-s S] [--out DIR] [--accel cuda|tpu|cpu] [--parts LIST] [--tiny]
#                             [--grid one-run|staged] [--dtype float32|bfloat16] [--pack DIR] [--resume-from DIR]
#
#   --budget-s S  stop cleanly before S seconds from the start (default: no limit)
#   --out DIR     write everything under DIR (DIR/benchmarks/results, DIR/papermill_runs, DIR/results) instead of the repository
#   --accel A     the accelerator doctor checks and JAX runs on (default: cuda; --tiny: cpu)
#   --parts LIST  run only these parts, comma-separated (default: doctor,bench,sweep,publish; publish needs the sweep done)
#   --grid G      one-run (default: every rate and seed in one compiled run per tuning set, `lr: grid-in-one-run`;
#                 each run chooses its rate from seeds 1001-1002 and keeps that rate's 15 prompts) or staged (a 3-rate
#                 stage of seeds 1001-1002 in a run per rate, then 15 seeds at the chosen rate)
#   --dtype D     the model dtype the sweep tunes in (default float32)
#   --pack DIR    at the end, pack everything under --out into DIR (a folder outside --out)
#   --resume-from DIR  first unpack a pack written by --pack into --out (use the same --out path on every machine)
#   --tiny        the whole chain on a CPU in minutes: a tiny random LLaMA (spbias.testing.tiny_checkpoint, the tuning
#                 notebook's model "tiny"), the demo set, 2 seeds, a few steps, a small bias set (needs --out, and torch:
#                 the tiny model is built with transformers, as the tests build it)
# PLAN=off leaves the cost model's gate out (the sweep then runs under the deadline alone).
# Exit status: 0 every part done; 3 stopped at the budget (rerun to go on); 1 a part failed; 2 bad arguments.
# SPBIAS and PYTHON name the commands to use (default: spbias and python on PATH); MIN_DOCTOR, MIN_BENCH, MIN_SWEEP and
# MIN_PUBLISH the seconds a part needs to be started (default 30, 240, 120, 120; the sweep stops MIN_PUBLISH before the end).
set -uo pipefail
START=$(date +%s)   # the budget counts from here
cd "$(dirname "$0")/.."
ROOT=$PWD
SPBIAS=${SPBIAS:-spbias}
PYTHON=${PYTHON:-python}
BUDGET="" OUT="" ACCEL="" TINY=0 PARTS=doctor,bench,sweep,publish GRID=one-run DTYPE=float32 PACK="" FROM=""
die() { echo "gpu_study: error: $1 Fix: $2" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --budget-s) [ $# -ge 2 ] || die "--budget-s needs a value." "pass --budget-s SECONDS."; BUDGET=$2; shift 2;;
    --out) [ $# -ge 2 ] || die "--out needs a value." "pass --out DIR."; OUT=$2; shift 2;;
    --accel) [ $# -ge 2 ] || die "--accel needs a value." "pass --accel cuda, tpu or cpu."; ACCEL=$2; shift 2;;
    --parts) [ $# -ge 2 ] || die "--parts needs a value." "pass e.g. --parts doctor,bench."; PARTS=$2; shift 2;;
    --grid) [ $# -ge 2 ] || die "--grid needs a value." "pass --grid staged or --grid one-run."; GRID=$2; shift 2;;
    --dtype) [ $# -ge 2 ] || die "--dtype needs a value." "pass --dtype float32 or bfloat16."; DTYPE=$2; shift 2;;
    --pack) [ $# -ge 2 ] || die "--pack needs a value." "pass --pack DIR."; PACK=$2; shift 2;;
    --resume-from) [ $# -ge 2 ] || die "--resume-from needs a value." "pass --resume-from DIR."; FROM=$2; shift 2;;
    --tiny) TINY=1; shift;;
    -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    *) die "unknown argument '$1'." "see bash scripts/gpu_study.sh --help.";;
  esac
done
[[ -z "$BUDGET" || "$BUDGET" =~ ^[0-9]+$ ]] || die "--budget-s '$BUDGET' is not a whole number of seconds." "pass e.g. --budget-s 1500."
for p in ${PARTS//,/ }; do [[ "$p" =~ ^(doctor|bench|sweep|publish)$ ]] || die "--parts: unknown part '$p'." "choose among doctor, bench, sweep, publish."; done
[[ "$GRID" =~ ^(staged|one-run)$ ]] || die "--grid must be staged or one-run, not '$GRID'." "pass one of them."
[[ "$DTYPE" =~ ^(float32|bfloat16)$ ]] || die "--dtype must be float32 or bfloat16, not '$DTYPE'." "pass one of them."
[ -z "$FROM" ] || [ -f "$FROM/pack.json" ] || die "--resume-from $FROM holds no pack.json." "pass the folder --pack wrote."
[ -z "$PACK" ] || [ -n "$OUT" ] || die "--pack packs the --out folder." "pass --out DIR with --pack."
[ "$TINY" = 1 ] && [ -z "$OUT" ] && die "--tiny writes a test chain, not the study." "pass --out DIR with --tiny."
ACCEL=${ACCEL:-$([ "$TINY" = 1 ] && echo cpu || echo cuda)}
if [ "$TINY" = 1 ] && ! "$PYTHON" -c "import importlib.util as u, sys; sys.exit(u.find_spec('torch') is None)" 2>/dev/null; then
  die "--tiny builds its random model with torch and transformers (as the tests do), and torch is not installed." "install the dev requirements (make install), or run the study without --tiny."
fi
[[ "$ACCEL" =~ ^(cuda|tpu|cpu)$ ]] || die "--accel must be cuda, tpu or cpu, not '$ACCEL'." "pass one of them."
if [ -n "$OUT" ]; then mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); BASE=$OUT; else BASE=$ROOT; fi

BENCH_DIR=$BASE/benchmarks/results
SWEEP_OUT=$BASE/papermill_runs/smollm2-papers
PUB=$BASE/results/smollm2-135m-papers
STATE=$BASE/papermill_runs/gpu_study        # part markers, logs and timings (git-ignored in the repository)
if [ -n "$FROM" ]; then  # what an earlier machine packed: read back before anything runs
  "$PYTHON" -m spbias.sweeps.gpu_study unpack "$FROM" "$BASE" || exit 1
fi
mkdir -p "$BENCH_DIR" "$STATE"
# minimum seconds each part needs to be worth starting
if [ "$TINY" = 1 ]; then
  MIN_doctor=10 MIN_bench=20 MIN_sweep=20 MIN_publish=15
  BENCH_ARGS="--tiny --steps 2 --prompts 1,2 --batch-size 4 --texts 200 --warmup 2 --min-seconds 0.2 --dtypes $DTYPE"
  PLAN_ARGS="--sets demo --steps 4 --rates 2 --seeds 2 --bias-sentences 200"
  SWEEP_FILE=$STATE/smollm2-papers-tiny.yaml
  "$PYTHON" - "$ROOT/sweeps/smollm2-papers.yaml" "$SWEEP_FILE" "$GRID" "$DTYPE" <<'EOF' || exit 1
# the papers' sweep file at a test's size: the same two stages, a tiny random model, the demo set, 2 seeds, 4 steps
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
d.update(name="smollm2-papers-tiny", models=["tiny"], datasets=["demo"])
d["params"].update(batch_size=4, min_steps=0, max_steps=4, eval_every=2, checkpoint_every=2, eval_rows_per_class=8, buckets=[16, 32])
d["stages"]["lr"].update(lr=[1.0e-2, 1.0e-3])
d["stages"]["main"].update(seeds="1001-1002", seeds_per_run=2)
d["stages"]["main"]["params"].update(bias_sets=["ours:age,gender"], bias_templates_per_label=1, bias_terms_per_group=1, score_top_k=2)
d["params"]["dtype"] = sys.argv[4]
if sys.argv[3] == "one-run":  # the rate grid as a prompt axis (issue 43, item 1): one stage, a run per set
    main = d["stages"].pop("main"); grid = d["stages"].pop("lr")["lr"]
    d["stages"] = {"main": dict(main, lr="grid-in-one-run", lr_grid=grid)}
open(sys.argv[2], "w").write(yaml.safe_dump(d, sort_keys=False))
EOF
else
  # a lent machine runs one command for at most 10 minutes: every part must fit a --budget-s of about 540 s
  MIN_doctor=${MIN_DOCTOR:-30} MIN_bench=${MIN_BENCH:-240} MIN_sweep=${MIN_SWEEP:-120} MIN_publish=${MIN_PUBLISH:-120}
  BENCH_ARGS="--dtypes $DTYPE"
  PLAN_ARGS=""
  SWEEP_FILE=$STATE/smollm2-papers.yaml   # the papers' sweep, the follow-up's sets (NS-Prompts, Regard) scored too
  "$PYTHON" - "$ROOT/sweeps/smollm2-papers.yaml" "$SWEEP_FILE" "$GRID" "$DTYPE" "$STATE" <<'EOF' || exit 1
import os, subprocess, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
d["params"]["dtype"] = sys.argv[4]
for which in ("ns-prompts", "regard"):  # the follow-up's sets, as TSVs the run notebook scores
    f = os.path.join(sys.argv[5], f"{which}.tsv")
    if not os.path.exists(f): subprocess.run([os.environ.get("SPBIAS", "spbias"), "templates", which, "--out", f], check=True)
    d["stages"]["main"]["params"]["bias_sets"].append(f)
if sys.argv[3] == "one-run":  # the rate grid as a prompt axis (issue 43, item 1): one stage, a run per set
    main = d["stages"].pop("main"); grid = d["stages"].pop("lr")["lr"]
    d["stages"] = {"main": dict(main, lr="grid-in-one-run", lr_grid=grid)}
open(sys.argv[2], "w").write(yaml.safe_dump(d, sort_keys=False))
EOF
fi

left() { if [ -z "$BUDGET" ]; then echo 999999999; else echo $(( BUDGET - ($(date +%s) - START) )); fi; }
left_text() { if [ -z "$BUDGET" ]; then echo "no budget set"; else echo "$(left) s of the ${BUDGET} s budget left"; fi; }
STOPPED=0 FAILED=0 UNSELECTED=0
# run_part NAME NEED_S RESERVE_S: skip when done; skip when NEED_S is not left after RESERVE_S (what later parts need);
# else run the function NAME (under a deadline of what is left less RESERVE_S, when there is a budget) and time it
run_part() {
  local name=$1 need=$2 reserve=$3 avail
  if [ -f "$STATE/$name.done" ]; then echo "== $name: done before ($(cat "$STATE/$name.done") s), skipped"; return 0; fi
  if [[ ",$PARTS," != *",$name,"* ]]; then echo "== $name: not selected (--parts $PARTS)"; UNSELECTED=1; return 0; fi
  if [ "$name" = publish ] && [ ! -f "$STATE/sweep.done" ]; then echo "== publish: not started: the sweep is not finished"; STOPPED=1; return 0; fi
  if [ "$FAILED" = 1 ] || [ "$STOPPED" = 1 ]; then echo "== $name: not started (an earlier part did not finish)"; return 0; fi
  avail=$(( $(left) - reserve ))
  if [ "$avail" -lt "$need" ]; then
    echo "== $name: skipped: it needs at least $need s$([ "$reserve" -gt 0 ] && echo " (and $reserve s kept for the parts after it)") and $(left_text); rerun with more budget"
    STOPPED=1; return 0
  fi
  if [ "$name" = sweep ] && [ "${PLAN:-on}" != off ]; then  # the cost model: predicted device time of what is left
    "$PYTHON" -m spbias.sweeps.gpu_study plan --bench "$BENCH_DIR/gpu.json" --dtype "$DTYPE" --budget-s "$avail" $PLAN_ARGS \
      --out "$STATE/plan.json" 2>&1 | tee -a "$STATE/plan.log"
    local prc=${PIPESTATUS[0]}
    if [ "$prc" = 3 ]; then echo "== sweep: not started: its first part is predicted over the $avail s left; rerun on the next machine"; STOPPED=1; return 0; fi
    if [ "$prc" != 0 ]; then echo "== sweep: the cost model failed (exit $prc)"; FAILED=1; return 0; fi
  fi
  echo "== $name: starting ($(left_text))"
  local t0 rc; t0=$(date +%s)
  if [ -n "$BUDGET" ]; then timeout -s INT -k 30 "$avail" bash -c "$name"; rc=$?; else bash -c "$name"; rc=$?; fi
  local took=$(( $(date +%s) - t0 ))
  echo "{\"part\": \"$name\", \"seconds\": $took, \"exit\": $rc, \"ended\": \"$(date -u +%FT%TZ)\"}" >> "$STATE/timings.jsonl"
  if [ "$rc" = 0 ]; then echo "$took" > "$STATE/$name.done"; echo "== $name: done in $took s ($(left_text))"
  elif [ -n "$BUDGET" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
    echo "== $name: stopped at the budget after $took s; rerun to resume it ($(left_text))"; STOPPED=1
  else echo "== $name: FAILED (exit $rc) after $took s; its log: $STATE/$name.log ($(left_text))"; FAILED=1; fi
}

# the parts: functions run by run_part in a child bash (exported), each logging to $STATE/<part>.log
doctor() {  # a problem doctor finds stops the study (its sweep needs the data, the model and the device); --tiny needs none of them
  SPBIAS_ACCEL=$ACCEL "$SPBIAS" doctor --accel "$ACCEL" 2>&1 | tee -i "$BENCH_DIR/gpu-doctor.txt" "$STATE/doctor.log" && return 0
  [ "$TINY" = 1 ] && { echo "note: doctor found problems (above); --tiny uses the demo set and a tiny model, so it goes on"; return 0; }
  return 1
}
bench() {
  local args=$BENCH_ARGS
  if ! "$PYTHON" -c "import torch, peft" 2>/dev/null; then
    echo "note: torch/peft are not installed: benchmarks/gpu.py runs with --no-peft (no PEFT comparison; make wheelhouse BENCH=1 carries them)"
    args="$args --no-peft"
  fi
  "$PYTHON" benchmarks/gpu.py $args --out "$BENCH_DIR/gpu.json" 2>&1 | tee -i "$STATE/bench.log"
}
sweep() { "$SPBIAS" sweep "$SWEEP_FILE" --out "$SWEEP_OUT" --quiet 2>&1 | tee -i -a "$STATE/sweep.log"; }
publish() { publish_steps 2>&1 | tee -i -a "$STATE/publish.log"; }
publish_steps() {
  local main=$SWEEP_OUT/main t=$PUB/tables runs d
  mkdir -p "$t" "$PUB/adapters"
  runs=$("$PYTHON" -m spbias.sweeps.gpu_study kept "$main") || return 1   # one-run: each run's chosen rate's folder
  [ -n "$runs" ] || { echo "no finished run under $main"; return 1; }
  # gaps under the papers' comparison method (Student t 95% CI over the top 5 prompts, no adjustment: --ci t --adjust none, since
  # spbias gaps' default is now the crossed interval)
  [ -f "$t/gaps_t.csv" ] || "$SPBIAS" gaps $(for r in $runs; do echo "$r/predictions"; done) --ci t --adjust none --out "$t/gaps_t.csv" || return 1
  [ -f "$t/table2_t.csv" ] || "$SPBIAS" table2 "$t/gaps_t.csv" --out "$t/table2_t.csv" || return 1
  [ -f "$t/table2_t_wide.csv" ] || "$SPBIAS" table2 "$t/gaps_t.csv" --wide --out "$t/table2_t_wide.csv" || return 1
  for r in $runs; do  # the top-5 prompts of each tuning set as PEFT adapters
    d=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["run"]["dataset"])' "$r/config.json") || return 1
    [ -d "$PUB/adapters/$d" ] || "$SPBIAS" export --run "$r" --top-k 5 --out "$PUB/adapters/$d" || return 1
  done
  # the page reads either layout: one run per set (its rate folders and the kept one) or the staged lr/ and main/
  "$PYTHON" scripts/papers_study_page.py --sweep "$SWEEP_OUT" --sweep-file "$SWEEP_FILE" --out "$PUB" \
    --cpu-study "$ROOT/results/smollm2-135m" --bench "$BENCH_DIR/gpu.json" --timings "$STATE/timings.jsonl" $([ "$TINY" = 1 ] && echo --tiny)
}
export -f doctor bench sweep publish publish_steps
export SPBIAS PYTHON ACCEL BENCH_DIR STATE SWEEP_OUT SWEEP_FILE PUB ROOT TINY BENCH_ARGS DTYPE
export SHELLOPTS  # pipefail in the parts' shells: a part's exit is its command's, not tee's

echo "gpu_study: accel $ACCEL, sweep $SWEEP_FILE, writing under $BASE ($(left_text))"
run_part doctor "$MIN_doctor" 0
run_part bench "$MIN_bench" 0
run_part sweep "$MIN_sweep" "$MIN_publish"   # the sweep stops in time to leave the publication its minimum
run_part publish "$MIN_publish" 0
if [ -f "$STATE/timings.jsonl" ]; then
  echo "device time by part, seconds (this and earlier invocations of gpu_study.sh on $BASE):"
  sed -E 's/.*"part": "([a-z]+)", "seconds": ([0-9]+).*/\1 \2/' "$STATE/timings.jsonl" |
    awk '{s[$1] += $2; n[$1]++; if (!($1 in o)) o[$1] = ++k} END {for (p in o) r[o[p]] = p; for (i = 1; i <= k; i++) printf "  %-8s %6d s in %d invocation(s)\n", r[i], s[r[i]], n[r[i]]}'
fi
echo "gpu_study: $(left_text)"
if [ -n "$PACK" ]; then  # what comes back from a lent machine: at most 8 files of at most 16 MiB
  "$PYTHON" -m spbias.sweeps.gpu_study pack "$BASE" "$PACK" || FAILED=1
fi
[ "$FAILED" = 1 ] && exit 1
[ "$STOPPED" = 1 ] && { echo "gpu_study: stopped before the budget ran out; rerun the same command to go on"; exit 3; }
[ "$UNSELECTED" = 1 ] && { echo "gpu_study: the selected parts are done ($PARTS)"; exit 0; }
echo "gpu_study: every part done"
exit 0
