"""Regenerate every computed table, figure and page of the published CPU study (results/smollm2-135m) from its committed
inputs: the top-5 prompts' predictions, the run folders' summaries and the manual baseline's predictions. Nothing is
tuned or scored again; every number comes from spbias' own commands (`spbias gaps`, `table2`, `robustness`, `compare`)
and functions, and the pages (jinja2 templates under scripts/pages/) are refused if their own text holds a number that
was not computed (spbias.report.pages).

    python scripts/regenerate_results.py [--list] [--only STEP ...] [--skip STEP ...] [--redo] [--force]

Each step builds into results/.build/ (git-ignored) and is skipped on a rerun while its inputs and spbias' code are
unchanged (a killed run resumes; a change to spbias, this script, scripts/page_values.py or the committed coverage benchmark redoes every step). Then the
built files are installed: identical files are left alone, new ones written, and a committed file that differs is refused unless --force (all of them listed, none half-installed).
"""
import argparse, contextlib, io, json, os, sys
from pathlib import Path
os.environ.setdefault("SOURCE_DATE_EPOCH", "0")   # PDFs without a creation time: a redraw of the same figure is the same file
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import pandas as pd
from spbias.core import SpbiasError

STUDY = Path("results/smollm2-135m")
S2, ROB, TF, SB = STUDY/"stage2", STUDY/"robustness", STUDY/"template-families", STUDY/"semeval-budget"
LE = STUDY/"lm-eval"
PRED = S2/"predictions"
ALL = S2/"predictions-all"   # every tuned prompt (15 a tuning set) on a stratified subset of the bias set
RUNS = sorted(str(p) for p in (ROOT/STUDY/"stage2-runs").glob("smollm2/*/lr*-s1001-1015"))
MARGIN = "or:1.25"   # the gaps' equivalence margin: an odds ratio within 0.8–1.25 of the comparator's rate (issue 50)
ROBUSTNESS_MARGIN = "0.05"   # `spbias robustness --margin` (absolute): five percentage points of a rate
FAMILY = STUDY/"families"/"papers-table2.csv"   # the confirmatory family, committed before the tables it governs
TAGS = {"t": ["--ci", "t", "--adjust", "none"], "papers": ["--ci", "papers", "--adjust", "none"], "bootstrap": ["--ci", "bootstrap", "--adjust", "none"],
        "t-holm": ["--ci", "t", "--adjust", "holm"]}


def _preds(sets=("sst5", "semeval")) -> str:
    "The committed predictions of these tuning sets: glob patterns, comma-joined as the commands take them."
    return ",".join(str(PRED/f"*_{s}.tsv.gz") for s in sets)


def cli(*argv: str) -> str:
    "Run one spbias command in this process; its printed lines (returned) are what the pages may quote."
    from spbias.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main([str(a) for a in argv])
    if rc: raise SpbiasError(f"spbias {' '.join(map(str, argv))} exited {rc}.", "run it by hand to see why.")
    return out.getvalue()


def step_gaps(b: Path):
    ("Gap tables: crossed (the default) unadjusted with TOST and the top-k choice; crossed in the declared families (the "
     "committed family file) and in the earlier post hoc family; t, papers, bootstrap, t + Holm.")
    t = b/S2/"tables"; t.mkdir(parents=True, exist_ok=True)
    log = {"crossed": cli("gaps", *_preds().split(","), "--out", t/"gaps_crossed.csv", "--adjust", "none", "--margin", MARGIN,
                          "--selection", t/"gaps_crossed-selection.csv", "--runs", *RUNS),
           "crossed-declared": cli("gaps", *_preds().split(","), "--out", t/"gaps_crossed-declared.csv", "--confirmatory",
                                   FAMILY, "--margin", MARGIN),
           "crossed-posthoc": cli("gaps", *_preds().split(","), "--out", t/"gaps_crossed-posthoc.csv", "--confirmatory",
                                  "posthoc-fpr", "--margin", MARGIN)}
    for tag, flags in TAGS.items():
        log[tag] = cli("gaps", *_preds().split(","), "--out", t/f"gaps_{tag}.csv", *flags)
    (b/S2/"tables"/"gaps.log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))


def step_selection(b: Path):
    ("The top-k choice against every tuned prompt: all 15 prompts of each tuning set on the stratified subset "
     "(stage2/predictions-all/), with their validation answers for the paired SE (issue 50, item 7).")
    t = b/S2/"tables"; t.mkdir(parents=True, exist_ok=True)
    log = cli("gaps", *(str(ALL/f"*_{s}.tsv.gz") for s in ("sst5", "semeval")), "--out", t/"gaps_all-prompts.csv",
              "--adjust", "none", "--margin", MARGIN, "--selection", t/"gaps_all-prompts-selection.csv",
              "--validation-answers", *(S2/"validation-answers"/f"{s}.tsv.gz" for s in ("sst5", "semeval")))
    (t/"selection.log.json").write_text(json.dumps({"all-prompts": log}, indent=1, ensure_ascii=False))


def step_table2(b: Path):
    "Table 2 from each gap table (the declared one marks each cell's family)."
    t = b/S2/"tables"
    for tag in ["crossed-declared", "crossed-posthoc", *TAGS]:
        cli("table2", t/f"gaps_{tag}.csv", "--out", t/f"table2_{tag}.csv")


def step_families(b: Path):
    "Significant gaps per interval method, adjustment and test family (scripts/study_families.py)."
    sys.path.insert(0, str(ROOT/"scripts"))
    import study_families
    with contextlib.redirect_stdout(io.StringIO()):
        study_families.main(["--out", str(b/S2/"tables"/"significance_by_family.csv")])


def step_figures(b: Path):
    "The gap figures: crossed intervals, fills from the same table (unadjusted), near-chance panels marked."
    from spbias.report import figures as F; from spbias.stats import metrics as M
    gaps = M.read_gaps(b/S2/"tables"/"gaps_crossed.csv")
    chance = F.near_chance(pd.read_csv(ROOT/S2/"tables"/"accuracy.csv"))
    for cat in gaps.category.unique():
        F.save_figure(F.gap_figure(gaps, cat, near_chance=chance), b/S2/"figures", f"gaps_{cat.replace('grouped_', '')}")


def step_robustness(b: Path):
    "Which gaps survive (crossed, Holm within attribute × metric; t + Holm as before), and with SemEval's sign as a condition."
    r = b/ROB; (r/"figures").mkdir(parents=True, exist_ok=True)
    log = {"stage2": cli("robustness", *_preds().split(","), "--ci", "crossed", "--out", r/"robustness_stage2.csv",
                         "--figure", r/"figures"/"robustness_stage2.png"),
           "stage2_holm": cli("robustness", *_preds().split(","), "--ci", "t", "--adjust", "holm", "--out",
                              r/"robustness_stage2_holm.csv", "--figure", r/"figures"/"robustness_stage2_holm.png"),
           "sst5_label-semeval": cli("robustness", _preds(["sst5"]), "--ci", "crossed", "--margin", ROBUSTNESS_MARGIN,
                                     "--label", f"semeval={_preds(['semeval'])}", "--out", r/"robustness_sst5_label-semeval.csv",
                                     "--figure", r/"figures"/"robustness_sst5_label-semeval.png")}
    (r/"robustness.log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))


def step_compare(b: Path):
    "SST-5 − SemEval prompts' gaps, paired on the same sentences (spbias compare; Holm within attribute × metric)."
    r = b/ROB; (r/"figures").mkdir(parents=True, exist_ok=True)
    log = cli("compare", _preds(["sst5"]), _preds(["semeval"]), "--names", "sst5,semeval", "--adjust", "holm",
              "--family", "attribute", "--out", r/"compare_sst5-semeval.csv", "--mcnemar", r/"mcnemar_sst5-semeval.csv",
              "--figure", r/"figures"/"compare_sst5-semeval.png")
    (r/"compare.log.json").write_text(json.dumps({"sst5-semeval": log}, indent=1, ensure_ascii=False))


MANUAL = ["age", "disability", "race", "religion", "sexuality"]   # the attributes the manual baseline covers


def _manual() -> tuple[str, str]:
    "The soft SST-5 prompts' and the manual 4-shot baseline's predictions on the attributes the baseline covers."
    return (",".join(str(PRED/f"czarnowska-{a}_sst5.tsv.gz") for a in MANUAL),
            ",".join(str(ROB/"predictions"/f"czarnowska-{a}_manual4.tsv.gz") for a in MANUAL))


def step_manual(b: Path):
    """The manual 4-shot baseline (committed predictions): soft − manual (Holm within attribute × metric, every prompt
    pair), robustness with its sign and SemEval's as conditions, its own gaps' robustness."""
    r = b/ROB; (r/"figures").mkdir(parents=True, exist_ok=True)
    s, m = _manual()
    log = {"soft-manual": cli("compare", s, m, "--names", "soft-sst5,manual-4shot", "--adjust", "holm", "--family",
                              "attribute", "--pairs", "all", "--out", r/"compare_soft-manual.csv",
                              "--mcnemar", r/"mcnemar_soft-manual.csv", "--figure", r/"figures"/"compare_soft-manual.png"),
           "soft_label-manual": cli("robustness", s, "--ci", "crossed", "--margin", ROBUSTNESS_MARGIN, "--label", f"manual={m}",
                                    "--label", f"semeval={_preds(['semeval'])}", "--out",
                                    r/"robustness_soft_label-manual.csv",
                                    "--figure", r/"figures"/"robustness_soft_label-manual.png"),
           "manual": cli("robustness", m, "--ci", "crossed", "--out", r/"robustness_manual.csv",
                         "--figure", r/"figures"/"robustness_manual.png")}
    (r/"manual.log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))


def step_template_families(b: Path):
    ("Template families (issue 35): each group against the centroid, the unmarked sentences and the other groups; the race "
     "FPR gaps confirmatory under the post hoc preset (the papers' claims hold no race cell), TOST.")
    t = b/TF/"tables"; t.mkdir(parents=True, exist_ok=True)
    log = cli("gaps", str(TF/"predictions"/"*_sst5.tsv.gz"), "--reference", "unmarked", "--contrasts", "--confirmatory",
              "posthoc-fpr", "--margin", MARGIN, "--out", t/"gaps_declared.csv")
    (t/"gaps.log.json").write_text(json.dumps({"declared": log}, indent=1, ensure_ascii=False))


def step_semeval_budget(b: Path):
    "The budget experiment's learning curves, per-seed summaries and figure (scripts/semeval_budget_report.py, issue 25)."
    sys.path.insert(0, str(ROOT/"scripts"))
    import semeval_budget_report
    with contextlib.redirect_stdout(io.StringIO()):
        semeval_budget_report.main(["--runs", str(SB/"runs"), "--out", str(b/SB)])


def step_pages(b: Path):
    "The pages: every scripts/pages/<path>.j2 filled from the built tables (spbias.report.pages refuses stray numbers)."
    sys.path.insert(0, str(ROOT/"scripts"))
    from spbias.report.pages import write_page
    import page_values
    values = page_values.values(b, ROOT)
    for tpl in sorted((ROOT/"scripts"/"pages").rglob("*.j2")):
        out = b/tpl.relative_to(ROOT/"scripts"/"pages").with_suffix("")
        out.parent.mkdir(parents=True, exist_ok=True)
        write_page(tpl, values, out)


def lm_eval_agreement(lm: pd.DataFrame, own: pd.DataFrame, gaps_lm: pd.DataFrame, gaps_own: pd.DataFrame) -> dict:
    "lm-eval's log against spbias' own scoring of the same sentences: answers, label-score differences, gaps."
    import numpy as np
    key = ["category", "group", "template_id", "text"]
    m = lm.merge(own, on=key, suffixes=("_lm", "_own"), validate="one_to_one")
    cols = ["score_negative", "score_neutral", "score_positive"]
    rel = lambda sfx: np.stack([m[f"{c}{sfx}"] - m[f"{cols[0]}{sfx}"] for c in cols[1:]], 1)   # differences between labels
    d = np.abs(rel("_lm") - rel("_own"))
    top2 = lambda sfx: np.sort(m[[f"{c}{sfx}" for c in cols]].to_numpy(), 1)[:, -2:]
    margin = min(float(np.diff(top2(sfx), axis=1).min()) for sfx in ("_lm", "_own"))   # the closest two label scores
    g = gaps_lm.merge(gaps_own, on=["category", "group", "metric"], suffixes=("_lm", "_own"))
    g = g[g.gap_mean_lm.notna() & g.gap_mean_own.notna()]
    same = int((m.y_pred_lm.astype(int) == m.y_pred_own.astype(int)).sum())
    return dict(n=len(m), n_lm=len(lm), n_own=len(own), answers_agree=same,
                score_diff_max=float(d.max()), score_diff_median=float(np.median(d)), label_margin_min=margin,
                gaps=len(g), gaps_equal=int((g.gap_mean_lm == g.gap_mean_own).sum()),
                gap_max_abs_diff=float((g.gap_mean_lm - g.gap_mean_own).abs().max()),
                accuracy_lm=float((lm.y_true == lm.y_pred).mean()),
                accuracy_own=float((own.y_true.astype(int) == own.y_pred.astype(int)).mean()),
                answers_lm={int(k): int(v) for k, v in lm.y_pred.value_counts().sort_index().items()},
                gold={int(k): int(v) for k, v in lm.y_true.value_counts().sort_index().items()},
                groups=int(lm.group.nunique()), templates=int(lm.template_id.nunique()))


def step_lm_eval(b: Path):
    "lm-eval's log read back (issue 44): gaps from the log and from spbias' own scoring, their comparison, agreement."
    from spbias.formats.harness import read_log, lm_eval_results
    o = b/LE; o.mkdir(parents=True, exist_ok=True)
    log, own = LE/"lm-eval-out", LE/"predictions"/"spbias_bare.tsv"
    cli("gaps", log, "--top-k", "0", "--adjust", "none", "--out", o/"gaps_lm-eval.csv")
    cli("gaps", own, "--top-k", "0", "--adjust", "none", "--out", o/"gaps_spbias.csv")
    cli("compare", log, own, "--top-k", "0", "--adjust", "none", "--names", "lm-eval,spbias", "--mcnemar", o/"mcnemar.csv",
        "--out", o/"compare.csv")
    samples = next(log.glob("samples_*.jsonl"))
    own = pd.read_csv(own, sep="\t", keep_default_na=False, na_values={"y_pred": [""]})
    a = lm_eval_agreement(read_log(samples), own,
                          pd.read_csv(o/"gaps_lm-eval.csv"), pd.read_csv(o/"gaps_spbias.csv"))
    res = lm_eval_results(samples)[0]["results"]
    task = next(iter(res.values()))
    a["lm_eval"] = dict(acc=task["acc,none"], acc_stderr=task["acc_stderr,none"], n=task["sample_len"])
    (o/"agreement.json").write_text(json.dumps(a, indent=1) + "\n")


FIELD = Path("results/field-reanalysis")   # the field's published predictions re-analysed (issue 51)


def step_field(b: Path):
    "The field re-analysis (scripts/field_reanalysis.py): gaps per model and set, model pairs, sets, power, quality, figures."
    # in a process of its own: its figures are the same bytes run alone or after the other steps (plotting state)
    import subprocess
    r = subprocess.run([sys.executable, str(ROOT/"scripts"/"field_reanalysis.py"), "--out", str(b/FIELD)], cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode: raise SpbiasError(f"scripts/field_reanalysis.py exited {r.returncode}: {r.stderr.strip()[-500:]}",
                                       "run it by hand to see why.")


STEPS = {  # name: (function, inputs it reads besides spbias' code, outputs relative to the build folder)
    "gaps": (step_gaps, [PRED, STUDY/"stage2-runs", FAMILY],
             [S2/"tables"/f"gaps_{t}.csv" for t in ["crossed", "crossed-declared", "crossed-posthoc", *TAGS]]
             + [S2/"tables"/"gaps_crossed-selection.csv"]),
    "selection": (step_selection, [ALL, S2/"validation-answers"],
                  [S2/"tables"/f"gaps_all-prompts{x}.csv" for x in ("", "-selection")] + [S2/"tables"/"selection.log.json"]),
    "table2": (step_table2, [PRED, FAMILY], [S2/"tables"/f"table2_{t}.csv" for t in ["crossed-declared", "crossed-posthoc", *TAGS]]),
    "families": (step_families, [PRED, Path("scripts/study_families.py")], [S2/"tables"/"significance_by_family.csv"]),
    "figures": (step_figures, [PRED, S2/"tables"/"accuracy.csv"], [S2/"figures"]),
    "robustness": (step_robustness, [PRED],
                   [ROB/f"robustness_{n}.csv" for n in ("stage2", "stage2_holm", "sst5_label-semeval")]
                   + [ROB/"figures"/f"robustness_{n}.{e}" for n in ("stage2", "stage2_holm", "sst5_label-semeval")
                      for e in ("png", "pdf")]),
    "compare": (step_compare, [PRED], [ROB/"compare_sst5-semeval.csv", ROB/"mcnemar_sst5-semeval.csv"]
                + [ROB/"figures"/f"compare_sst5-semeval.{e}" for e in ("png", "pdf")]),
    "manual": (step_manual, [PRED, ROB/"predictions"],
               [ROB/f"{n}.csv" for n in ("compare_soft-manual", "mcnemar_soft-manual", "robustness_soft_label-manual",
                                          "robustness_manual")]
               + [ROB/"figures"/f"{n}.{e}" for n in ("compare_soft-manual", "robustness_soft_label-manual",
                                                     "robustness_manual") for e in ("png", "pdf")]),
    "template-families": (step_template_families, [TF/"predictions"], [TF/"tables"/"gaps_declared.csv"]),
    "semeval-budget": (step_semeval_budget, [SB/"runs", Path("scripts/semeval_budget_report.py")],
                       [SB/"curves.csv", SB/"seeds.csv", SB/"figures"/"learning_curve.png"]),
    "lm-eval": (step_lm_eval, [LE/"lm-eval-out", LE/"predictions"],
                [LE/f"{n}.csv" for n in ("gaps_lm-eval", "gaps_spbias", "compare", "mcnemar")] + [LE/"agreement.json"]),
    "field": (step_field, [Path("scripts/field_reanalysis.py"), FIELD/"families"],
              [FIELD/"tables", FIELD/"figures", FIELD/"commands.log.json"]),
    "pages": (step_pages, [PRED, Path("scripts/pages"), Path("scripts/page_values.py"), S2/"tables"/"accuracy.csv",
                           S2/"summaries.csv", SB/"like_for_like.csv", SB/"runs", Path("sweeps/smollm2-papers.yaml"),
                           STUDY/"stage2-runs"/"smollm2"/"semeval"/"lr0.001-n8-s1001-1015"],
              [Path(str(p.relative_to(ROOT/"scripts"/"pages"))[:-3]) for p in (ROOT/"scripts"/"pages").rglob("*.j2")]),
}
# a page reads every table: it is rebuilt whenever one of them is
STEPS["pages"][1].extend(o for k, (_, _, outs) in STEPS.items() if k != "pages" for o in outs if o.suffix == ".csv")
STEPS["pages"][1].append(FIELD/"tables")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", choices=list(STEPS), help="run only these steps (default: all)")
    ap.add_argument("--skip", nargs="+", choices=list(STEPS), default=[], help="leave these steps out")
    ap.add_argument("--redo", action="store_true", help="rebuild steps even when built from the same inputs")
    ap.add_argument("--force", action="store_true", help="replace committed files that differ from the rebuilt ones")
    ap.add_argument("--build", type=Path, default=ROOT/"results"/".build", help="staging folder (git-ignored)")
    ap.add_argument("--list", action="store_true", help="list the steps and their outputs, then stop")
    a = ap.parse_args(argv)
    os.chdir(ROOT)
    names = [n for n in (a.only or STEPS) if n not in a.skip]
    if a.list:
        for n, (f, _, outs) in STEPS.items(): print(f"{n}: {f.__doc__}\n   " + ", ".join(map(str, outs)))
        return 0
    from spbias.report.pages import install, run_steps, _files
    # spbias reads the committed coverage benchmark at run time (its warnings, the pages' coverage figures): code too
    code = sorted((ROOT/"spbias").rglob("*.py")) + [Path(__file__).resolve(), ROOT/"scripts"/"page_values.py",
                                                   ROOT/"benchmarks"/"results"/"coverage.json"]
    run_steps(STEPS, a.build, ROOT, names, redo=a.redo, code=code)
    pairs = [(f, ROOT/f.relative_to(a.build)) for n in names for o in STEPS[n][2] for f in _files(a.build/o)]
    fate = install(pairs, force=a.force)
    for k, v in fate.items(): print(f"{k}: {len(v)}" + (f" ({', '.join(str(p.relative_to(ROOT)) for p in v[:8])}"
                                                          f"{' …' if len(v) > 8 else ''})" if v and k != "same" else ""))
    return 0


if __name__ == "__main__":
    try: sys.exit(main())
    except SpbiasError as e: sys.exit(f"regenerate_results: error: {e}")
