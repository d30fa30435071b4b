"""The budget experiment's small files (issue 25): learning curves, per-seed summaries and a figure, from its run folders.

    python scripts/semeval_budget_report.py [--runs results/smollm2-135m/semeval-budget/runs] [--out results/smollm2-135m/semeval-budget]

Reads each run folder's config.json and every seed's metrics.jsonl (and summary.json once the run has finished), and writes
curves.csv (one row per run, seed and evaluation), seeds.csv (one row per run and seed: the best evaluation so far, and the
final status and test accuracy, with its Wilson 95% interval over the test split's n sentences, once finished) and figures/learning_curve.png (validation accuracy and loss against the step,
with the validation split's majority class). Runs still going are reported as far as they got. The files it writes are its
own; they are replaced on every call (they are derived from the run folders, which it never changes).
"""
import argparse, json
from pathlib import Path
import numpy as np, pandas as pd

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT/"results"/"smollm2-135m"/"semeval-budget"


def read_runs(runs:Path)->tuple[pd.DataFrame, pd.DataFrame, dict]:
    "Learning curves and per-seed rows of every run folder under `runs`, and each run's validation majority-class share."
    curves, seeds, majority = [], [], {}
    for cfg_path in sorted(Path(runs).glob("*/config.json")):
        run, cfg = cfg_path.parent, json.loads(cfg_path.read_text())
        r, counts = cfg["run"], cfg["class_counts"]["validation"]
        majority[run.name] = max(counts) / sum(counts)
        for s in r["seeds"]:
            m = run/f"seed-{s}"/"metrics.jsonl"
            rows = [json.loads(l) for l in m.read_text().splitlines() if l.strip()] if m.exists() else []
            curves += [dict(run=run.name, loss=r["loss"], seed=s, **x) for x in rows]
            summ = run/f"seed-{s}"/"summary.json"
            done = json.loads(summ.read_text()) if summ.exists() else {}
            best = max(rows, key=lambda x: (x["eval_accuracy"], -x["eval_loss"])) if rows else {}
            seeds.append(dict(run=run.name, loss=r["loss"], lr=r["lr"], batch_size=r["batch_size"], max_steps=r["max_steps"],
                              min_steps=r["min_steps"], early_stopping=r["early_stopping"], seed=s,
                              last_step=rows[-1]["step"] if rows else 0, n_evaluations=len(rows),
                              best_step=best.get("step"), best_validation_accuracy=best.get("eval_accuracy"),
                              best_validation_loss=best.get("eval_loss"), finished=bool(done),
                              status=done.get("status", "running"), test_accuracy=done.get("test_accuracy"),
                              validation_majority=majority[run.name], validation_size=cfg["split_sizes"]["validation"],
                              test_size=cfg["split_sizes"]["test"], test_majority=max(cfg["class_counts"]["test"]) / cfg["split_sizes"]["test"]))
    seeds = pd.DataFrame(seeds)
    if seeds.test_accuracy.notna().any():  # each finished prompt's test accuracy: a Wilson 95% interval over the test split's n sentences
        from statsmodels.stats.proportion import proportion_confint
        ok = seeds.test_accuracy.notna()
        k = (seeds.test_accuracy[ok] * seeds.test_size[ok]).round()
        lo, hi = proportion_confint(k, seeds.test_size[ok], alpha=0.05, method="wilson")
        seeds.loc[ok, "test_ci_low"], seeds.loc[ok, "test_ci_high"], seeds.loc[ok, "test_ci_method"] = lo, hi, "Wilson 95%, n = test_size"
    return pd.DataFrame(curves), seeds, majority


def draw(curves:pd.DataFrame, majority:dict, path:Path, seeds:pd.DataFrame|None=None, n_validation:int=449):
    """Per run: validation accuracy with a ±1 standard-error band (binomial, n_validation), the kept step and its test accuracy
    (Wilson 95% CI) marked; below, that run's own validation loss (one loss per axis)."""
    import matplotlib; matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = sorted(curves.run.unique())
    fig, axes = plt.subplots(2, len(runs), figsize=(5.5 * len(runs), 7), squeeze=False, sharex=True, constrained_layout=True)
    colours = dict(zip(sorted(curves.seed.unique()), plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for j, run in enumerate(runs):
        a, b = axes[0, j], axes[1, j]
        for seed, c in curves[curves.run == run].groupby("seed"):
            c = c.sort_values("step"); p = c.eval_accuracy.to_numpy(); se = np.sqrt(p * (1 - p) / n_validation)
            a.plot(c.step, p, color=colours[seed], lw=1.2, label=f"seed {seed}")
            a.fill_between(c.step, p - se, p + se, color=colours[seed], alpha=0.2, lw=0)
            b.plot(c.step, c.eval_loss, color=colours[seed], lw=1.2)
            if seeds is not None:
                r = seeds[(seeds.run == run) & (seeds.seed == seed)]
                if len(r) and pd.notna(r.best_step.iloc[0]):
                    r = r.iloc[0]
                    a.plot([r.best_step], [r.best_validation_accuracy], "o", color=colours[seed], mfc="white", ms=7,
                           label=f"seed {seed}: kept step {int(r.best_step):,}")
                    if pd.notna(r.test_accuracy):
                        a.errorbar([r.best_step], [r.test_accuracy], yerr=[[r.test_accuracy - r.test_ci_low], [r.test_ci_high - r.test_accuracy]],
                                   fmt="s", color=colours[seed], ms=6, capsize=3,
                                   label=f"seed {seed}: test {r.test_accuracy:.3f} (Wilson 95% CI, n = {int(r.test_size)})")
        a.axhline(majority.get(run, np.nan), color="grey", ls="--", lw=1, label="majority class (validation)")
        for ax in (a, b):  # the first study's budget, and the papers' first step of early stopping
            ax.axvline(150, color="tab:red", ls=":", lw=1, label="first study: 150 steps" if ax is a else None)
            ax.axvline(2500, color="black", ls=":", lw=1, label="papers: early stopping from 2,500" if ax is a else None)
        a.set(title=f"{run}: validation accuracy, ±1 SE band", ylabel=f"accuracy ({n_validation} tweets)")
        a.legend(fontsize=7, loc="lower right")
        loss = "full-vocabulary CE" if run == "full_vocab" else "label-word CE"
        b.set(title=f"{run}: its own validation loss", xlabel="training step (batch 8)", ylabel=f"loss ({loss})", yscale="log")
    fig.suptitle("SmolLM2-135M, 8 soft tokens, lr 1e-3, SemEval-2018 V-oc: two seeds per run", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", default=str(HERE/"runs"), help="folder holding the run folders (full_vocab, label_tokens)")
    p.add_argument("--out", default=str(HERE), help="where curves.csv, seeds.csv and figures/ go")
    p.add_argument("--figure-only", action="store_true", help="redraw figures/learning_curve.png from --out's curves.csv and seeds.csv")
    a = p.parse_args(argv)
    from spbias.core import atomic_write_text
    if a.figure_only:
        out = Path(a.out); seeds = pd.read_csv(out/"seeds.csv")
        majority = seeds.groupby("run").validation_majority.first().to_dict()
        draw(pd.read_csv(out/"curves.csv"), majority, out/"figures"/"learning_curve.png", seeds, int(seeds.validation_size.dropna().iloc[0]))
        print(f"wrote {out/'figures'/'learning_curve.png'}"); return
    curves, seeds, majority = read_runs(Path(a.runs))
    if curves.empty: raise SystemExit(f"no evaluations under {a.runs} yet: run scripts/semeval_budget.sh first.")
    out = Path(a.out)
    atomic_write_text(out/"curves.csv", curves.to_csv(index=False))
    atomic_write_text(out/"seeds.csv", seeds.to_csv(index=False, float_format="%.4f"))
    draw(curves, majority, out/"figures"/"learning_curve.png", seeds, int(seeds.validation_size.dropna().iloc[0]))
    print(seeds.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
