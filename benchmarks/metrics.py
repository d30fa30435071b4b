"""Time the bias-set generator and the gap statistics; write benchmarks/results/metrics.json.

1. All eight Czarnowska suites generated from the shared templates and lexicons (target < 10 s).
2. Gaps over 10 runs x ~32k predictions (the Czarnowska suites scored 10 times with synthetic
   predictions), from TSV files to the gap table (target < 10 s); fairlearn's MetricFrame computing the
   same per-group rates is timed beside it as a reference.

Run: python benchmarks/metrics.py [--repeats 3]
"""
from __future__ import annotations
import argparse, platform, statistics, sys, tempfile, time
from functools import partial
from pathlib import Path
import numpy as np, pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, whether or not spbias is installed
import spbias
from spbias.core import shared_data_dir, atomic_write_json, repo_root
from spbias.biassets.templates import generate
from spbias.stats.metrics import load_predictions, gap_table, group_metrics, CLASS_NAMES


def timed(fn, repeats):
    "Seconds of each call and the last result."
    secs, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter(); out = fn(); secs.append(time.perf_counter() - t0)
    return secs, out


def synthetic_predictions(bias: pd.DataFrame, n_runs: int, folder: Path) -> list[Path]:
    "One TSV per run: the bias set scored by a noisy 'model' (70% right), with seed and validation accuracy."
    rng = np.random.default_rng(0); paths = []
    for r in range(n_runs):
        y = bias.label.to_numpy()
        pred = np.where(rng.random(len(y)) < 0.7, y, rng.integers(0, 3, len(y)))
        df = pd.DataFrame({"y_true": y, "y_pred": pred, "category": bias.category, "group": bias.group, "text": bias.text,
                           "model": "synthetic-125m", "run_id": "sst5-lr1e-3-n8", "dataset": "sst5", "seed": 1001 + r,
                           "validation_accuracy": rng.uniform(0.6, 0.8)})
        p = folder/f"run{r}.tsv"; df.to_csv(p, sep="\t", index=False); paths.append(p)
    return paths


def fairlearn_rates(preds: pd.DataFrame):
    "Accuracy and one-vs-rest FPR/TPR per run, category and group with fairlearn's MetricFrame."
    from fairlearn.metrics import MetricFrame, false_positive_rate, true_positive_rate
    from sklearn.metrics import accuracy_score
    sf = preds[["run", "category", "group"]]
    MetricFrame(metrics=accuracy_score, y_true=preds.y_true, y_pred=preds.y_pred, sensitive_features=sf)
    for k in range(len(CLASS_NAMES)):
        yt, yp = (preds.y_true == k).astype(int), (preds.y_pred == k).astype(int)
        MetricFrame(metrics={"fpr": partial(false_positive_rate, pos_label=1), "tpr": partial(true_positive_rate, pos_label=1)},
                    y_true=yt, y_pred=yp, sensitive_features=sf)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", type=Path, default=repo_root()/"benchmarks"/"results"/"metrics.json")
    a = ap.parse_args(argv)
    shared = shared_data_dir()
    if shared is None or not (shared/"czarnowska").is_dir():
        print("shared Czarnowska data absent: nothing to benchmark"); return 1
    src = shared/"czarnowska"
    gen_secs, bias = timed(lambda: generate(src), a.repeats)
    print(f"generate all suites: {len(bias)} sentences, best {min(gen_secs):.2f} s")
    res = {"spbias_version": spbias.__version__, "python": platform.python_version(), "machine": platform.machine(),
           "processor": platform.processor(), "cpu_count_visible": __import__("os").cpu_count(),
           "note": "shared machine (2 cores, other jobs running); times are wall-clock, best and median of repeats",
           "generate_czarnowska": {"sentences": len(bias), "per_category": bias.groupby("category").size().to_dict(),
                                   "seconds_best": min(gen_secs), "seconds_median": statistics.median(gen_secs),
                                   "seconds_all": gen_secs, "target_seconds": 10}}
    with tempfile.TemporaryDirectory() as d:
        paths = synthetic_predictions(bias, a.runs, Path(d))
        load_secs, preds = timed(lambda: load_predictions(paths), a.repeats)
        gap_secs, gt = timed(lambda: gap_table(preds, top_k=0), a.repeats)
        e2e_secs, _ = timed(lambda: gap_table(load_predictions(paths), top_k=0), a.repeats)
        one = preds[preds.run == preds.run.iloc[0]]   # the reference is slow: compare on one run
        rate_secs, _ = timed(lambda: group_metrics(one), a.repeats)
        fl_secs, _ = timed(lambda: fairlearn_rates(one), 1)
    print(f"gaps over {a.runs} runs x {len(bias)} rows: load {min(load_secs):.2f} s, gaps {min(gap_secs):.2f} s, "
          f"end to end {min(e2e_secs):.2f} s; per-group rates of one run {min(rate_secs):.3f} s vs fairlearn MetricFrame {min(fl_secs):.2f} s")
    res["gaps"] = {"runs": a.runs, "rows_per_run": len(bias), "rows_total": len(preds), "gap_table_rows": len(gt),
                   "load_seconds_best": min(load_secs), "gap_table_seconds_best": min(gap_secs),
                   "end_to_end_seconds_best": min(e2e_secs), "end_to_end_seconds_median": statistics.median(e2e_secs),
                   "end_to_end_seconds_all": e2e_secs, "target_seconds": 10,
                   "one_run_per_group_rates_seconds_best": min(rate_secs),
                   "one_run_fairlearn_metricframe_same_rates_seconds": min(fl_secs)}
    atomic_write_json(a.out, res)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
