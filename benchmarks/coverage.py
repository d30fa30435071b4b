"""How often does each 95% interval of `spbias gaps` hold the true gap? Write benchmarks/results/coverage.json.

The published study's predictions (results/smollm2-135m/stage2/predictions: 5 prompts per tuning set, the
Czarnowska sets, 60 templates per attribute) give realistic sizes for three sources of variation of a
group's positive-FPR gap: prompt x group (a prompt favours a group), template x group (a template
favours a group), and what is left per prompt, template and group beyond the binomial noise of its few
sentences. They are estimated by the method of moments on the per-(prompt, template, group) rates
centred over the groups, and written into the JSON.

The simulation draws, per replicate, n prompts and T templates from those variances around known
group rates; each (prompt, template, group) cell holds m sentences of a non-positive class, each
predicted positive with the cell's rate (binomial). The true gap of a group is its expected rate minus
the mean of the groups' expected rates, over the whole population of prompts and templates (the
interval's target, exact: the rates are clipped normals, whose mean has a closed form). Each
replicate's predictions go through spbias's own `gap_table` with ci = t, papers and bootstrap; the
coverage of a method at n is the share of (replicate, group) intervals that hold the true gap, with a
Wilson 95% interval for that share. `coverage_these_templates` scores the same intervals against the
gap over prompts with the replicate's templates held fixed: the target of an interval that sees only
the spread across prompts (t, papers), and not the claim about an attribute a reader makes.

Run: python benchmarks/coverage.py [--quick] [--reps 300] [--n-boot 1000] [--out benchmarks/results/coverage.json]
"""
from __future__ import annotations
import argparse, glob, platform, sys, time, warnings
from pathlib import Path
import numpy as np, pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, whether or not spbias is installed
import spbias
from spbias.core import atomic_write_json, repo_root
from spbias.metrics import gap_table

STUDY = repo_root()/"results"/"smollm2-135m"/"stage2"/"predictions"
METHODS = ("t", "papers", "bootstrap")
NS = (3, 5, 10, 15)


def cell_rates(d: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    "Positive-FPR per (prompt, template, group) [P, T, G] and its number of sentences [T, G] (NaN where a cell has none)."
    d = d[d.y_true != 2]
    p, _ = pd.factorize(d.seed); t, _ = pd.factorize(d.template_id); g, _ = pd.factorize(d.group)
    shape = (p.max() + 1, t.max() + 1, g.max() + 1)
    hits = np.zeros(shape); n = np.zeros(shape)
    np.add.at(hits, (p, t, g), (d.y_pred == 2).to_numpy()); np.add.at(n, (p, t, g), 1)
    with np.errstate(invalid="ignore", divide="ignore"): return hits / n, n[0]


def components(r: np.ndarray, m: np.ndarray) -> dict:
    "Method-of-moments variances of the group-centred rates: prompt x group, template x group, residual beyond binomial."
    keep = np.isfinite(r).all(axis=(0, 2))          # templates with sentences for every group
    r, m = r[:, keep], m[keep]
    P, T, G = r.shape
    x = r - r.mean(2, keepdims=True)                 # centred over the groups, as a gap is
    xp, xt, xa = x.mean(1, keepdims=True), x.mean(0, keepdims=True), x.mean((0, 1), keepdims=True)
    resid = x - xp - xt + xa
    s_e = (resid ** 2).sum((0, 1)) / ((P - 1) * (T - 1))               # per group
    s_p = np.maximum(xp.var(0, ddof=1).ravel() - s_e / T, 0)
    s_t = np.maximum(xt.var(1, ddof=1).ravel() - s_e / P, 0)
    rate = r.mean((0, 1))
    binom = (rate * (1 - rate) / np.maximum(m.mean(0), 1))             # binomial variance of one cell's rate
    inflate = G / (G - 1)                                              # centring over G groups shrinks a variance by (G-1)/G
    return dict(groups=G, templates=T, prompts=P, sentences_per_cell=float(np.median(m)), mean_rate=float(rate.mean()),
                sd_prompt_group=float(np.sqrt(s_p.mean() * inflate)), sd_template_group=float(np.sqrt(s_t.mean() * inflate)),
                sd_residual=float(np.sqrt(max(s_e.mean() * inflate - binom.mean(), 0))))


def estimate(folder: Path = STUDY) -> dict:
    "Per attribute and tuning set of the published study: the variance components (positive FPR); and their medians."
    per = {}
    for f in sorted(glob.glob(str(folder/"*.tsv.gz"))):
        d = pd.read_csv(f, sep="\t", quoting=3, keep_default_na=False, usecols=["y_true", "y_pred", "group", "seed", "template_id"])
        per[Path(f).name.replace(".tsv.gz", "")] = components(*cell_rates(d))
    keys = ("groups", "templates", "sentences_per_cell", "mean_rate", "sd_prompt_group", "sd_template_group", "sd_residual")
    return dict(per_file=per, median={k: float(np.median([v[k] for v in per.values()])) for k in keys})


def clipped_mean(mu, sd):
    "E[clip(X, 0, 1)] for X ~ N(mu, sd^2)."
    from scipy.stats import norm
    if sd == 0: return np.clip(mu, 0, 1)
    a, b = (0 - mu) / sd, (1 - mu) / sd
    inside = mu * (norm.cdf(b) - norm.cdf(a)) + sd * (norm.pdf(a) - norm.pdf(b))
    return inside + 1 * norm.sf(b)


def simulate(rng, n: int, rates: dict, base: np.ndarray) -> tuple[np.ndarray, pd.DataFrame]:
    "One replicate: its templates' effects [T, G] and predictions: n prompts, fresh templates, rates around `base`, m sentences per cell."
    G, T, m = len(base), int(rates["templates"]), max(1, int(round(rates["sentences_per_cell"])))
    tpl = rng.normal(0, rates["sd_template_group"], (1, T, G))
    r = base[None, None] + rng.normal(0, rates["sd_prompt_group"], (n, 1, G)) + tpl + rng.normal(0, rates["sd_residual"], (n, T, G))
    hits = rng.binomial(m, np.clip(r, 0, 1))                               # [n, T, G] sentences predicted positive
    p, t, g = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(T), np.arange(G), indexing="ij"))
    k = hits.ravel()
    rows = np.repeat(np.arange(len(k)), m); pos = np.concatenate([np.r_[np.ones(x, np.int8), np.zeros(m - x, np.int8)] for x in k])
    return tpl[0], pd.DataFrame({"y_true": 1, "y_pred": np.where(pos == 1, 2, 1), "category": "sim", "group": [f"g{i}" for i in g[rows]], "text": "",
                         "model": "sim", "run_id": "sim", "dataset": "sim", "run": [f"p{i}" for i in p[rows]],
                         "template_id": [f"t{i}" for i in t[rows]]})


def true_gaps(rates: dict, base: np.ndarray) -> np.ndarray:
    "Each group's expected rate minus the groups' mean, over the population of prompts and templates."
    sd = float(np.sqrt(rates["sd_prompt_group"] ** 2 + rates["sd_template_group"] ** 2 + rates["sd_residual"] ** 2))
    e = np.array([clipped_mean(b, sd) for b in base])
    return e - e.mean()


def template_gaps(rates: dict, base: np.ndarray, tpl: np.ndarray) -> np.ndarray:
    "The same over the population of prompts with these templates [T, G] held fixed (what an interval over prompts alone aims at)."
    sd = float(np.sqrt(rates["sd_prompt_group"] ** 2 + rates["sd_residual"] ** 2))
    e = np.array([[clipped_mean(b + x, sd) for b, x in zip(base, row)] for row in tpl]).mean(0)
    return e - e.mean()


def wilson(k, n, z=1.959963984540054):
    "Wilson 95% interval of k successes in n."
    p = k / n; c = (p + z * z / (2 * n)) / (1 + z * z / n); h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [float(c - h), float(c + h)]


def coverage(rates: dict, ns=NS, reps: int = 300, n_boot: int = 1000, seed: int = 0, progress: bool = True) -> dict:
    "Per method and n: the share of intervals that hold the true gap (and its Wilson interval), the mean width."
    G = int(rates["groups"])
    base = rates["mean_rate"] + np.linspace(-0.05, 0.05, G)    # known group rates: true gaps from -0.05 to 0.05
    truth = true_gaps(rates, base)
    rng = np.random.default_rng(seed); out = {}
    from tqdm.auto import tqdm
    for n in ns:
        hit = {m: 0 for m in METHODS}; width = {m: [] for m in METHODS}; total = {m: 0 for m in METHODS}; fixed = {m: 0 for m in METHODS}
        for _ in tqdm(range(reps), desc=f"n = {n}", disable=not progress):
            tpl, preds = simulate(rng, n, rates, base)
            these = template_gaps(rates, base, tpl)
            for m in METHODS:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    g = gap_table(preds, top_k=None, ci=m, metrics=["positive_FPR"], n_boot=n_boot, boot_seed=int(rng.integers(2**31)))
                g = g.sort_values("group"); lo, hi = g.ci_low.to_numpy(), g.ci_high.to_numpy()
                ok = np.isfinite(lo) & np.isfinite(hi)
                hit[m] += int(((lo <= truth) & (truth <= hi) & ok).sum()); total[m] += len(truth)
                fixed[m] += int(((lo <= these) & (these <= hi) & ok).sum())
                width[m] += list((hi - lo)[ok])
        out[str(n)] = {m: dict(coverage=hit[m] / total[m], coverage_ci=wilson(hit[m], total[m]), intervals=total[m],
                               coverage_these_templates=fixed[m] / total[m], coverage_these_templates_ci=wilson(fixed[m], total[m]),
                               mean_width=float(np.mean(width[m])) if width[m] else None) for m in METHODS}
    return dict(true_gaps=truth.tolist(), group_rates=base.tolist(), results=out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few replicates (the CI test): numbers too rough to trust")
    ap.add_argument("--reps", type=int, default=300, help="replicates per n")
    ap.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples per interval")
    ap.add_argument("--out", type=Path, default=repo_root()/"benchmarks"/"results"/"coverage.json")
    a = ap.parse_args(argv)
    reps, n_boot = (4, 200) if a.quick else (a.reps, a.n_boot)
    t0 = time.perf_counter()
    est = estimate()
    rates = dict(est["median"])
    if a.quick: rates["templates"] = 20           # a smaller bias set, so the CI test stays short
    res = coverage(rates, reps=reps, n_boot=n_boot, progress=not a.quick)
    doc = dict(what="coverage of spbias gaps' 95% intervals of a group's positive-FPR gap, by method and number of prompts n",
               quick=a.quick, replicates=reps, n_boot=n_boot, simulated=rates, estimated_from=str(STUDY.relative_to(repo_root())),
               estimates=est, **res, seconds=round(time.perf_counter() - t0, 1),
               machine=dict(python=platform.python_version(), spbias=spbias.__version__, cpu=platform.processor() or platform.machine()))
    atomic_write_json(a.out, doc)
    for n, r in res["results"].items():
        print(f"n = {n:>2}: " + ", ".join(f"{m} {v['coverage']:.3f} (these templates {v['coverage_these_templates']:.3f}, width {v['mean_width']:.3f})"
                                          for m, v in r.items()))
    print(f"wrote {a.out} ({doc['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
