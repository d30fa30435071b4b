"""Regenerate every computed table, figure and page of the published CPU study (results/smollm2-135m) from its committed
inputs: the top-5 prompts' predictions, the run folders' summaries and the manual baseline's predictions. Nothing is
tuned or scored again; every number comes from spbias' own commands (`spbias gaps`, `table2`, `robustness`, `compare`)
and functions, and the pages (jinja2 templates under scripts/pages/) are refused if their own text holds a number that
was not computed (spbias.pages).

    python scripts/regenerate_results.py [--list] [--only STEP ...] [--skip STEP ...] [--redo] [--force]

Each step builds into results/.build/ (git-ignored) and is skipped on a rerun while its inputs and spbias' code are
unchanged (a killed run resumes; after changing a step in this script, --redo --only STEP). Then the built files are installed: identical files are left alone, new ones
written, and a committed file that differs is refused unless --force (all of them listed, none half-installed).
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
PRED = S2/"predictions"
RUNS = sorted(str(p) for p in (ROOT/STUDY/"stage2-runs").glob("smollm2/*/lr*-s1001-1015"))
MARGIN = "0.05"   # the equivalence margin: a gap of five percentage points of a rate
TAGS = {"t": ["--ci", "t"], "papers": ["--ci", "papers"], "bootstrap": ["--ci", "bootstrap"],
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
    "Gap tables: crossed (the default) unadjusted with TOST and the top-k choice; crossed in the declared families; t, papers, bootstrap, t + Holm."
    t = b/S2/"tables"; t.mkdir(parents=True, exist_ok=True)
    log = {"crossed": cli("gaps", *_preds().split(","), "--out", t/"gaps_crossed.csv", "--margin", MARGIN,
                          "--selection", t/"gaps_crossed-selection.csv", "--runs", *RUNS),
           "crossed-declared": cli("gaps", *_preds().split(","), "--out", t/"gaps_crossed-declared.csv", "--confirmatory",
                                   "--margin", MARGIN)}
    for tag, flags in TAGS.items():
        log[tag] = cli("gaps", *_preds().split(","), "--out", t/f"gaps_{tag}.csv", *flags)
    (b/S2/"tables"/"gaps.log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))


def step_table2(b: Path):
    "Table 2 from each gap table (the declared one marks each cell's family)."
    t = b/S2/"tables"
    for tag in ["crossed-declared", *TAGS]:
        cli("table2", t/f"gaps_{tag}.csv", "--out", t/f"table2_{tag}.csv")


def step_families(b: Path):
    "Significant gaps per interval method, adjustment and test family (scripts/study_families.py)."
    sys.path.insert(0, str(ROOT/"scripts"))
    import study_families
    with contextlib.redirect_stdout(io.StringIO()):
        study_families.main(["--out", str(b/S2/"tables"/"significance_by_family.csv")])


def step_figures(b: Path):
    "The gap figures: crossed intervals, fills from the same table (unadjusted), near-chance panels marked."
    from spbias import figures as F, metrics as M
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
           "sst5_label-semeval": cli("robustness", _preds(["sst5"]), "--ci", "crossed", "--margin", "0.05",
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


def step_template_families(b: Path):
    "Template families (issue 35): each group against the centroid, the unmarked sentences and the other groups, declared families, TOST."
    t = b/TF/"tables"; t.mkdir(parents=True, exist_ok=True)
    log = cli("gaps", str(TF/"predictions"/"*_sst5.tsv.gz"), "--reference", "unmarked", "--contrasts", "--confirmatory",
              "--margin", MARGIN, "--out", t/"gaps_declared.csv")
    (t/"gaps.log.json").write_text(json.dumps({"declared": log}, indent=1, ensure_ascii=False))


def step_semeval_budget(b: Path):
    "The budget experiment's learning curves, per-seed summaries and figure (scripts/semeval_budget_report.py, issue 25)."
    sys.path.insert(0, str(ROOT/"scripts"))
    import semeval_budget_report
    with contextlib.redirect_stdout(io.StringIO()):
        semeval_budget_report.main(["--runs", str(SB/"runs"), "--out", str(b/SB)])


def step_pages(b: Path):
    "The pages: every scripts/pages/<path>.j2 filled from the built tables (spbias.pages refuses stray numbers)."
    sys.path.insert(0, str(ROOT/"scripts"))
    from spbias.pages import write_page
    import page_values
    values = page_values.values(b, ROOT)
    for tpl in sorted((ROOT/"scripts"/"pages").rglob("*.j2")):
        out = b/tpl.relative_to(ROOT/"scripts"/"pages").with_suffix("")
        out.parent.mkdir(parents=True, exist_ok=True)
        write_page(tpl, values, out)


STEPS = {  # name: (function, inputs it reads besides spbias' code, outputs relative to the build folder)
    "gaps": (step_gaps, [PRED, STUDY/"stage2-runs"],
             [S2/"tables"/f"gaps_{t}.csv" for t in ["crossed", "crossed-declared", *TAGS]]
             + [S2/"tables"/"gaps_crossed-selection.csv"]),
    "table2": (step_table2, [PRED], [S2/"tables"/f"table2_{t}.csv" for t in ["crossed-declared", *TAGS]]),
    "families": (step_families, [PRED, Path("scripts/study_families.py")], [S2/"tables"/"significance_by_family.csv"]),
    "figures": (step_figures, [PRED, S2/"tables"/"accuracy.csv"], [S2/"figures"]),
    "robustness": (step_robustness, [PRED],
                   [ROB/f"robustness_{n}.csv" for n in ("stage2", "stage2_holm", "sst5_label-semeval")]
                   + [ROB/"figures"/f"robustness_{n}.{e}" for n in ("stage2", "stage2_holm", "sst5_label-semeval")
                      for e in ("png", "pdf")]),
    "compare": (step_compare, [PRED], [ROB/"compare_sst5-semeval.csv", ROB/"mcnemar_sst5-semeval.csv"]
                + [ROB/"figures"/f"compare_sst5-semeval.{e}" for e in ("png", "pdf")]),
    "template-families": (step_template_families, [TF/"predictions"], [TF/"tables"/"gaps_declared.csv"]),
    "semeval-budget": (step_semeval_budget, [SB/"runs", Path("scripts/semeval_budget_report.py")],
                       [SB/"curves.csv", SB/"seeds.csv", SB/"figures"/"learning_curve.png"]),
    "pages": (step_pages, [PRED, Path("scripts/pages"), Path("scripts/page_values.py"), S2/"tables"/"accuracy.csv",
                           S2/"summaries.csv"],
              [Path(str(p.relative_to(ROOT/"scripts"/"pages"))[:-3]) for p in (ROOT/"scripts"/"pages").rglob("*.j2")]),
}
# a page reads every table: it is rebuilt whenever one of them is
STEPS["pages"][1].extend(o for k, (_, _, outs) in STEPS.items() if k != "pages" for o in outs if o.suffix == ".csv")


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
    from spbias.pages import install, run_steps, _files
    code = sorted((ROOT/"spbias").glob("*.py"))   # a step changed in this script: --redo --only STEP
    run_steps(STEPS, a.build, ROOT, names, redo=a.redo, code=code)
    pairs = [(f, ROOT/f.relative_to(a.build)) for n in names for o in STEPS[n][2] for f in _files(a.build/o)]
    fate = install(pairs, force=a.force)
    for k, v in fate.items(): print(f"{k}: {len(v)}" + (f" ({', '.join(str(p.relative_to(ROOT)) for p in v[:8])}"
                                                          f"{' …' if len(v) > 8 else ''})" if v and k != "same" else ""))
    return 0


if __name__ == "__main__":
    try: sys.exit(main())
    except SpbiasError as e: sys.exit(f"regenerate_results: error: {e}")
