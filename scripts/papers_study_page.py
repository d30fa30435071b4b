"""The page of the papers' study (results/smollm2-135m-papers/README.md), generated from its files.

    python scripts/papers_study_page.py --sweep SWEEP_OUT --sweep-file sweeps/smollm2-papers.yaml --out results/smollm2-135m-papers \\
        --cpu-study results/smollm2-135m --bench benchmarks/results/gpu.json --timings papermill_runs/gpu_study/timings.jsonl

scripts/gpu_study.sh runs it last, after `spbias gaps`, `spbias table2` and `spbias export` wrote OUT/tables and
OUT/adapters. It reads the sweep's run folders (config.json, seed-*/summary.json, chosen_lr.json) and those tables,
in either layout of the sweep: staged (lr/: a run per rate on the rate seeds; main/: the seeds at the chosen rate) or
one run per tuning set (`lr: grid-in-one-run`: main/ holds runs of several rates, each with a folder per rate and its
chosen_lr.json naming the folder it keeps, `spbias.sweeps.stages.kept_run`; Stage 1 is read from those rate folders). It
writes summaries.csv, chosen_lr.json, tables/stage1.csv, tables/accuracy.csv, tables/table2_vs_papers.csv,
tables/agreement.csv and study.json, and the page: every number with its n and its method, beside the CPU study
(--cpu-study: its stage2/tables) and the papers' Table 2 (data/papers/table2_v2.csv).
"""
from __future__ import annotations
import argparse, json, math, shutil, sys, time
from pathlib import Path
import pandas as pd, yaml
from scipy import stats

from spbias.report.study import compare_table2, papers_table2

FPR = ["positive_FPR", "negative_FPR"]


def t_interval(x) -> tuple[float, float, float, int]:
    "Mean and Student t 95% interval of a sample (nan bounds for n < 2), and n."
    x = pd.Series(x, dtype=float).dropna(); n = len(x); m = x.mean() if n else math.nan
    if n < 2: return m, math.nan, math.nan, n
    h = stats.t.ppf(0.975, n - 1) * x.std(ddof=1) / math.sqrt(n)
    return m, m - h, m + h, n


def finished_runs(root: Path) -> list[tuple[Path, dict]]:
    "Finished runs under `root` with their config.json (a run of several rates once: its rate folders are part of it)."
    runs = [(p.parent, json.loads((p.parent/"config.json").read_text())) for p in sorted(root.rglob("finished.json"))]
    return [(d, c) for d, c in runs if not c.get("part_of")]


def seed_rows(runs: list[tuple[Path, dict]], stage: str, seeds=None) -> pd.DataFrame:
    "One row per seed (of `seeds`, default all) of each (run folder, config); a rate folder's lr is its own."
    rows = []
    for run, cfg in runs:
        r = cfg["run"]
        for s in r["seeds"]:
            if seeds is not None and s not in seeds: continue
            summ = json.loads((run/f"seed-{s}"/"summary.json").read_text())
            keys = ("seed", "status", "usable", "best_step", "n_evaluations", "stopped_early", "validation_accuracy",
                    "validation_loss", "test_accuracy")
            rows.append(dict(stage=stage, dataset=r["dataset"], lr=r["lr"], batch_size=r["batch_size"],
                             max_steps=r["max_steps"], run=run.name, **{k: summ.get(k) for k in keys}))
    return pd.DataFrame(rows)


def read_sweep(sweep: Path, spec: dict):
    """The study's runs in either layout: (the kept runs [(folder, config)], the seed rows of Stage 2 and of Stage 1,
    the seeds Stage 1 chose the rate on, in words). Staged: main/'s runs and lr/'s. One run per tuning set (a run whose
    config lists several rates): the folder of the rate it chose (`kept_run`), and its rate folders' rate seeds."""
    from spbias.sweeps.stages import kept_run
    runs = finished_runs(sweep/"main")
    if not any(isinstance(c["run"]["lr"], list) for _, c in runs):
        lr_runs = finished_runs(sweep/"lr")
        return runs, seed_rows(runs, "main"), seed_rows(lr_runs, "lr"), str(spec["stages"]["lr"]["seeds"])
    kept, rates, rate_seeds = [], [], set()
    for run, cfg in runs:
        k = kept_run(run); kept.append((k, json.loads((k/"config.json").read_text())))
        seeds = json.loads((run/"chosen_lr.json").read_text())["rate_seeds"]; rate_seeds |= set(seeds)
        rates += seed_rows([(f.parent, json.loads(f.read_text())) for f in sorted(run.glob("lr-*/config.json"))], "lr",
                           seeds).to_dict("records")
    said = ", ".join(map(str, sorted(rate_seeds))) + " (in the same run as Stage 2, `lr: grid-in-one-run`)"
    return kept, seed_rows(kept, "main"), pd.DataFrame(rates), said


def stage1(lr_s: pd.DataFrame, chosen: dict) -> pd.DataFrame:
    "Per tuning set and rate: the rate seeds' n and mean best validation accuracy and loss, and whether it was chosen."
    cols = ["dataset", "lr", "n_seeds", "mean_validation_accuracy", "mean_validation_loss", "chosen"]
    if lr_s.empty: return pd.DataFrame(columns=cols)
    pick = {(c["dataset"], float(c["lr"])) for c in chosen["choices"]}
    t = lr_s.groupby(["dataset", "lr"]).agg(n_seeds=("seed", "size"),
                                            mean_validation_accuracy=("validation_accuracy", "mean"),
                                            mean_validation_loss=("validation_loss", "mean")).reset_index()
    return t.assign(chosen=[(d, float(r)) in pick for d, r in zip(t.dataset, t.lr)])


def accuracy(main: pd.DataFrame, runs: list[tuple[Path, dict]], k: int) -> pd.DataFrame:
    "Per tuning set: the top-k usable seeds by validation accuracy (Student t 95% CI, n = k), all seeds' mean, the majority class."
    counts = {cfg["run"]["dataset"]: cfg.get("class_counts") for _, cfg in runs}
    out = []
    for d, s in main.groupby("dataset"):
        ok = s[s.usable.astype(bool)].sort_values(["validation_accuracy", "seed"], ascending=[False, True])
        top = ok.head(k)
        row = dict(dataset=d, lr=s.lr.iloc[0], n_seeds=len(s), n_usable=len(ok), top_k=len(top), top_seeds=" ".join(map(str, top.seed)))
        c = counts.get(d)
        for split in ("validation", "test"):
            m, lo, hi, _ = t_interval(top[f"{split}_accuracy"])
            row.update({f"{split}_top_mean": m, f"{split}_top_ci_low": lo, f"{split}_top_ci_high": hi,
                        f"{split}_all_mean": s[f"{split}_accuracy"].mean(),
                        f"majority_{split}": max(c[split]) / sum(c[split]) if c else math.nan, f"n_{split}": sum(c[split]) if c else None})
        out.append(row)
    return pd.DataFrame(out)


def agreement(t2: pd.DataFrame, papers: pd.DataFrame, study: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    "compare_table2 of one study's long Table 2 with the papers', and its counts per tuning set, metric and agreement."
    cmp = compare_table2(t2, papers).assign(study=study)
    counts = cmp.groupby(["study", "dataset", "metric", "agreement"]).size().rename("cells").reset_index()
    return cmp, counts


def fmt(x, nd=3) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--sweep", type=Path, required=True, help="the sweep's output root (main/; staged: and lr/)")
    ap.add_argument("--sweep-file", type=Path, required=True, help="the sweep file it ran")
    ap.add_argument("--out", type=Path, required=True, help="the study's results folder (tables/ and adapters/ already written)")
    ap.add_argument("--cpu-study", type=Path, default=None, help="the CPU study's results folder (results/smollm2-135m)")
    ap.add_argument("--bench", type=Path, default=None, help="benchmarks/gpu.json of the same machine")
    ap.add_argument("--timings", type=Path, default=None, help="gpu_study.sh's timings.jsonl")
    ap.add_argument("--tiny", action="store_true", help="a chain check on a tiny random model: the page says so")
    a = ap.parse_args(argv)
    out, tables = a.out, a.out/"tables"
    spec = yaml.safe_load(a.sweep_file.read_text())
    k = int(spec["stages"]["main"]["params"].get("score_top_k") or 5)
    if not finished_runs(a.sweep/"main"):
        sys.exit(f"papers_study_page: error: no finished run under {a.sweep/'main'}. Fix: let the sweep finish first.")
    runs, main_s, lr_s, rate_seeds = read_sweep(a.sweep, spec)
    pd.concat([main_s, lr_s], ignore_index=True).to_csv(out/"summaries.csv", index=False)
    chosen = json.loads((a.sweep/"main"/"chosen_lr.json").read_text())
    shutil.copy2(a.sweep/"main"/"chosen_lr.json", out/"chosen_lr.json")
    acc = accuracy(main_s, runs, k); acc.to_csv(tables/"accuracy.csv", index=False)
    s1 = stage1(lr_s, chosen); s1.to_csv(tables/"stage1.csv", index=False)
    gaps = pd.read_csv(tables/"gaps_t.csv")
    papers = papers_table2()
    cmp, counts = agreement(pd.read_csv(tables/"table2_t.csv"), papers, "this study")
    cpu_t2 = a.cpu_study/"stage2"/"tables"/"table2_t.csv" if a.cpu_study else None
    cpu_acc = a.cpu_study/"stage2"/"tables"/"accuracy.csv" if a.cpu_study else None
    cpu_gaps = a.cpu_study/"stage2"/"tables"/"gaps_t.csv" if a.cpu_study else None
    if cpu_t2 is not None and cpu_t2.is_file():
        c2, n2 = agreement(pd.read_csv(cpu_t2), papers, "CPU study"); cmp, counts = pd.concat([cmp, c2]), pd.concat([counts, n2])
    cmp.to_csv(tables/"table2_vs_papers.csv", index=False); counts.to_csv(tables/"agreement.csv", index=False)
    bench = json.loads(a.bench.read_text()) if a.bench and a.bench.is_file() else None
    timing = pd.read_json(a.timings, lines=True) if a.timings and a.timings.is_file() else pd.DataFrame(columns=["part", "seconds"])
    part_s = timing.groupby("part", sort=False).seconds.sum().to_dict()
    device = bench["device"]["device_kind"] if bench else "unknown device"
    p = spec["params"]; main_stage = spec["stages"]["main"]
    L = []
    L.append(f"# The papers' protocol on {'a tiny random model (chain check)' if a.tiny else 'SmolLM2-135M-Instruct'}, on {device}\n")
    if a.tiny:
        L.append("**This is a test of scripts/gpu_study.sh --tiny: a random 2-layer model, the demo set, a few steps. "
                 "Its numbers say nothing about bias or about SmolLM2.**\n")
    L.append(f"Written by `scripts/gpu_study.sh` on {time.strftime('%Y-%m-%d')} from the run folders of `spbias sweep {a.sweep_file.name}`; "
             "every table below is a file in this folder. Settings: "
             f"batch {p['batch_size']}, at least {p['min_steps']:,} and at most {p['max_steps']:,} steps, an evaluation every "
             f"{p['eval_every']} steps, early stopping by the papers' rule (a validation loss above the max of the previous "
             f"{p['patience']}), {'the whole validation split' if not p.get('validation_rows') else str(p['validation_rows']) + ' validation rows'}; "
             f"tuning sets {', '.join(spec['datasets'])}.\n")
    L.append("## Device time\n")
    L.append("| part | seconds |\n|---|---|")
    for part, s in part_s.items(): L.append(f"| {part} | {s:,.0f} |")
    if bench:
        for dtype, r in bench["runs"].items():  # benchmarks/gpu.py: 1, 15 and 45 prompts a step, PEFT beside
            ms = {int(k.split("_")[1]): v for k, v in r.items() if k.startswith("spbias_") and k.endswith("_prompts")}
            one, top = ms.get(min(ms, default=1), {}), max(ms, default=1)
            L.append(f"\nBenchmark, {dtype} (`benchmarks/results/gpu.json`, {bench['model']}, batch {bench['batch_size']}, "
                     f"each timing >= {bench.get('min_seconds', '?')} s, matrix products in {r.get('arithmetic', '?')}): "
                     f"first step {fmt(one.get('first_step_s'), 1)} s; {top} prompts against one "
                     f"{fmt(r.get(f'prompts_{top}_vs_{min(ms, default=1)}'), 2)}x; MFU at {top} prompts "
                     f"{fmt(ms.get(top, {}).get('mfu'), 3)}; against PEFT at {top} prompts "
                     f"{fmt(r.get(f'speedup_vs_peft_{top}_prompts'), 2)}x (– where not measured).")
    L.append("\n## Stage 1: the learning rate\n")
    L.append(f"Seeds {rate_seeds} at each rate; each seed's best validation accuracy, mean over the seeds (n = seeds), "
             "the rule of `spbias sweep` (ties broken by the lower mean validation loss); the table is "
             "`tables/stage1.csv`, per seed `summaries.csv` (stage lr):\n")
    L.append("| set | lr | n seeds | mean validation accuracy | mean validation loss | chosen |\n|---|---|---|---|---|---|")
    for _, r in s1.iterrows():
        L.append(f"| {r.dataset} | {r.lr:g} | {r.n_seeds} | {fmt(r.mean_validation_accuracy)} | "
                 f"{fmt(r.mean_validation_loss)} | {'yes' if r.chosen else ''} |")
    L.append(f"\n## Stage 2: accuracy (`tables/accuracy.csv`, per seed: `summaries.csv`)\n")
    L.append(f"Seeds {main_stage['seeds']} at the chosen rate. Top {k}: the usable seeds with the best validation accuracy, "
             f"mean and Student t 95% CI over them (n = top k); all seeds: their mean (n = seeds); majority class: its share of the split.\n")
    L.append("| study | set | lr | split | top-k mean [95% CI] (n) | all seeds (n) | majority class (sentences) |\n|---|---|---|---|---|---|---|")
    for _, r in acc.iterrows():
        for split in ("validation", "test"):
            L.append(f"| this | {r.dataset} | {r.lr:g} | {split} | {fmt(r[f'{split}_top_mean'])} [{fmt(r[f'{split}_top_ci_low'])}, "
                     f"{fmt(r[f'{split}_top_ci_high'])}] (n = {r.top_k}) | {fmt(r[f'{split}_all_mean'])} (n = {r.n_seeds}) | "
                     f"{fmt(r[f'majority_{split}'])} ({r[f'n_{split}']}) |")
    if cpu_acc is not None and cpu_acc.is_file():
        for _, r in pd.read_csv(cpu_acc).iterrows():
            for split in ("validation", "test"):
                L.append(f"| CPU study | {r.dataset} | {r.lr:g} | {split} | {fmt(r[f'{split}_top5_mean'])} [{fmt(r[f'{split}_top5_ci_low'])}, "
                         f"{fmt(r[f'{split}_top5_ci_high'])}] (n = {r.top_k}) | {fmt(r[f'{split}_all_mean'])} (n = {r.n_seeds}) | "
                         f"{fmt(r[f'majority_{split}'])} |")
        L.append("\nThe CPU study (`results/smollm2-135m/`) ran batch 8 and at most 150 steps with validation on a 301-sentence sample; "
                 "its intervals are over 5 prompts too. The two differ in budget, so a difference between them is the budget's effect "
                 "and seed noise together, not a test of either.")
    L.append("\n## Gaps (`tables/gaps_t.csv`)\n")
    L.append(f"`spbias gaps --ci t --adjust none`, as the papers compare: per group and metric, the gap's mean over the top {k} prompts with a Student t 95% CI "
             "(n = prompts, no multiple-comparison adjustment); significant where the interval excludes 0.\n")
    L.append("| study | set | gaps | significant (all metrics) | positive/negative-FPR gaps | significant among them | prompts (n) |\n|---|---|---|---|---|---|---|")
    studies = [("this", gaps)] + ([("CPU study", pd.read_csv(cpu_gaps))] if cpu_gaps is not None and cpu_gaps.is_file() else [])
    for name, g in studies:
        for d, gd in g.groupby("dataset"):
            f = gd[gd.metric.isin(FPR)]
            L.append(f"| {name} | {d} | {len(gd)} | {int((gd.significance != 0).sum())} | {len(f)} | {int((f.significance != 0).sum())} | "
                     f"{int(gd.n_runs.min())}–{int(gd.n_runs.max())} |")
    L.append("\n## Against the papers' Table 2 (`tables/table2_t.csv`, `tables/table2_vs_papers.csv`, `tables/agreement.csv`)\n")
    L.append(f"Each cell of the papers' Table 2 (v2: net count of significant gaps over {int(papers.n_models.max())} models) against ours "
             "(one model, so its net count is −1, 0 or +1): the same sign, ours not significant, the opposite sign, the papers 0 and ours "
             "significant, both 0, or not in our table (a group or set we did not score).\n")
    piv = counts.pivot_table(index=["study", "dataset", "metric"], columns="agreement", values="cells", fill_value=0).reset_index()
    cols = [c for c in ("same sign", "ours not significant", "opposite sign", "papers 0, ours significant", "both 0", "not in our table") if c in piv]
    L.append("| study | set | metric | " + " | ".join(cols) + " |\n|" + "---|" * (3 + len(cols)))
    for _, r in piv.iterrows(): L.append(f"| {r.study} | {r.dataset} | {r.metric} | " + " | ".join(str(int(r[c])) for c in cols) + " |")
    L.append("\n## The top prompts as adapters (`adapters/<set>/seed-<s>`)\n")
    L.append(f"`spbias export --run RUN --top-k {k}`: Hugging Face PEFT prompt-tuning adapters with model cards.\n")
    for d in sorted(p.name for p in (out/"adapters").iterdir() if p.is_dir()):
        L.append(f"- {d}: " + ", ".join(sorted(s.name for s in (out/"adapters"/d).iterdir() if s.is_dir())))
    (out/"README.md").write_text("\n".join(L) + "\n")
    json.dump(dict(device=bench["device"] if bench else None, part_seconds=part_s, top_k=k, sweep_file=str(a.sweep_file.name), tiny=a.tiny,
                   written=time.strftime("%Y-%m-%dT%H:%M:%S")), open(out/"study.json", "w"), indent=1)
    print(f"wrote {out/'README.md'}")


if __name__ == "__main__":
    main()
