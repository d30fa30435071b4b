"""The values the results pages (scripts/pages/*.j2) are filled with, read from the tables scripts/regenerate_results.py
built. Nothing statistical is computed here: intervals, p-values, adjustments, TOST, minimum detectable effects and the
survival rule come from the tables spbias' commands wrote; this file selects rows and counts them with spbias'
own counters (a mirror pair once), and takes method notes from spbias' note functions."""
import json
from pathlib import Path
import numpy as np, pandas as pd
from spbias.stats import metrics as M
from spbias.stats.intervals import mirror_of, n_significant
from spbias.stats.multiplicity import declared_note, n_families, verdict_note
from spbias.stats.power import mde_line, mde_spread
from spbias.stats.equivalence import Margin, equivalence_note
from spbias.report.robustness import robustness_note
from spbias.report.study import compare_table2, papers_table2, AGREEMENT

STUDY = Path("results/smollm2-135m")
S2, ROB, TF = STUDY/"stage2", STUDY/"robustness", STUDY/"template-families"
SETS = {"sst5": "SST-5", "semeval": "SemEval"}
FPR = ["positive_FPR", "negative_FPR"]
METHOD_NAMES = {"crossed": "crossed random effects", "t": "Student t", "papers": "the papers' z", "bootstrap":
                "bootstrap over prompts and templates", "t-holm": "Student t + Holm (attribute × metric)",
                "crossed-posthoc": "crossed, the earlier post hoc family (Holm / BY)"}
ALPHA = 0.05


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


def selection_all(sel: pd.DataFrame) -> dict:
    ("Per tuning set, the top k against every tuned prompt (gaps --selection on predictions-all): counts over the "
     "tests (a mirror pair once) and the set's own figures (its first row), as the selection table holds them.")
    out = {}
    for d in SETS:
        s = _one(sel[sel.dataset == d]); first = s.iloc[0].to_dict()
        out[d] = first | dict(tests=len(s), changed=int(s.significance_changed.sum()),
                              shift_abs_median=float(s["shift"].abs().median()), shift_abs_max=float(s["shift"].abs().max()),
                              shift_tests=int(s.shift_p.notna().sum()), shift_sig=int((s.shift_p < ALPHA).sum()),
                              shift_sig_holm=int((s.shift_p_holm < ALPHA).sum()),
                              slope_sig_holm=int((s.slope_p_holm < ALPHA).sum()),
                              sig_top=int((s.significance_top != 0).sum()), sig_all=int((s.significance_all != 0).sum()))
    return out


def values(build: Path, root: Path) -> dict:
    "Every value a page names, from the built tables (build) and the committed inputs (root)."
    tb = build/S2/"tables"
    gaps = {k: M.read_gaps(tb/f"gaps_{k}.csv") for k in ["crossed", "crossed-declared", "crossed-posthoc", "t", "papers",
                                                          "bootstrap", "t-holm"]}
    cr, dec, post = gaps["crossed"], gaps["crossed-declared"], gaps["crossed-posthoc"]
    sel = pd.read_csv(tb/"gaps_crossed-selection.csv")
    acc = pd.read_csv(root/S2/"tables"/"accuracy.csv").set_index("dataset")
    logs = json.loads((tb/"gaps.log.json").read_text())
    v = dict(sets=SETS, n_rows=len(cr), n_rows_set=per_set(cr, len), n_groups=cr.groupby(["category", "group"]).ngroups,
             n_metrics=cr.metric.nunique(), n_attributes=cr.category.nunique())
    v["accuracy"] = {d: acc.loc[d].to_dict() for d in SETS}
    v["selection"] = {d: sel[sel.dataset == d].iloc[0].to_dict() for d in SETS}
    v["selection_all"] = selection_all(pd.read_csv(tb/"gaps_all-prompts-selection.csv"))
    # the design behind every crossed interval
    v["design"] = dict(prompts=per_set(cr, lambda s: int(s.n_runs.max())),
                       templates_min=int(cr.n_templates.min()), templates_max=int(cr.n_templates.max()),
                       terms_min=int(cr.n_terms.min()), terms_max=int(cr.n_terms.max()),
                       estimands=cr.estimand.value_counts().to_dict(),
                       df_min=float(cr.df.min()), df_max=float(cr.df.max()), df_median=float(cr.df.median()),
                       df_below_1=int((cr.df < 1).sum()))
    from spbias.stats.coverage import measured_coverage
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
    # the confirmatory claims (the committed family file), each with what became of it, and the study-wide error rate
    claims = _one(dec[dec.family == "confirmatory"])
    v["family_file"] = str(claims.confirmatory_family.iloc[0])
    v["claims"] = _rows(claims.sort_values(["dataset", "category", "group", "metric"], ascending=[False, True, True, True]))
    v["claims_n"] = per_set(claims, len)
    v["claims_holds"] = per_set(claims, lambda s: int((s.verdict == "holds").sum()))
    v["verdict_note"] = verdict_note(dec)
    v["study_families"] = n_families(dec); v["study_error"] = min(1.0, v["study_families"] * ALPHA)
    v["mde_claims"] = per_set(claims, lambda s: mde_spread(s.mde_family))   # at Holm's level α/m
    v["alpha_claims"] = per_set(claims, lambda s: float(s.alpha_family.max()))
    # the family used before issue 50, chosen after the data were seen: what held under it
    pc = post[post.family == "confirmatory"]
    v["posthoc"] = dict(family_size=per_set(pc[pc.p_value.notna()], lambda s: int(s.family_size.max())),
                        sig=per_set(pc, n_significant), note=declared_note(post),
                        rows=_rows(_one(pc[pc.significance != 0]).sort_values(["dataset", "p_adjusted"])))
    # power and equivalence, a mirror pair once
    one = _one(cr[cr.p_value.notna()])
    v["mde_median"] = float(one.mde.median())   # every gap has one at α 0.05 in this study (none beyond [−1, 1])
    v["mde_median_set"] = per_set(one, lambda s: float(s.mde.median()))
    v["mde_median_fpr"] = per_set(one[one.metric.isin(FPR)], lambda s: float(s.mde.median()))
    v["margin"] = float(cr.margin.iloc[0])
    v["margin_said"] = Margin(v["margin"], str(cr.margin_scale.iloc[0])).said
    # equivalence in the declared families: TOST adjusted as significance is (Holm / BY)
    od = _one(dec[dec.p_value.notna()])
    v["equivalent"] = per_set(od, lambda s: int(s.equivalent.astype(str).eq("True").sum()))
    v["equivalent_fpr"] = per_set(od[od.metric.isin(FPR)], lambda s: int(s.equivalent.astype(str).eq("True").sum()))
    v["undetermined"] = per_set(od, lambda s: int(((s.significance == 0) & ~s.equivalent.astype(str).eq("True")).sum()))
    v["equivalent_note_declared"] = equivalence_note(dec)
    v["tests_fpr"] = per_set(one[one.metric.isin(FPR)], len)
    # Table 2 against the papers' (age and sexuality, v2)
    papers = papers_table2()
    v["table2"] = {}
    for k in ["crossed-declared", "crossed-posthoc", "t", "papers", "t-holm"]:
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
        v["robustness_margin"] = float(r["sst5_label-semeval"].margin.iloc[0])
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
    if (rob/"manual.log.json").is_file():
        v["manual"] = manual(build, here)
    if (build/LE/"agreement.json").is_file():
        v["le"] = lm_eval(build)
    if (build/SB/"seeds.csv").is_file():
        v["sb"] = semeval_budget(build, root)
    if (build/TF/"tables"/"gaps_declared.csv").is_file():
        v["tf"] = template_families(build)
    if (build/FIELD/"tables").is_dir():
        v["field"] = field(build)
    return v


FIELD = Path("results/field-reanalysis")
# the re-analysis' own sets, model names and named contrasts (scripts/field_reanalysis.py, beside this file)
from field_reanalysis import SETS as _SETS, MODELS as _FILE_MODELS, PATH_NAMES, CONTRASTS, _short
FIELD_SETS = list(_SETS)
NAMED = [(_FILE_MODELS[a], _FILE_MODELS[b]) for a, b in CONTRASTS.values()]   # the page's named contrasts, A − B


def _model(m) -> str: return PATH_NAMES.get(_short(m), str(m))


def _mde(x) -> str:
    "A minimum detectable gap as the page writes it (none where no gap in [−1, 1] reaches 80% power)."
    from spbias.report.pages import num
    return "not detectable" if pd.isna(x) else num(x, 3)


def _p(x) -> str:
    "A p-value as the page writes it (none where the gap has no variance to test)."
    from spbias.report.pages import num
    return "none (not tested)" if pd.isna(x) else num(x, 3)


def _verdict(r) -> str:
    "A confirmatory claim's reading: significant in the claimed direction (holds), the other, or neither."
    if pd.isna(r["p_value"]): return "not tested: the same rate for every group in every prompt (no variance)"
    if r["significance"] == 1: return "holds (significant, above)"
    if r["significance"] == -1: return "contradicted (significant, below)"
    return "not significant" + ("; equivalent to 0 within the margin" if str(r["equivalent"]) == "True" else "")


def field(build: Path) -> dict:
    "The field re-analysis' values: its tables and the commands' lines (scripts/field_reanalysis.py)."
    t = build/FIELD/"tables"
    log = json.loads((build/FIELD/"commands.log.json").read_text())
    v = dict(sets=FIELD_SETS, models=list(_FILE_MODELS.values()), named=NAMED, set={})
    q = pd.read_csv(t/"quality.csv").assign(name=lambda d: d.model.map(_model))
    v["quality"] = [dict(model=m, val_mean=g.validation_accuracy.mean(), val_min=g.validation_accuracy.min(),
                         val_max=g.validation_accuracy.max(), test_mean=g.test_accuracy.mean(),
                         **{f"acc_{s}": g[g.set == s].set_accuracy.mean() for s in FIELD_SETS})
                    for m, g in q.groupby("name", sort=False)]
    pairs = pd.read_csv(t/"pairs.csv")
    for s in FIELD_SETS:
        g = M.read_gaps(t/f"gaps_{s}.csv"); lines = log[f"gaps {s}"].splitlines()
        conf = g[(g.group == "white") & (g.metric == "negative_FPR")]
        one = _one(g)
        pw = pd.read_csv(t/f"power_{s}.csv"); pw = pw[pw.metric == "negative_FPR"]
        pr = pairs[pairs.set == s]
        v["set"][s] = dict(
            recovered=next(x for x in lines if "template ids" in x).removeprefix("spbias gaps: "),
            rows_per_prompt=int(q[q.set == s].rows.iloc[0]), templates=int(g.n_templates.max()),
            tests=_tests(g), significant=n_significant(g), note=M.method_note(g), mde=mde_line(g),
            equivalent=int((one.equivalent.astype(str) == "True").sum()),
            confirmatory=[dict(model=_model(r["model"]), **{k: r[k] for k in ("gap_mean", "ci_low", "ci_high")},
                          p_value=_p(r["p_value"]), p_adjusted=_p(r["p_adjusted"]), mde_family=_mde(r["mde_family"]), verdict=_verdict(r))
                          for r in conf.to_dict("records")],
            holds=int((conf.significance == 1).sum()),
            power=[dict(model=_model(r["model"]), mde=_mde(r["mde"]),
                        **{k: ("none alone" if pd.isna(r[f"{k}_needed"]) else f"{int(r[f'{k}_needed']):,}")
                           for k in ("prompts", "templates", "terms")}) for r in pw.to_dict("records")],
            pair_tests=len(pr), pair_significant=int(pr.significant_family.sum()),
            pairs_all=pr[["a", "b"]].drop_duplicates().shape[0],
            white_pairs=[dict(r) for r in pr[(pr.group == "white") & (pr.metric == "negative_FPR")].to_dict("records")])
        v["set"][s]["named_significant"] = sum(bool(r["significant_family"]) for r in v["set"][s]["white_pairs"]
                                               if (r["a"], r["b"]) in NAMED)
    conf = pd.concat([M.read_gaps(t/f"gaps_{s}.csv") for s in FIELD_SETS])
    conf = conf[conf.family == "confirmatory"]
    v["named_significant"] = sum(v["set"][s]["named_significant"] for s in FIELD_SETS)
    v["study"] = dict(tests=len(conf), union=min(1.0, 0.05 * len(conf)), bonferroni=0.05 / len(conf),
                      holds_bonferroni=int(((conf.p_value < 0.05 / len(conf)) & (conf.significance == 1)).sum()),
                      holds=int((conf.significance == 1).sum()),
                      equivalent=int((conf.equivalent.astype(str) == "True").sum()))
    r = pd.read_csv(t/"robustness_sets.csv", keep_default_na=False, na_values={"p_t": [""]})
    one, labels = _one(r), ["NS-prompts", "regard"]
    v["robustness_note"] = robustness_note(r).removeprefix("survives: ")
    v["robust"] = dict(rows=len(one), survive=int(one.survives.astype(str).eq("True").sum()),
                       agreement={k: one[f"agreement_{k}"].astype(str).value_counts().to_dict() for k in labels},
                       flips={k: int(one[f"flip_{k}"].astype(str).isin(["True", "1"]).sum()) for k in labels},
                       white=[dict(model=_model(x["model"]), amazon=float(x["gap_mean"]),
                                   **{k: float(x[f"gap_{k}"]) for k in labels},
                                   **{f"agree_{k}": str(x[f"agreement_{k}"]) for k in labels})
                              for x in one[(one.group == "white") & (one.metric == "negative_FPR")].to_dict("records")])
    return v


def manual(build: Path, here) -> dict:
    "The manual 4-shot baseline's values: tests, significant differences, survivors, and what the commands printed."
    rob = build/ROB
    read = lambda n, p: pd.read_csv(rob/f"{n}.csv", keep_default_na=False, na_values={p: [""]})
    c, mc = read("compare_soft-manual", "p_value"), read("mcnemar_soft-manual", "p_value")
    surv = lambda t: int((t.survives.astype(str).eq("True") & (mirror_of(t) == "")).sum())
    r = {k: read(f"robustness_{k}", "p_t") for k in ("soft_label-manual", "manual")}
    lab = _one(r["soft_label-manual"])
    log = json.loads((rob/"manual.log.json").read_text())
    return dict(attributes=sorted(c.category.str.replace("grouped_", "").unique()),
                compare={m: dict(tested=_tests(g), significant=n_significant(g)) for m, g in c.groupby("method")},
                n=int(c.n_a.max()), pairs=len(mc.drop_duplicates(["prompt_a", "prompt_b"])), tests=len(_one(r["manual"])),
                survive={k: surv(t) for k, t in r.items()},
                agreement={k: int((lab["agreement_manual"].astype(str) == k).sum())
                           for k in ("equivalent (no flip)", "inconclusive")},
                note={k: robustness_note(t).removeprefix("survives: ") for k, t in r.items()},
                lines={k: [here(x.strip()) for x in t.strip().splitlines() if not x.startswith("wrote ")]
                       for k, t in log.items()})


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
                margin=float(g.margin.iloc[0]), margin_said=Margin(float(g.margin.iloc[0]), str(g.margin_scale.iloc[0])).said,
                tested=len(one), sig=n_significant(g), equivalent=eq(one))


SB = STUDY/"semeval-budget"
FIRST = STUDY/"stage2-runs"/"smollm2"/"semeval"/"lr0.001-n8-s1001-1015"   # the first study's SemEval run
LEVEL, AT = 0.55, 1000   # a landmark validation accuracy; the step at which the two losses are compared


def semeval_budget(build: Path, root: Path) -> dict:
    """The budget experiment's page values: per-seed rows (seeds.csv), curve landmarks and slopes (curves.csv), the two
    losses at one step (Welch t), a Clopper–Pearson bound on the share of seeds that learn,
    the like-for-like table."""
    import yaml
    from scipy import stats
    from statsmodels.stats.proportion import proportion_confint
    seeds, curves = pd.read_csv(build/SB/"seeds.csv"), pd.read_csv(build/SB/"curves.csv")
    lfl = pd.read_csv(root/SB/"like_for_like.csv")
    cfg = {r: json.loads((root/SB/"runs"/r/"config.json").read_text()) for r in seeds.run.unique()}
    first = json.loads((root/FIRST/"config.json").read_text())
    papers = yaml.safe_load((root/"sweeps"/"smollm2-papers.yaml").read_text())["params"]
    why = {"early_stopped": "early stop", "max_steps": "the run's cap"}
    # seeds.csv keeps 4 decimals: the kept step's validation accuracy at full precision from curves.csv
    full = curves.set_index(["run", "seed", "step"]).eval_accuracy
    seeds["best_validation_accuracy"] = [full[(r.run, r.seed, r.best_step)] for r in seeds.itertuples()]
    v = dict(seeds=[dict(r, why=why.get(r["status"], r["status"])) for r in seeds.to_dict("records")],
             runs={r: c["run"] for r, c in cfg.items()}, first=first["run"],
             first_validation=first["split_sizes"]["validation"], papers=papers)
    s0 = seeds.iloc[0]
    v["lr"] = f"{cfg['full_vocab']['run']['lr']:.0e}".replace("e-0", "e-")   # 1e-3, as the configs are written
    v.update(validation_size=int(s0.validation_size), test_size=int(s0.test_size),
             validation_majority=float(s0.validation_majority), test_majority=float(s0.test_majority))
    fv = seeds[seeds.run == "full_vocab"]
    beat = fv[fv.test_ci_low > fv.test_majority]
    v["beat"] = dict(k=len(beat), n=len(fv), lowest=float(fv.test_ci_low.min()),
                     above=float(fv.test_ci_low.min() - s0.test_majority),
                     # one-sided 95% lower bound on the share of seeds that beat the majority (Clopper–Pearson)
                     lower=float(proportion_confint(len(beat), len(fv), alpha=0.10, method="beta")[0]))
    budget = int(first["run"]["max_steps"])
    near = int(curves.step[curves.step >= budget].min())   # the evaluation nearest the first study's budget
    cv = curves[curves.run == "full_vocab"]
    first_at = lambda c, x: int(c[c.eval_accuracy > x].step.min())
    start = max(first_at(c, LEVEL) for _, c in cv.groupby("seed"))   # the step by which both seeds had passed LEVEL
    land = []
    for s, c in cv.groupby("seed"):
        late = c[c.step >= start]
        fit = stats.linregress(late.step / 1000, late.eval_accuracy)   # accuracy per 1,000 steps
        land.append(dict(seed=s, near=float(c[c.step == near].eval_accuracy.iloc[0]),
                         majority=first_at(c, s0.validation_majority), at55=first_at(c, LEVEL),
                         slope=float(fit.slope), p=float(fit.pvalue), n=len(late)))
    v["near_step"], v["curves"] = near, land
    v["se_eval"] = float(np.sqrt(0.5 * 0.5 / s0.validation_size))   # the largest binomial SE of one evaluation
    at = curves[curves.step == AT]
    a, b = (at[at.run == r].eval_accuracy.to_numpy() for r in ("full_vocab", "label_tokens"))
    w = stats.ttest_ind(a, b, equal_var=False)
    v["losses"] = dict(full_vocab=list(map(float, a)), label_tokens=list(map(float, b)),
                       diff=float(a.mean() - b.mean()),
                       t=float(w.statistic), p=float(w.pvalue), n=len(a), step=AT)
    v["level"], v["slope_from"] = LEVEL, start
    # like for like: the recomputed accuracies against the ones each run recorded
    recorded = [json.loads((root/d/f"seed-{s}"/"summary.json").read_text())["test_accuracy"]
                for d in (FIRST, SB/"runs"/"full_vocab") for s in lfl.seed]
    recomputed = list(lfl.accuracy_150) + list(lfl.accuracy_long)
    v["lfl"] = [dict(r, p=f"{r['mcnemar_exact_p']:.1e}") for r in lfl.to_dict("records")]
    v["lfl_recorded"], v["lfl_equal"] = recorded, bool(np.allclose(recorded, recomputed, atol=1e-9))
    neutral = [int(x.split("/")[1]) for x in lfl.answers_150]
    v["lfl_neutral_150"] = [n / t for n, t in zip(neutral, lfl.n)]
    v["lfl_majority"] = dict(accuracy=float(lfl.majority_accuracy.iloc[0]),
                             macro_f1=float(lfl.majority_macro_f1.iloc[0]))
    return v


LE = STUDY/"lm-eval"
LABELS = {0: "negative", 1: "neutral", 2: "positive"}


def lm_eval(build: Path) -> dict:
    "The lm-eval page's values: agreement.json (the lm-eval step's), the comparison and McNemar tables."
    a = json.loads((build/LE/"agreement.json").read_text())
    c, mc = pd.read_csv(build/LE/"compare.csv"), pd.read_csv(build/LE/"mcnemar.csv")
    g = pd.read_csv(build/LE/"gaps_lm-eval.csv")
    allrows = mc[mc.category == "all"].iloc[0]
    e = lambda x: f"{x:.1e}"   # a small difference in scientific notation
    return dict(a, answers={LABELS[int(k)]: v for k, v in a["answers_lm"].items()},
                gold_named={LABELS[int(k)]: v for k, v in a["gold"].items()},
                score_max=e(a["score_diff_max"]), score_median=e(a["score_diff_median"]),
                metrics=sorted(g[g.gap_mean.notna()].metric.unique()),
                compare_max=float(c["diff"].abs().max()), discordant=int(allrows.a_only + allrows.b_only),
                mcnemar_n=int(allrows.n), mcnemar_p=float(allrows.p_value))
