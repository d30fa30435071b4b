"""Does bfloat16 hold? The same short SmolLM2 runs tuned in float32 and in bfloat16 on this CPU, compared on validation
accuracy and on the group gaps of a small bias set, each difference set against the seed-to-seed spread.

Both runs: `spbias.tuning.tune.tune` (the code `spbias tune` runs) on SST-5 (3 classes, shared data), the same seeds, lr 1e-2,
batch 8, a fixed number of steps without early stopping, evaluated every `--eval-every` steps on a stratified sample of
the validation split (the same sample for both dtypes), each seed keeping its best evaluation. Then every seed's kept
prompt scores a small bias set (our templates, age and gender, the first term of each group in `--templates` templates
per attribute: `spbias predict`), and `spbias gaps --top-k 0 --per-run` gives each prompt's gaps.

The rule (issue 43, item 3): bfloat16 holds when the difference of the mean validation accuracy (bfloat16 minus float32)
is within one seed-to-seed standard deviation (float32's, over the seeds), and so is the mean difference of each gap
(the per-prompt gaps averaged over seeds, per category, group and metric) measured against that gap's own float32 SD.

    nice -n 10 python benchmarks/bf16.py                 # resumable: a finished dtype run is kept; rerun to go on
    python benchmarks/bf16.py --tiny --out /tmp/b.json   # the same chain on a random tiny LLaMA and the demo set

Work goes to --work (default papermill_runs/bf16, git-ignored); the result to benchmarks/results/bf16.json.
"""
from __future__ import annotations
import argparse, json, os, platform, subprocess, sys, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import numpy as np
import pandas as pd

DTYPES = ("float32", "bfloat16")


def sample_table(table:pd.DataFrame, val_per_class:int, test_per_class:int, seed:int=0)->pd.DataFrame:
    "The tuning table with its validation and test splits cut to a stratified random sample (train kept whole)."
    parts = [table[table.split == "train"]]
    for split, k in (("validation", val_per_class), ("test", test_per_class)):
        s = table[table.split == split]
        parts.append(s.sample(frac=1.0, random_state=seed).groupby("label").head(k).sort_index())
    out = pd.concat(parts).reset_index(drop=True)
    out.attrs = dict(table.attrs)
    return out


def small_bias_set(full:Path, out:Path, templates:int, seed:int=0)->int:
    "Keep `templates` templates per category and the first term of each group in them; rows written."
    t = pd.read_csv(full, sep="\t")
    keep = []
    for _, c in t.groupby("category"):
        ids = c.template_id.drop_duplicates().sample(frac=1.0, random_state=seed).head(templates)
        keep.append(c[c.template_id.isin(ids)].groupby(["template_id", "group"]).head(1))
    s = pd.concat(keep)
    s.to_csv(out, sep="\t", index=False)
    return len(s)


def spread_check(f32:np.ndarray, b16:np.ndarray)->dict:
    "Mean of each, their difference (b16 − f32), float32's seed-to-seed SD (ddof 1), and whether |diff| ≤ SD."
    d, sd = float(np.mean(b16) - np.mean(f32)), float(np.std(f32, ddof=1))
    return dict(float32_mean=float(np.mean(f32)), bfloat16_mean=float(np.mean(b16)), diff=d, float32_sd=sd,
                paired_diffs=[float(x) for x in np.asarray(b16) - np.asarray(f32)], within_spread=bool(abs(d) <= sd))


def run(cmd:list[str]):
    "Run a spbias command, failing loudly."
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode: sys.exit(f"bf16.py: {' '.join(cmd)} failed (exit {r.returncode}):\n{r.stderr[-2000:]}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tiny", action="store_true", help="a random tiny LLaMA and the demo set (checks the chain in seconds)")
    p.add_argument("--seeds", default="1001-1003", help="seeds tuned in each dtype")
    p.add_argument("--steps", type=int, default=30, help="training steps (no early stopping)")
    p.add_argument("--eval-every", type=int, default=15, help="evaluate on the validation sample every k steps")
    p.add_argument("--batch-size", type=int, default=8, help="training examples per seed and step")
    p.add_argument("--lr", type=float, default=1e-2, help="AdamW learning rate")
    p.add_argument("--val-per-class", type=int, default=60, help="validation sentences per class in the sample")
    p.add_argument("--test-per-class", type=int, default=10, help="test sentences per class (scored at the end)")
    p.add_argument("--templates", type=int, default=15, help="bias-set templates per attribute")
    p.add_argument("--dtypes", default=",".join(DTYPES),
                   help="tune only these (e.g. one per process, in parallel); the comparison is written once both are done")
    p.add_argument("--work", default=str(ROOT/"papermill_runs"/"bf16"), help="folder of the runs (resumable)")
    p.add_argument("--out", default=str(ROOT/"benchmarks"/"results"/"bf16.json"), help="JSON result")
    p.add_argument("--partial", action="store_true",
                   help="write what the unfinished runs have so far: each seed's validation accuracy at the evaluations "
                        "both dtypes reached (metrics.jsonl), marked partial; nothing is tuned")
    a = p.parse_args(argv)
    if a.partial: return partial(a)
    import jax
    from spbias.core import atomic_write_json, parse_seeds
    from spbias.tuning.data import load_sentiment
    from spbias.models.pretrained import load_model
    from spbias.tuning.tune import TuneConfig, tune
    work = Path(a.work); work.mkdir(parents=True, exist_ok=True)
    spbias = [str(Path(sys.executable).parent/"spbias")]
    if a.tiny:
        from spbias.testing import tiny_checkpoint
        model, dataset = str(tiny_checkpoint(work/"tiny-model", "llama")), "demo"
    else: model, dataset = "smollm2", "sst5"
    table = load_sentiment(dataset)
    table = sample_table(table, a.val_per_class, a.test_per_class)
    bias_full, bias = work/"ours-age-gender-full.tsv", work/"ours-age-gender.tsv"
    if not bias.exists():
        if not bias_full.exists(): run(spbias + ["templates", "ours", "--attributes", "age,gender", "--out", str(bias_full)])
        small_bias_set(bias_full, bias, a.templates)
    seeds = parse_seeds(a.seeds)
    res = dict(model=model, dataset=f"{dataset} (validation sample {a.val_per_class}/class, test {a.test_per_class}/class)",
               seeds=list(seeds), steps=a.steps, batch_size=a.batch_size, lr=a.lr, eval_every=a.eval_every,
               bias_set=f"ours age+gender, {a.templates} templates per attribute, first term per group "
                        f"({len(pd.read_csv(bias, sep=chr(9)))} sentences)",
               machine=dict(backend=jax.default_backend(), cpu_count=os.cpu_count(), python=platform.python_version(),
                            jax=jax.__version__, load_average_at_start=os.getloadavg(),
                            matmul_precision=str(jax.config.jax_default_matmul_precision)),
               runs={})
    per_seed, gaps = {}, {}
    for dtype in a.dtypes.split(","):
        out = work/dtype
        cfg = TuneConfig(model=model, dataset=dataset, seeds=seeds, lr=a.lr, batch_size=a.batch_size, max_steps=a.steps,
                         min_steps=a.steps, early_stopping=False, eval_every=a.eval_every, dtype=dtype, out=str(out),
                         resume=(out/"checkpoints").exists() or (out/"finished.json").exists())
        t0 = time.perf_counter()
        tune(cfg, model=load_model(model, dtype) if not (out/"finished.json").exists() else None, table=table)
        wall = time.perf_counter() - t0
        summ = {s: json.loads((out/f"seed-{s}"/"summary.json").read_text()) for s in seeds}
        preds = work/f"predictions-{dtype}.tsv"
        if not preds.exists(): run(spbias + ["predict", "--run", str(out), "--testset", str(bias), "--out", str(preds)])
        per_run = work/f"gaps-per-run-{dtype}.csv"
        if not per_run.exists():
            run(spbias + ["gaps", str(preds), "--top-k", "0", "--out", str(work/f"gaps-{dtype}.csv"), "--per-run", str(per_run)])
        per_seed[dtype] = [summ[s]["validation_accuracy"] for s in seeds]
        gaps[dtype] = pd.read_csv(per_run)
        res["runs"][dtype] = dict(wall_s_this_invocation=round(wall, 1),
                                  validation_accuracy=per_seed[dtype], test_accuracy=[summ[s]["test_accuracy"] for s in seeds],
                                  best_step=[summ[s]["best_step"] for s in seeds])
    if set(per_seed) != set(DTYPES):
        print(f"tuned {', '.join(per_seed)}; rerun with --dtypes {','.join(DTYPES)} for the comparison"); return
    res["validation_accuracy"] = spread_check(np.array(per_seed["float32"]), np.array(per_seed["bfloat16"]))
    res["gaps"] = gap_comparison(gaps["float32"], gaps["bfloat16"])
    res["holds"] = bool(res["validation_accuracy"]["within_spread"] and res["gaps"]["share_within_spread"] == 1.0)
    atomic_write_json(Path(a.out), res)
    print(json.dumps({k: res[k] for k in ("validation_accuracy", "holds")}, indent=1))
    print(f"gaps: {res['gaps']['n_within_spread']} of {res['gaps']['n_gaps']} within float32's seed SD; wrote {a.out}")


def partial(a):
    "The comparison so far from the runs' metrics.jsonl: validation accuracy at each evaluation both dtypes reached."
    from spbias.core import atomic_write_json, parse_seeds
    work, seeds = Path(a.work), parse_seeds(a.seeds)
    read = lambda d, s: {r["step"]: r for r in map(json.loads, (work/d/f"seed-{s}"/"metrics.jsonl").read_text().splitlines())}
    try: m = {d: {s: read(d, s) for s in seeds} for d in DTYPES}
    except FileNotFoundError as e: sys.exit(f"bf16.py: error: {e.filename} is missing: no evaluation yet. Fix: wait for one.")
    steps = sorted(set.intersection(*(set(m[d][s]) for d in DTYPES for s in seeds)))
    res = dict(status="partial: the runs were stopped before their end; validation accuracy at the evaluations both "
                      "dtypes reached (no kept prompt, no test split, no bias set yet)",
               seeds=list(seeds), steps=a.steps, batch_size=a.batch_size, lr=a.lr, eval_every=a.eval_every,
               dataset=f"sst5 (validation sample {a.val_per_class}/class)", model="smollm2",
               machine=dict(cpu_count=os.cpu_count(), load_average_at_report=os.getloadavg()), at_step={})
    for k in steps:
        acc = {d: np.array([m[d][s][k]["eval_accuracy"] for s in seeds]) for d in DTYPES}
        loss = {d: np.array([m[d][s][k]["eval_loss"] for s in seeds]) for d in DTYPES}
        res["at_step"][str(k)] = dict(validation_accuracy=spread_check(acc["float32"], acc["bfloat16"]),
                                      validation_loss=spread_check(loss["float32"], loss["bfloat16"]))
    atomic_write_json(Path(a.out), res)
    print(json.dumps(res["at_step"], indent=1)); print(f"wrote {a.out}")


def gap_comparison(f32:pd.DataFrame, b16:pd.DataFrame)->dict:
    "Per (category, group, metric): mean per-prompt gap in each dtype, their difference and float32's SD over prompts."
    key = [c for c in ("category", "group", "metric") if c in f32.columns]
    val = "gap" if "gap" in f32.columns else [c for c in f32.columns if c.endswith("gap")][0]
    g32 = f32.groupby(key)[val].agg(["mean", "std", "count"])
    g16 = b16.groupby(key)[val].agg(["mean", "count"])
    j = g32.join(g16.add_suffix("_b16")).dropna()
    j["diff"] = j["mean_b16"] - j["mean"]
    j["within"] = j["diff"].abs() <= j["std"]
    rows = [dict(zip(key, k if isinstance(k, tuple) else (k,)), float32_mean=r["mean"], bfloat16_mean=r["mean_b16"],
                 diff=r["diff"], float32_sd=r["std"], n=int(r["count"]), within_spread=bool(r["within"]))
            for k, r in j.iterrows()]
    return dict(n_gaps=len(j), n_within_spread=int(j.within.sum()), share_within_spread=float(j.within.mean()) if len(j) else None,
                median_abs_diff=float(j["diff"].abs().median()), median_float32_sd=float(j["std"].median()), rows=rows)


if __name__ == "__main__":
    main()
