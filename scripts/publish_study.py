"""Publish a study's small result files: from its run folders to results/<name>/ (summaries, accuracy, gap tables
under each interval method, Table 2, figures, the top-k prompts' predictions compressed, and what it cost).

    python scripts/publish_study.py --main STUDY/main --pilot STUDY/lr --out results/smollm2-135m

--main holds the runs of the study's sweep (sweeps/smollm2.yaml), --pilot the learning-rate stage's
(sweeps/smollm2-lr.yaml). Everything is computed by spbias' own functions (spbias.stats.metrics, spbias.report.figures);
this script only reads the run folders and writes the files. An existing --out is refused unless --force.
"""
import argparse, gzip, json, re, shutil, sys, time
from pathlib import Path
import numpy as np, pandas as pd

from spbias.stats import metrics as M; from spbias.report import figures as F
from spbias.core import SpbiasError, atomic_write_json, atomic_write_text, move_aside
from spbias.tuning.data import load_sentiment, SPLITS
from spbias.biassets.templates import predictions_by_set

METHODS = {  # file tag: (interval method, multiple-comparison adjustment)
    "papers": ("papers", "none"), "t": ("t", "none"), "t-holm": ("t", "holm"), "bootstrap": ("bootstrap", "none")}
TOP_K = 5


def finished_runs(root: Path) -> dict[Path, dict]:
    "Finished run folders below `root` (those holding finished.json), each with its config.json."
    return {p.parent: json.loads((p.parent/"config.json").read_text()) for p in sorted(Path(root).rglob("finished.json"))}


def summaries(runs: dict[Path, dict], stage: str) -> pd.DataFrame:
    "One row per seed of every finished run: its summary and the run's settings."
    rows = []
    for run, cfg in runs.items():
        r = cfg["run"]
        for s in r["seeds"]:
            summ = json.loads((run/f"seed-{s}"/"summary.json").read_text())
            rows.append(dict(stage=stage, dataset=r["dataset"], lr=r["lr"], n_tokens=r["n_tokens"], batch_size=r["batch_size"],
                             max_steps=r["max_steps"], run_id=cfg["run_id"], **{k: summ.get(k) for k in (
                                 "seed", "status", "usable", "best_step", "n_evaluations", "validation_accuracy", "test_accuracy")}))
    return pd.DataFrame(rows)


def majority(cfg: dict) -> dict:
    "The majority class's share of the validation sentences a run (its config.json) was evaluated on, and of the test split."
    counts = cfg.get("class_counts")
    if counts is None:  # runs from before class_counts was recorded: the full splits
        t = load_sentiment(cfg["run"]["dataset"])
        counts = {s: t[t.split == s].label.value_counts().reindex([0, 1, 2], fill_value=0).tolist() for s in SPLITS}
    return {f"majority_{s}": max(counts[s]) / sum(counts[s]) for s in ("validation", "test")}


def seconds_from_notebook(nb: Path) -> dict:
    "Tuning and scoring seconds of one executed run notebook (its printed timings)."
    text = nb.read_text()
    scoring = sum(float(x) for x in re.findall(r"seeds in (\d+)s ->", text))
    total = re.findall(r"done in (\d+)s:", text)
    return dict(notebook_seconds=float(total[-1]) if total else np.nan, scoring_seconds=scoring)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--main", type=Path, required=True, help="output root of the study's sweep")
    ap.add_argument("--pilot", type=Path, default=None, help="output root of the learning-rate stage")
    ap.add_argument("--out", type=Path, required=True, help="results folder to write")
    ap.add_argument("--bias-set", default="czarnowska", help="the bias set whose predictions are published (predictions/<name>.tsv)")
    ap.add_argument("--n-boot", type=int, default=2000, help="bootstrap resamples")
    ap.add_argument("--force", action="store_true", help="move an existing --out aside first")
    a = ap.parse_args(argv)
    if a.out.exists():
        if not a.force: raise SpbiasError(f"{a.out} exists.", "pass --force to move it aside (nothing is deleted), or another --out.")
        print(f"moved the old {a.out} aside to {move_aside(a.out)}")
    runs = finished_runs(a.main)
    if not runs: raise SpbiasError(f"no finished run under {a.main}.", "pass the sweep's output root (--out of spbias sweep).")
    (a.out/"tables").mkdir(parents=True); (a.out/"figures").mkdir(); (a.out/"predictions").mkdir()

    # per-seed summaries (both stages), the learning-rate choice, accuracies against the majority class
    main_summ = summaries(runs, "main")
    summ = pd.concat([main_summ] + ([summaries(finished_runs(a.pilot), "lr")] if a.pilot else []), ignore_index=True)
    atomic_write_text(a.out/"summaries.csv", summ.to_csv(index=False))
    if a.pilot:
        lr = (summ[summ.stage == "lr"].groupby(["dataset", "lr"]).validation_accuracy.agg(["mean", "min", "max", "count"])
              .reset_index().rename(columns={"mean": "validation_mean", "count": "n_seeds"}))
        F.write_table(lr, a.out/"tables", "lr_choice", note="best validation accuracy of each seed, mean over the stage's seeds")
    acc = []
    for run, cfg in runs.items():
        s = main_summ[main_summ.run_id == cfg["run_id"]]
        ok = s[s.usable.astype(bool)].sort_values(["validation_accuracy", "seed"], ascending=[False, True])
        top = ok.head(TOP_K)
        row = dict(dataset=s.dataset.iloc[0], lr=s.lr.iloc[0], n_seeds=len(s), n_usable=len(ok), top_k=len(top),
                   top_seeds=" ".join(map(str, top.seed)), **majority(cfg))
        for split in ("validation", "test"):
            m, lo, hi = F.mean_ci(top[f"{split}_accuracy"], "t")
            row.update({f"{split}_top{TOP_K}_mean": m, f"{split}_top{TOP_K}_ci_low": lo, f"{split}_top{TOP_K}_ci_high": hi,
                        f"{split}_all_mean": s[f"{split}_accuracy"].mean()})
        acc.append(row)
    acc = pd.DataFrame(acc)
    F.write_table(acc, a.out/"tables", "accuracy", note=f"95% CI: Student t over the top {TOP_K} seeds by validation accuracy")

    # predictions of the top-k prompts on the bias set (one file, or one per attribute subset), compressed
    files = {f: cfg["run"]["dataset"] for run, cfg in runs.items() for f in predictions_by_set(run).get(a.bias_set, [])}
    if not files: raise SpbiasError(f"no predictions/{a.bias_set}.tsv or {a.bias_set}-*.tsv under {a.main}.",
                                    "let the sweep's runs finish their scoring.")
    preds = M.load_predictions(list(files))
    for f, d in files.items():
        with open(f, "rb") as src, gzip.open(a.out/"predictions"/f"{f.stem}_{d}.tsv.gz", "wb", compresslevel=9) as dst:
            shutil.copyfileobj(src, dst)
    scored = {d: sorted(g.category.unique()) for d, g in preds.groupby("dataset")}
    for d, cats in scored.items(): print(f"{d}: {len(preds[preds.dataset == d])} prediction rows, categories {cats}")

    # gap tables and Table 2 under each method; figures from the default (t)
    notes = {}
    for tag, (ci, adjust) in METHODS.items():
        t0 = time.time()
        gaps = M.gap_table(preds, top_k=TOP_K, ci=ci, adjust=adjust, n_boot=a.n_boot, boot_seed=0)
        atomic_write_text(a.out/"tables"/f"gaps_{tag}.csv", gaps.to_csv(index=False))
        t2 = M.table2(gaps)
        atomic_write_text(a.out/"tables"/f"table2_{tag}.csv", t2.to_csv(index=False))
        notes[tag] = M.method_note(gaps)
        print(f"{tag}: {len(gaps)} gap rows, {int((gaps.significance != 0).sum())} significant ({time.time() - t0:.0f}s)")
        if tag == "t":
            for cat in gaps.category.unique():
                F.save_figure(F.gap_figure(gaps, cat, near_chance=F.near_chance(acc)), a.out/"figures", f"gaps_{cat.replace('grouped_', '')}")

    cost = []  # one row per execution of a run's notebook: the last one, and the earlier ones the sweep kept beside it
    for run, cfg in runs.items():
        m = json.loads((run/"manifest.json").read_text()) if (run/"manifest.json").is_file() else {}
        d = cfg["run"]["dataset"]
        for nb in sorted(run.parent.glob(f"{run.name}.ipynb.attempt-*")) + [run.parent/f"{run.name}.ipynb"]:
            if nb.is_file(): cost.append(dict(dataset=d, run=run.name, notebook=nb.name, **seconds_from_notebook(nb)))
        cost.append(dict(dataset=d, run=run.name, notebook="manifest (last execution)", run_seconds=m.get("seconds")))
    atomic_write_json(a.out/"study.json", dict(top_k=TOP_K, bias_set=a.bias_set, categories_scored=scored,
                                               methods={k: dict(ci=c, adjust=j) for k, (c, j) in METHODS.items()},
                                               method_notes=notes, n_boot=a.n_boot, boot_seed=0, cost=cost,
                                               written=time.strftime("%Y-%m-%dT%H:%M:%S")))
    size = sum(p.stat().st_size for p in a.out.rglob("*") if p.is_file())
    print(f"wrote {a.out} ({size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    try: main()
    except SpbiasError as e: sys.exit(f"publish_study: error: {e}")
