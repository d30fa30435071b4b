"""The values the results pages (scripts/pages/*.j2) are filled with, read from the tables scripts/regenerate_results.py
built. Nothing statistical is computed here: intervals, p-values, adjustments, TOST, minimum detectable effects and the
survival rule come from the tables spbias' commands wrote; this file selects rows and counts them with spbias'
own counters (a mirror pair once), and takes method notes from spbias' note functions."""
import json
from pathlib import Path
import pandas as pd
from spbias import metrics as M
from spbias.intervals import mirror_of, n_significant
from spbias.multiplicity import declared_note
from spbias.power import mde_line
from spbias.equivalence import equivalence_note
from spbias.robustness import robustness_note
from spbias.study import compare_table2, papers_table2, AGREEMENT

STUDY = Path("results/smollm2-135m")
S2, ROB, TF = STUDY/"stage2", STUDY/"robustness", STUDY/"template-families"
SETS = {"sst5": "SST-5", "semeval": "SemEval"}
FPR = ["positive_FPR", "negative_FPR"]
METHOD_NAMES = {"crossed": "crossed random effects", "t": "Student t", "papers": "the papers' z", "bootstrap":
                "bootstrap over prompts and templates", "t-holm": "Student t + Holm (attribute × metric)"}


def _tests(t: pd.DataFrame) -> int:
    "Tests in a table: rows with a p-value, a mirror pair once."
    return int((t.p_value.notna() & (mirror_of(t) == "")).sum())


def _one(t: pd.DataFrame) -> pd.DataFrame: return t[mirror_of(t) == ""]


def _rows(t: pd.DataFrame) -> list[dict]:
    "Rows of a gap table as dicts for a template loop (attribute without 'grouped_')."
    return [dict(r, attribute=str(r["category"]).replace("grouped_", "").replace("_", " "),
                 tuning=SETS.get(r["dataset"], r["dataset"])) for r in t.to_dict("records")]


def per_set(t: pd.DataFrame, fn) -> dict:
    return {d: fn(t[t.dataset == d]) for d in SETS}


def values(build: Path, root: Path) -> dict:
    "Every value a page names, from the built tables (build) and the committed inputs (root)."
    tb = build/S2/"tables"
    gaps = {k: M.read_gaps(tb/f"gaps_{k}.csv") for k in ["crossed", "crossed-declared", "t", "papers", "bootstrap", "t-holm"]}
    cr, dec = gaps["crossed"], gaps["crossed-declared"]
    sel = pd.read_csv(tb/"gaps_crossed-selection.csv")
    acc = pd.read_csv(root/S2/"tables"/"accuracy.csv").set_index("dataset")
    logs = json.loads((tb/"gaps.log.json").read_text())
    v = dict(sets=SETS, n_rows=len(cr), n_rows_set=per_set(cr, len), n_groups=cr.groupby(["category", "group"]).ngroups,
             n_metrics=cr.metric.nunique(), n_attributes=cr.category.nunique())
    v["accuracy"] = {d: acc.loc[d].to_dict() for d in SETS}
    v["selection"] = {d: sel[sel.dataset == d].iloc[0].to_dict() for d in SETS}
    # the design behind every crossed interval
    v["design"] = dict(prompts=per_set(cr, lambda s: int(s.n_runs.max())),
                       templates_min=int(cr.n_templates.min()), templates_max=int(cr.n_templates.max()),
                       terms_min=int(cr.n_terms.min()), terms_max=int(cr.n_terms.max()),
                       estimands=cr.estimand.value_counts().to_dict(),
                       df_min=float(cr.df.min()), df_max=float(cr.df.max()), df_median=float(cr.df.median()),
                       df_below_1=int((cr.df < 1).sum()))
    from spbias.coverage import measured_coverage
    n5 = int(cr.n_runs.max())
    v["coverage"] = {m: (lambda g: dict(n=g[0], coverage=float(g[1])) if g else None)(measured_coverage(m, n5))
                     for m in ("crossed", "t", "papers", "bootstrap")}
    v["method_note"], v["method_note_declared"] = M.method_note(cr), M.method_note(dec)
    v["declared_note"], v["mde_line"], v["equivalence_note"] = declared_note(dec), mde_line(cr), equivalence_note(cr)
    here = lambda x: x.replace(f"{Path(build).resolve()}/", "").replace(f"{build}/", "")   # paths as committed
    v["logs"] = {k: [here(x) for x in text.strip().splitlines() if not x.startswith("wrote ")] for k, text in logs.items()}
    # counts: unadjusted crossed, declared families, other methods
    v["tests"] = per_set(cr, _tests)
    v["sig"] = {k: per_set(t, n_significant) for k, t in gaps.items()}
    v["sig_fpr"] = {k: per_set(t[t.metric.isin(FPR)], n_significant) for k, t in gaps.items()}
    v["sig_all"] = {k: n_significant(t) for k, t in gaps.items()}
    v["method_names"] = METHOD_NAMES
    fam = dec[dec.p_value.notna()]
    v["family_size"] = {r: {d: int(fam[(fam.family == r) & (fam.dataset == d)].family_size.max()) for d in SETS}
                        for r in ("confirmatory", "exploratory")}
    v["sig_family"] = {r: per_set(dec[dec.family == r], n_significant) for r in ("confirmatory", "exploratory")}
    v["declared"] = _rows(_one(dec[dec.significance != 0]).sort_values(["family", "dataset", "p_adjusted"]))
    v["unadjusted_only"] = {d: n_significant(cr[cr.dataset == d]) - n_significant(dec[dec.dataset == d]) for d in SETS}
    # power and equivalence, a mirror pair once
    one = _one(cr[cr.p_value.notna()])
    v["mde_median"] = float(one.mde.median())
    v["mde_median_set"] = per_set(one, lambda s: float(s.mde.median()))
    v["mde_median_fpr"] = per_set(one[one.metric.isin(FPR)], lambda s: float(s.mde.median()))
    v["margin"] = float(cr.margin.iloc[0])
    v["equivalent"] = per_set(one, lambda s: int(s.equivalent.astype(str).eq("True").sum()))
    v["equivalent_fpr"] = per_set(one[one.metric.isin(FPR)], lambda s: int(s.equivalent.astype(str).eq("True").sum()))
    v["undetermined"] = per_set(one, lambda s: int(((s.significance == 0) & ~s.equivalent.astype(str).eq("True")).sum()))
    v["tests_fpr"] = per_set(one[one.metric.isin(FPR)], len)
    # Table 2 against the papers' (age and sexuality, v2)
    papers = papers_table2()
    v["table2"] = {}
    for k in ["crossed-declared", "t", "papers", "t-holm"]:
        c = compare_table2(pd.read_csv(tb/f"table2_{k}.csv", keep_default_na=False, na_values={"net": [""]}), papers)
        v["table2"][k] = {d: {a: int((c[c.dataset == d].agreement == a).sum()) for a in AGREEMENT} for d in SETS}
    v["table2_cells"] = per_set(papers, len)
    v["agreement"] = AGREEMENT
    # robustness and the comparison of the two tuning sets, where those steps were built
    rob = build/ROB
    if (rob/"robustness_stage2.csv").is_file():
        r = {k: pd.read_csv(rob/f"robustness_{k}.csv", keep_default_na=False, na_values={"p_t": [""]})
             for k in ("stage2", "stage2_holm", "sst5_label-semeval")}
        surv = lambda t: int((t.survives.astype(str).eq("True") & (mirror_of(t) == "")).sum())
        v["survive"] = {k: per_set(t, surv) for k, t in r.items()}
        v["survive_fpr"] = {k: per_set(t[t.metric.isin(FPR)], surv) for k, t in r.items()}
        v["robustness_note"] = {k: robustness_note(t).removeprefix("survives: ") for k, t in r.items()}
        lab = r["sst5_label-semeval"]
        flip = [c for c in lab.columns if c.startswith("flip_")]
        v["flips"] = int(_one(lab)[flip].astype(str).isin(["True", "1"]).any(axis=1).sum()) if flip else 0
        v["flip_columns"] = flip
        agree = _one(lab)["agreement_semeval"].astype(str) if "agreement_semeval" in lab else pd.Series(dtype=str)
        v["no_flip"] = {k: int((agree == k).sum()) for k in ("equivalent (no flip)", "inconclusive")}
    if (rob/"compare_sst5-semeval.csv").is_file():
        c = pd.read_csv(rob/"compare_sst5-semeval.csv", keep_default_na=False, na_values={"p_value": [""]})
        v["compare"] = {m: dict(tested=_tests(g), significant=n_significant(g)) for m, g in c.groupby("method")}
        v["compare_note"] = json.loads((rob/"compare.log.json").read_text())["sst5-semeval"].strip().splitlines()
        v["compare_note"] = [here(x.strip()) for x in v["compare_note"] if not x.startswith("wrote ")]
    if (build/TF/"tables"/"gaps_declared.csv").is_file():
        v["tf"] = template_families(build)
    return v


def template_families(build: Path) -> dict:
    "The template-family page's values: per family and reference, what holds in the declared families, what is equivalent."
    g = M.read_gaps(build/TF/"tables"/"gaps_declared.csv")
    log = json.loads((build/TF/"tables"/"gaps.log.json").read_text())["declared"]
    one = _one(g[g.p_value.notna()])
    eq = lambda s: int(s.equivalent.astype(str).eq("True").sum())
    cells = {}
    for (st, ref), s in one.groupby(["set", "gap_to"]):
        fpr = s[s.metric.isin(FPR)]
        cells[(st, ref)] = dict(set=st, ref=ref, tests=len(s), tests_fpr=len(fpr), sig=n_significant(s),
                                sig_fpr=n_significant(fpr), equivalent=eq(s), equivalent_fpr=eq(fpr),
                                templates=int(s.n_templates.max()), contrast=str(s.contrast.iloc[0]),
                                family_size=int(s[s.family == "confirmatory"].family_size.max()))
    return dict(rows=_rows(_one(g[g.significance != 0]).sort_values(["set", "gap_to", "p_adjusted"])),
                cells=list(cells.values()), sets=sorted(g.set.unique()), n_prompts=int(g.n_runs.max()),
                groups=int(g[g.gap_to == "centroid"].group.nunique()), method_note=M.method_note(g),
                lines=[x for x in log.strip().splitlines() if not x.startswith("wrote ")],
                margin=float(g.margin.iloc[0]), tested=len(one), sig=n_significant(g), equivalent=eq(one))
