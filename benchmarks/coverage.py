"""How often does each 95% interval of `spbias gaps` hold the true gap, on designs fitted to the data? Write benchmarks/results/coverage.json.

Per predictions file (the published study's 16: results/smollm2-135m/stage2/predictions, and the follow-up's template
families where their predictions exist), `spbias.stats.crossed.variance_components` fits the positive-FPR gap's variance
components over prompts, templates and identity terms (method of moments). Each fit is turned into a generative
crossed design of the file's own shape (its groups, terms per group and templates with a positive-FPR denominator;
one sentence per prompt, template and term) and simulated with `spbias.stats.simulate` at n = 3, 5, 10, 15 prompts,
>= 1,000 replicates each, twice: with known group gaps (-0.05 to 0.05; coverage of the gap over the group's possible
terms) and with none (type-I error at gap 0: the share of intervals that exclude 0). Every method (t, papers,
bootstrap, crossed) sees the same replicates; each share has its Monte-Carlo standard error. Before the run, one
small replicate goes through spbias's own `gap_table` to check that the vectorised t, papers and crossed intervals
are the package's.

--models (issue 50) draws studies from generative models unlike the fitted one: sentences from a multinomial logit,
a prompt x template interaction, skewed and t3 template effects, unequal term counts by template type, a one-term
group and a three-term group whose terms vary 2.5 times as much; base rates 0.05 and 0.5; n = 3, 5, 15; >= 500
replicates a cell; the crossed interval as it was before issue 50 beside it. The headline is the worst cell and the
worst group, with Monte-Carlo SEs; coverage by the crossed interval's df band.

Run: nice -n 10 python benchmarks/coverage.py [--quick] [--reps 1000] [--n-boot 200] [--out benchmarks/results/coverage.json]
     nice -n 10 python benchmarks/coverage.py --designs [centroid|reference|unbalanced]   (the grids of the real sets' shapes)
     nice -n 10 python benchmarks/coverage.py --models [--reps 500]   (coverage_models.json; resumable)
"""
from __future__ import annotations
import argparse, glob, json, os, platform, sys, time, warnings
from pathlib import Path
import numpy as np, pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, whether or not spbias is installed
import spbias
from spbias.core import atomic_write_json, repo_root
from spbias.stats.crossed import (variance_components, anova2, term_anova, pooled_terms, share_squares,
                                  satterthwaite, ESTIMANDS)
from spbias.formats.predictions import load_predictions
from spbias.stats.simulate import (SIM_METHODS, simulate_cells, sim_intervals, true_gaps, coverage_of, simulate_logit,
                                   logit_rates, crossed_intervals, base_logit)

ROOT = repo_root()
FILES = sorted(glob.glob(str(ROOT/"results"/"smollm2-135m"/"stage2"/"predictions"/"*.tsv.gz"))) + \
        sorted(glob.glob(str(ROOT/"results"/"smollm2-135m"/"template-families"/"predictions"/"*.tsv.gz")))
NS = (3, 5, 10, 15)
METRIC = "positive_FPR"
MAX_TEMPLATES = 120   # a larger set (NS-Prompts: 870 templates) is simulated at 120: its intervals are already narrow


def fit(path: str) -> dict:
    "A file's positive-FPR variance components and its shape, as the standard deviations of a generative crossed design."
    p = load_predictions(path)
    if "set" in p and p["set"].nunique() > 1: p = p[p["set"] == p["set"].iloc[0]]
    vc = variance_components(p, metrics=[METRIC])
    cat = vc.groupby("category").group.nunique().idxmax()          # the file's main attribute (most groups)
    v = vc[vc.category == cat]
    comp = v.pivot_table(index="group", columns="component", values="variance", dropna=False)
    lv = v.pivot_table(index="group", columns="component", values="n_levels")
    K = lv["term"].astype(int).to_numpy(); G = len(K); f = float(v.groupby("group").term_weight.first().mean())
    d = p[(p.category == cat) & (p.y_true != 2)]
    m = float((d.y_pred == 2).mean())
    med = lambda c: float(np.nanmedian(comp[c])) if c in comp and comp[c].notna().any() else 0.0
    pw, tw, e3 = med("prompt:term"), med("template:term"), med("term:residual")
    has_terms = "term" in comp and comp["term"].notna().any()
    if not has_terms:   # terms not estimable (one a group, or fillings that differ beyond the term): one term a group
        K, f = np.ones(G, int), (G - 1) / G   # one term a group, each in the centroid at 1/G
    res = max(e3 - m * (1 - m), 0) if has_terms else max(med("residual") / f - m * (1 - m), 0)
    sd = dict(prompt_group=np.sqrt(max(med("prompt") - f * pw, 0) * G / (G - 1)),
              template_group=np.sqrt(max(med("template") - f * tw, 0) * G / (G - 1)),
              term=np.sqrt(med("term")), prompt_term=np.sqrt(pw), template_term=np.sqrt(tw), residual=np.sqrt(res))
    T = int(lv["template"].iloc[0])
    return dict(category=cat, groups=G, terms=K.tolist(), templates=T, templates_simulated=min(T, MAX_TEMPLATES),
                prompts=int(lv["prompt"].iloc[0]),
                mean_rate=m, term_variance_estimable=bool(has_terms), sd={k: float(x) for k, x in sd.items()})


def run_design(f: dict, n: int, reps: int, n_boot: int, rng, chunk: int) -> dict:
    "Coverage (known gaps) and type-I error (no gap) of every method at n prompts, with Monte-Carlo SEs."
    G, K, T, sd = f["groups"], f["terms"], f["templates_simulated"], f["sd"]
    one = tuple(np.flatnonzero(np.asarray(K) == 1))   # groups of one term: held, as the interval holds them ("this term")
    out = {}
    for scenario, base in (("gaps", f["mean_rate"] + np.linspace(-.05, .05, G)), ("null", np.full(G, f["mean_rate"]))):
        truth, hits = true_gaps(base, sd, fixed=one), {m: [] for m in SIM_METHODS}; widths = {m: [] for m in SIM_METHODS}
        c = max(1, min(chunk, int(4e6 // (n * T * sum(K))), int(2e7 // (n_boot * T * G))))
        for s in range(0, reps, c):
            Y = simulate_cells(rng, min(c, reps - s), n, T, K, sd, base, fixed=one)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                iv = sim_intervals(Y, K, n_boot=n_boot, seed=int(rng.integers(2**31)))
            for m, (lo, hi) in iv.items():
                hits[m].append((lo <= truth) & (truth <= hi)); widths[m].append(hi - lo)
        for m in SIM_METHODS:
            h = np.concatenate(hits[m]); cov = float(h.mean()); se = float(np.sqrt(cov * (1 - cov) / h.size))
            r = out.setdefault(m, dict(intervals=int(h.size)))
            if scenario == "gaps": r.update(coverage=cov, coverage_mc_se=se, mean_width=float(np.nanmean(np.concatenate(widths[m]))))
            else: r.update(type_I=1 - cov, type_I_mc_se=se)
    return out


def check_against_package() -> None:
    "One small replicate through spbias's gap_table: the vectorised t, papers and crossed intervals must be the package's."
    from spbias.stats.metrics import gap_table
    rng = np.random.default_rng(7); K = [2, 3, 1]; P, T = 4, 6
    Y = simulate_cells(rng, 1, P, T, K, dict(prompt_group=.05, template_group=.1, term=.1), np.full(3, .4))
    tg = np.repeat(np.arange(3), K)
    p, t, w = (a.ravel() for a in np.meshgrid(np.arange(P), np.arange(T), np.arange(sum(K)), indexing="ij"))
    preds = pd.DataFrame(dict(y_true=1, y_pred=np.where(Y[0].ravel() == 1, 2, 1), category="sim", group=[f"g{tg[i]}" for i in w],
                              text=[f"T{a} about w{b} ." for a, b in zip(t, w)], model="sim", run_id="sim", dataset="sim",
                              run=[f"p{i}" for i in p], template_id=[f"t{i}" for i in t]))
    iv = sim_intervals(Y, K, methods=("t", "papers", "crossed"))
    for m in ("t", "papers", "crossed"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = gap_table(preds, top_k=None, ci=m, metrics=[METRIC]).sort_values("group")
        assert np.allclose(g.ci_low, iv[m][0][0]) and np.allclose(g.ci_high, iv[m][1][0]), (m, g, iv[m])
    # gaps to a reference group (g2: one term, held fixed), and terms in different templates (an incidence)
    from spbias.stats.metrics import gap_tables_by
    iv = sim_intervals(Y, K, methods=("t", "crossed"), reference=2)
    for m in ("t", "crossed"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = gap_tables_by(preds, top_k=None, ci=m, metrics=[METRIC], reference="g2")[0]
        g = g[g.gap_to == "g2"].sort_values("group")
        assert np.allclose(g.ci_low, iv[m][0][0]) and np.allclose(g.ci_high, iv[m][1][0]), (m, g, iv[m])
    inc = unbalanced_incidence(T, K); keep = inc[t, w]
    iv = sim_intervals(Y, K, methods=("t", "crossed"), incidence=inc)
    for m in ("t", "crossed"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = gap_table(preds[keep], top_k=None, ci=m, metrics=[METRIC]).sort_values("group")
        assert np.allclose(g.ci_low, iv[m][0][0]) and np.allclose(g.ci_high, iv[m][1][0]), (m, g, iv[m])


DESIGN_SD = {   # effects on the rate scale, near the fitted files' medians (per_file[...]["sd"] of coverage.json)
    "terms": dict(prompt_group=.02, template_group=.06, term=.05, prompt_term=.02, template_term=.05),
    "no terms": dict(prompt_group=.02, template_group=.06)}
DESIGN_TERMS = {"3 groups, 1-3 terms": [1, 2, 3], "6 groups, 1-3 terms": [2, 3, 1, 2, 2, 1]}


def unbalanced_incidence(T: int, K: list[int]) -> np.ndarray:
    """Which terms each template holds [T, W], shaped like the religion set: in 55% of the templates (adjectives) a
    group's terms but its last, in 20% ("… person") all of them, in 25% (nouns) only its last."""
    a, b = int(round(.55 * T)), int(round(.75 * T)); cols = []
    for k in K:
        m = np.ones((T, k), bool)
        if k > 1: m[:a, -1] = False; m[b:, :-1] = False
        cols.append(m)
    return np.concatenate(cols, axis=1)


KINDS = {   # what each grid measures; its file beside --out
    "centroid": ("coverage_designs.json", "a group's gap to the centroid"),
    "reference": ("coverage_reference.json", "a group's gap to a reference group of one term held fixed (like the "
                  "unmarked sentences), the reference's prompt and template effects random"),
    "unbalanced": ("coverage_unbalanced.json", "a group's gap to the centroid, its terms in different templates "
                   "(unbalanced_incidence: 55% of templates hold all but its last term, 20% all, 25% only its last)")}
UNBALANCED_TERMS = {"3 groups, 2-4 terms": [2, 3, 4], "6 groups, 1-4 terms": [1, 2, 3, 4, 2, 3]}


def designs(reps: int, n_boot: int, progress: bool = True, kind: str = "centroid") -> dict:
    "Coverage of the gap over the group's terms (no group effect) on designs of the real sets' shapes."
    from tqdm.auto import tqdm
    layouts = UNBALANCED_TERMS if kind == "unbalanced" else DESIGN_TERMS
    out, grid = {}, [(e, k, T, n) for e in DESIGN_SD for k in layouts for T in (30, 60) for n in NS]
    for i, (effects, k, T, n) in enumerate(tqdm(grid, desc=f"{kind} designs", disable=not progress)):
        rng, K, sd = np.random.default_rng([42, i] + ([] if kind == "centroid" else [len(kind)])), layouts[k], DESIGN_SD[effects]
        ref = len(K) if kind == "reference" else None
        if ref is not None: K = K + [1]
        inc = unbalanced_incidence(T, K) if kind == "unbalanced" else None
        base = np.full(len(K), .2); hits = {m: [] for m in SIM_METHODS}; width = {m: [] for m in SIM_METHODS}
        one = tuple(g for g in np.flatnonzero(np.asarray(K) == 1) if g != ref)   # held, as the interval holds them
        truth = true_gaps(base, sd, reference=ref, fixed=one)
        for s in range(0, reps, 250):
            Y = simulate_cells(rng, min(250, reps - s), n, T, K, sd, base, fixed=one + (() if ref is None else (ref,)))
            iv = sim_intervals(Y, K, n_boot=n_boot, seed=int(rng.integers(2**31)), reference=ref, incidence=inc)
            for m, (lo, hi) in iv.items(): hits[m].append((lo <= truth) & (truth <= hi)); width[m].append(hi - lo)
        res = {}
        for m in SIM_METHODS:
            h = np.concatenate(hits[m]); c = float(h.mean())
            res[m] = dict(coverage=c, mc_se=float(np.sqrt(c * (1 - c) / h.size)), type_I=1 - c, intervals=int(h.size),
                          mean_width=float(np.nanmean(np.concatenate(width[m]))))
        out[f"{effects} | {k} | {T} templates | n = {n}"] = dict(effects=effects, terms=K, templates=T, prompts=n, sd=sd,
                                                                 reference=ref, results=res)
    return out


# --models: generative models unlike the fitted one (issue 50). Logit-scale SDs; a design of five groups of 1, 2, 3, 5
# and 8 terms (every kind of group the real sets have), 40 templates, group logits spread around the base rate.
MODEL_TERMS = [1, 2, 3, 5, 8]
MODEL_TEMPLATES = 40
MODEL_SD = dict(prompt_group=.15, template_group=.4, term=.35, prompt_term=.25, template_term=.5, other_class=.3)
HETERO = [.875, .35, .875, .35, .35]   # the one-term group and the three-term group's terms vary 2.5 times as much
MODELS = {   # name: what differs from MODEL_SD's normal-logit design
    "logit": {},
    "prompt x template": dict(sd=dict(prompt_template=.4)),
    "skewed templates": dict(law="skewed"),
    "t3 templates": dict(law="t3"),
    "unequal terms by template type": dict(incidence=True),
    "heterogeneous term variance": dict(sd=dict(term=HETERO)),
    "all at once": dict(sd=dict(prompt_template=.4, term=HETERO), law="t3", incidence=True)}
MODEL_BASES = (.05, .5)
MODEL_NS = (3, 5, 15)
MODEL_SPREAD = np.array([-.3, -.15, 0., .15, .3])   # each group's logit around the base rate's
DF_BANDS = ((0, 4), (4, 8), (8, 16), (16, np.inf))
MODEL_METHODS = ("t", "papers", "bootstrap", "crossed", "crossed_before")


def crossed_before(Y: np.ndarray, K: list[int], inc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crossed interval as it was before issue 50, for comparison: SE of the unweighted mean over templates, one term
    variance pooled over the attribute (a one-term group's gap included), components at 0 dropped from Satterthwaite's sum."""
    from scipy import stats
    K = np.asarray(K); G = len(K); tg = np.repeat(np.arange(G), K); E = np.eye(G)[tg]
    num, den = np.einsum("rptw,tw,wg->rptg", Y, inc, E), inc @ E
    rg = num / den; D = np.moveaxis(rg - rg.mean(-1, keepdims=True), 3, 1).astype(float)
    a2 = anova2(D); P, T = a2["P"], a2["T"]
    a3 = pooled_terms([a for g in range(G) if K[g] > 1 if (a := term_anova(np.where(inc > 0, Y, np.nan)[..., tg == g]))])
    S = share_squares(inc.sum(0), tg); f = (1 - 1 / G) ** 2 * S + (S.sum() - S) / G ** 2
    on_p, on_t = (a2["MS_P"] > a2["MS_E"]) * 1., (a2["MS_T"] > a2["MS_E"]) * 1.
    parts = [(on_p / (P * T), a2["MS_P"], P - 1), (on_t / (P * T), a2["MS_T"], T - 1),
             ((1 - on_p - on_t) / (P * T), a2["MS_E"], (P - 1) * (T - 1))]
    if a3 is not None:
        MS = {k: (a3[f"SS_{k}"] / a3[f"df_{k}"])[..., None] for k in ("W", "PW", "TW", "E")}
        on = ((MS["W"] - MS["PW"] - MS["TW"] + MS["E"]) > 0) * f / (P * a3["T"])
        parts += [(on, MS["W"], a3["df_W"]), (-on, MS["PW"], a3["df_PW"]), (-on, MS["TW"], a3["df_TW"]),
                  (on, MS["E"], a3["df_E"])]
    var, df = satterthwaite(parts)
    rr = num.sum(2) / den.sum(0); m = (rr - rr.mean(-1, keepdims=True)).mean(1)
    half = stats.t.ppf(.975, np.where(np.isnan(df), 1, df)) * np.sqrt(var)
    return m - half, m + half


def _share(h: np.ndarray) -> dict:
    c = float(h.mean()) if h.size else float("nan")
    return dict(coverage=c, mc_se=float(np.sqrt(c * (1 - c) / h.size)) if h.size else float("nan"), intervals=int(h.size))


def model_cell(name: str, base_rate: float, n: int, reps: int, n_boot: int, seed: list, chunk: int = 100) -> dict:
    "Coverage of every method on one generative model, base rate and number of prompts, with Monte-Carlo SEs."
    spec = MODELS[name]; sd = MODEL_SD | spec.get("sd", {}); law = spec.get("law", "normal")
    K, T = MODEL_TERMS, MODEL_TEMPLATES; G = len(K)
    eta = base_logit(base_rate) + MODEL_SPREAD; base = np.exp(eta) / (2 + np.exp(eta))
    inc = (unbalanced_incidence(T, K) if spec.get("incidence") else np.ones((T, sum(K)), bool)).astype(np.float32)
    rng = np.random.default_rng(seed)
    hits = {m: [] for m in MODEL_METHODS}; width = {m: [] for m in MODEL_METHODS}; dfs = []
    marginal = logit_rates(base, sd, K, law, seed=seed[-1]); truth_all = marginal - marginal.mean(-1, keepdims=True)
    for s in range(0, reps, chunk):
        Y, te = simulate_logit(rng, min(chunk, reps - s), n, T, K, sd, base, law); Y = Y * inc
        r = logit_rates(base, sd, K, law, te, seed=seed[-1]); truth = r - r.mean(-1, keepdims=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            iv = sim_intervals(Y, K, methods=("t", "papers", "bootstrap"), n_boot=n_boot, seed=int(rng.integers(2**31)),
                               incidence=inc)
            c = crossed_intervals(Y, K, incidence=inc); iv["crossed"] = (c["low"], c["high"])
            iv["crossed_before"] = crossed_before(Y, K, inc)   # its claim: every group over its terms
        for m, (lo, hi) in iv.items():
            t = truth_all if m == "crossed_before" else truth
            hits[m].append((lo <= t) & (t <= hi)); width[m].append(hi - lo)
        dfs.append(c["df"]); estimand = c["estimand"]
    df = np.concatenate(dfs); out = {}
    for m in MODEL_METHODS:
        h, w = np.concatenate(hits[m]), np.concatenate(width[m])
        out[m] = _share(h) | dict(median_width=float(np.nanmedian(w)), groups=[
            _share(h[:, g]) | dict(terms=K[g], estimand=estimand[g] if m == "crossed" else
                                   ESTIMANDS["group"] if m == "crossed_before" else "these terms") for g in range(G)])
        if m in ("crossed", "crossed_before"):
            d = df if m == "crossed" else None
            if d is not None:
                out[m]["df_bands"] = {f"{lo:g}-{hi:g}": _share(h[(d >= lo) & (d < hi)]) for lo, hi in DF_BANDS}
    return dict(model=name, base_rate=base_rate, prompts=n, templates=T, terms=K, sd=sd, law=law,
                unequal_terms=bool(spec.get("incidence")), results=out)


def _why(cell: dict, method: str) -> str:
    "Why a cell covers above 0.995: its groups' K − 1 term df and its prompts' n − 1 df."
    g = [x for x in cell["results"][method]["groups"] if x["coverage"] > .995]
    parts = [f"{x['terms']}-term group {x['coverage']:.3f}" + (" (its term variance rests on 1 df)" if x["terms"] == 2
             else "") for x in g]
    if cell["prompts"] == 3: parts.append("3 prompts: the prompt component rests on 2 df")
    return "; ".join(parts) or "over all groups"


def model_summary(cells: dict) -> dict:
    "The headline: worst cell and worst group first, per method; then cells below 0.93 or above 0.995, and df bands."
    out = {}
    for m in MODEL_METHODS:
        cov = {k: c["results"][m] for k, c in cells.items()}
        worst = min(cov, key=lambda k: cov[k]["coverage"])
        groups = [(k, g) for k, c in cov.items() for g in c["groups"]]
        claim = [(k, g) for k, g in groups if g["estimand"].startswith("group over its terms")]
        wg = min(claim or groups, key=lambda kg: kg[1]["coverage"])
        out[m] = dict(worst_cell=dict(cell=worst, coverage=cov[worst]["coverage"], mc_se=cov[worst]["mc_se"]),
                      worst_group=dict(cell=wg[0], **wg[1]),
                      worst_one_term_group=min(([dict(cell=k, **g) for k, g in groups if g["terms"] == 1]),
                                               key=lambda g: g["coverage"]),
                      mean=float(np.mean([c["coverage"] for c in cov.values()])),
                      cells_below_93=sorted(k for k, c in cov.items() if c["coverage"] < .93),
                      cells_above_995={k: _why(cells[k], m) for k, c in cov.items() if c["coverage"] > .995},
                      groups_claiming_group_below_90=sum(g["coverage"] < .9 for _, g in claim))
    bands = {}
    for c in cells.values():
        for b, v in c["results"]["crossed"]["df_bands"].items():
            x = bands.setdefault(b, [0, 0]); x[0] += round(v["coverage"] * v["intervals"]) if v["intervals"] else 0
            x[1] += v["intervals"]
    out["crossed"]["df_bands"] = {b: dict(intervals=n, coverage=h / n if n else None,
                                          mc_se=float(np.sqrt((h / n) * (1 - h / n) / n)) if n else None)
                                  for b, (h, n) in bands.items()}
    return out


def run_models(reps: int, n_boot: int, out: Path, quick: bool = False, progress: bool = True) -> dict:
    "Every model × base rate × n cell (resumable: finished cells are kept in OUT.partial.json), then the headline."
    from tqdm.auto import tqdm
    grid = [(m, b, n) for m in MODELS for b in MODEL_BASES for n in MODEL_NS]
    if quick: grid = [("all at once", .5, 5), ("logit", .05, 3)]
    part = out.with_suffix(".partial.json"); cells = {}
    if part.is_file() and not quick:
        old = json.loads(part.read_text())
        if (old.get("replicates"), old.get("n_boot")) == (reps, n_boot): cells = old["cells"]
    t0 = time.perf_counter()
    for i, (m, b, n) in enumerate(tqdm(grid, desc="models", disable=not progress)):
        key = f"{m} | base {b:g} | n = {n}"
        if key in cells: continue
        cells[key] = model_cell(m, b, n, reps, n_boot, [50, i])   # one stream per cell: a resumed run draws the same
        if not quick: atomic_write_json(part, dict(replicates=reps, n_boot=n_boot, cells=cells))
    summary = model_summary(cells)
    doc = dict(what="coverage of spbias gaps' 95% intervals of a group's positive-FPR gap on generative models unlike "
                    "the crossed interval's own: multinomial-logit sentences, prompt x template interaction, skewed and "
                    "t3 template effects, unequal term counts by template type, heterogeneous term variance",
               headline=dict(crossed=summary["crossed"]["worst_cell"] | dict(
                   worst_group=summary["crossed"]["worst_group"])),
               summary=summary, quick=quick, replicates=reps, n_boot=n_boot,
               truth=("a group of two or more terms: its expected rate over its terms' population; a group of one term: "
                      "its term's (the crossed estimand 'this term'); crossed_before is scored against every group over "
                      "its terms, its own claim; both by Monte Carlo over prompts and templates (logit_rates)"),
               seed="numpy default_rng([50, cell index])", cells=cells,
               seconds=round(time.perf_counter() - t0, 1),
               machine=dict(python=platform.python_version(), spbias=spbias.__version__,
                            cpu=platform.processor() or platform.machine(), load=list(np.round(os.getloadavg(), 2))))
    atomic_write_json(out, doc)
    if part.is_file() and not quick: part.unlink()
    return doc



def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few replicates on two files (the CI test): numbers too rough to trust")
    ap.add_argument("--reps", type=int, default=1000, help="replicates per file, n and scenario")
    ap.add_argument("--n-boot", type=int, default=200, help="bootstrap resamples per interval")
    ap.add_argument("--chunk", type=int, default=100, help="replicates simulated at once")
    ap.add_argument("--out", type=Path, default=ROOT/"benchmarks"/"results"/"coverage.json")
    ap.add_argument("--from-partial", action="store_true",
                    help="write --out from the files a stopped run finished (OUT.partial.json); the rest listed as missing")
    ap.add_argument("--designs", nargs="?", const="centroid", choices=list(KINDS),
                    help="instead: the grid of designs of the real sets' shapes: centroid gaps (coverage_designs.json), "
                         "gaps to a reference group (coverage_reference.json) or terms in different templates "
                         "(coverage_unbalanced.json), beside --out")
    ap.add_argument("--models", action="store_true",
                    help="instead: generative models unlike the fitted one (multinomial logit, prompt x template, skewed "
                         "and t3 templates, unequal terms by template type, heterogeneous term variance) x base rate 0.05, "
                         "0.5 x n = 3, 5, 15: coverage_models.json beside --out, worst cell and worst group first")
    a = ap.parse_args(argv)
    if a.models:
        reps, n_boot = (40, 100) if a.quick else (max(a.reps, 500) if a.reps else 500, a.n_boot)
        out = a.out.with_name("coverage_models.json")
        doc = run_models(reps, n_boot, out, quick=a.quick, progress=not a.quick)
        s = doc["summary"]
        for m, v in s.items():
            w, g = v["worst_cell"], v["worst_group"]
            print(f"{m:>15}: worst cell {w['coverage']:.3f} (MC SE {w['mc_se']:.3f}, {w['cell']}); worst group "
                  f"{g['coverage']:.3f} ({g['terms']} terms, {g['cell']}); mean {v['mean']:.3f}; "
                  f"{len(v['cells_below_93'])} cells below 0.93, {len(v['cells_above_995'])} above 0.995")
        print("crossed by df band:", {b: (v["intervals"], None if v["coverage"] is None else round(v["coverage"], 3))
                                      for b, v in s["crossed"]["df_bands"].items()}, f"; wrote {out}")
        return 0
    if a.designs:
        reps, n_boot = (40, 100) if a.quick else (a.reps, a.n_boot)
        t0 = time.perf_counter(); res = designs(reps, n_boot, progress=not a.quick, kind=a.designs)
        name, what = KINDS[a.designs]; out = a.out.with_name(name)
        dist = {m: float(np.mean([abs(r["results"][m]["coverage"] - .95) for r in res.values()])) for m in SIM_METHODS}
        atomic_write_json(out, dict(what=f"coverage of 95% intervals of {what} (no group effect in the population) on "
                                         "simulated crossed designs of the real sets' shapes", kind=a.designs,
                                    quick=a.quick, replicates=reps, n_boot=n_boot, designs=res, mean_distance_from_95=dist,
                                    closest_to_95=min(dist, key=dist.get), seed="numpy default_rng([42, design index"
                                    + ("]" if a.designs == "centroid" else f", {len(a.designs)}]") + ")",
                                    seconds=round(time.perf_counter() - t0, 1),
                                    machine=dict(python=platform.python_version(), spbias=spbias.__version__,
                                                 cpu=platform.processor() or platform.machine(),
                                                 load=list(np.round(os.getloadavg(), 2)))))
        for k, r in res.items(): print(k, " ".join(f"{m} {v['coverage']:.3f}" for m, v in r["results"].items()))
        print("mean |coverage - 0.95|:", {m: round(v, 4) for m, v in dist.items()}, f"; wrote {out}")
        return 0
    reps, n_boot, files = (40, 100, FILES[:2]) if a.quick else (a.reps, a.n_boot, FILES)
    from tqdm.auto import tqdm
    t0 = time.perf_counter(); check_against_package()
    per_file = {}
    part = a.out.with_suffix(".partial.json")   # finished files, so a stopped run resumes where it was
    if part.is_file() and not a.quick:
        old = json.loads(part.read_text())
        if (old.get("replicates"), old.get("n_boot")) == (reps, n_boot): per_file = old["per_file"]
    for i, path in enumerate(tqdm(files, desc="files")):
        key = str(Path(path).relative_to(ROOT))
        if key in per_file or a.from_partial: continue
        rng = np.random.default_rng([41, i])   # one stream per file: a resumed run draws what a whole run would
        f = fit(path)
        f["results"] = {str(n): run_design(f, n, reps, n_boot, rng, a.chunk) for n in NS}
        per_file[key] = f
        if not a.quick: atomic_write_json(part, dict(replicates=reps, n_boot=n_boot, per_file=per_file))
    missing = [str(Path(p).relative_to(ROOT)) for p in files if str(Path(p).relative_to(ROOT)) not in per_file]
    if not per_file: raise SystemExit(f"no finished file in {part}: run without --from-partial first")
    pooled = {}
    for n in map(str, NS):
        for m in SIM_METHODS:
            rs = [f["results"][n][m] for f in per_file.values()]
            pooled.setdefault(n, {})[m] = dict(
                coverage=float(np.mean([r["coverage"] for r in rs])), coverage_min=float(min(r["coverage"] for r in rs)),
                coverage_max=float(max(r["coverage"] for r in rs)), type_I=float(np.mean([r["type_I"] for r in rs])),
                type_I_max=float(max(r["type_I"] for r in rs)), files=len(rs),
                coverage_mc_se=float(np.sqrt(sum(r["coverage_mc_se"] ** 2 for r in rs)) / len(rs)))
    doc = dict(what="coverage and type-I error of spbias gaps' 95% intervals of a group's positive-FPR gap, simulated from "
                    "each predictions file's fitted variance components (prompts, templates, identity terms crossed)",
               estimand="the group's gap over its possible terms, templates and prompts", quick=a.quick, replicates=reps,
               n_boot=n_boot, ns=list(NS), methods=list(SIM_METHODS), results=pooled, per_file=per_file,
               complete=not missing, files_missing=missing,
               seconds=round(time.perf_counter() - t0, 1),
               machine=dict(python=platform.python_version(), spbias=spbias.__version__, cpu=platform.processor() or platform.machine(),
                            load=list(np.round(os.getloadavg(), 2))))
    atomic_write_json(a.out, doc)
    if part.is_file() and not a.quick and not missing: part.unlink()
    for n, r in pooled.items():
        print(f"n = {n:>2}: " + ", ".join(f"{m} {v['coverage']:.3f} [{v['coverage_min']:.2f}-{v['coverage_max']:.2f}] "
                                          f"type-I {v['type_I']:.3f}" for m, v in r.items()))
    print(f"wrote {a.out} ({doc['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
