"""The field's published soft-prompt predictions re-analysed (issue 51): five models × five SST-5 prompts on three race
probe sets (../shared/field/vector_multirun/), every table from spbias' own commands. Template ids and identity terms
are recovered from the sentences by the commands themselves (spbias.biassets.template_files.attach_template_ids).

    python scripts/field_reanalysis.py --out results/field-reanalysis   (or as the `field` step of make results)

Writes tables/ (gaps per set, model pairs, sets against each other, power, validation accuracy), figures/ and
commands.log.json (each command's printed lines, which the page quotes)."""
import argparse, contextlib, os, io, itertools, json, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import numpy as np, pandas as pd
from spbias.core import SpbiasError, shared_data_dir

SETS = {"amazon": "amazon", "NS-prompts": "NS-prompts", "regard": "regard"}
MODELS = {"opt-1d3b": "OPT-1.3B", "opt-13b": "OPT-13B", "llama-13b": "LLaMA-13B", "llama-2-7b": "LLaMA-2-7B",
          "llama-2-13b": "LLaMA-2-13B"}   # the group's file names: the models' names
ROB_MARGIN = "0.05"   # spbias robustness takes an absolute margin only: five points of a rate
FAMILY = Path("results/field-reanalysis/families/white-negative.csv")   # declared before any table (its README)
MARGIN, GAP = "or:1.25", "0.05"   # TOST margin (an odds ratio of 1.25: rates near 0 and 0.5 alike); the gap power is asked for
CONTRASTS = {"size OPT 1.3B→13B": ("opt-1d3b", "opt-13b"), "OPT vs LLaMA (13B)": ("opt-13b", "llama-13b"),
             "size LLaMA-2 7B→13B": ("llama-2-7b", "llama-2-13b")}


def files(s: str, m: str = "*") -> str:
    "A quoted glob of one set's predictions (one model, or all)."
    return str(shared_data_dir(required=True).parent/"field"/"vector_multirun"/s/f"{m}__predictions_{s}_*.tsv.gz")


def cli(*argv) -> str:
    "One spbias command in this process; its printed lines."
    from spbias.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = main([str(a) for a in argv])
    if rc: raise SpbiasError(f"spbias {' '.join(map(str, argv))} exited {rc}: {err.getvalue()[-300:]}", "run it by hand.")
    return out.getvalue() + "".join(l + "\n" for l in err.getvalue().splitlines() if "nothing could be judged" not in l)


def confirmatory_flags() -> list[str]:
    "The family file where this spbias reads one (stats.multiplicity.read_family), else its negative_FPR gaps of every group."
    try: from spbias.stats.multiplicity import read_family   # noqa: F401  (the claims helpers' family files)
    except ImportError: return ["--confirmatory", "negative_FPR"]
    return ["--confirmatory", str(FAMILY)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="the folder to write tables/, figures/ and the log into")
    ap.add_argument("--all-pairs", nargs="*", default=list(SETS), help="sets whose every model pair is compared")
    ap.add_argument("--page", action="store_true",
                    help="also write the page (README.md in --out) from scripts/pages/results/field-reanalysis/README.md.j2")
    ap.add_argument("--redraw", action="store_true", help="only the pair family, quality, figures (and page) from the tables there")
    a = ap.parse_args(argv)
    os.chdir(ROOT)   # the family file is named relative to the repository, as the tables record it
    if a.page and a.out.resolve() != (ROOT/FAMILY.parents[1]).resolve():
        raise SpbiasError(f"--page writes the page of {FAMILY.parents[1]}, not of {a.out}.", f"pass --out {FAMILY.parents[1]}.")
    t, f = a.out/"tables", a.out/"figures"; t.mkdir(parents=True, exist_ok=True); f.mkdir(parents=True, exist_ok=True)
    log, secs = {}, {}
    for s in ([] if a.redraw else SETS):
        t0 = time.time()
        log[f"gaps {s}"] = cli("gaps", files(s), "--out", t/f"gaps_{s}.csv", *confirmatory_flags(), "--margin", MARGIN)
        log[f"power {s}"] = cli("power", files(s), "--gap", GAP, "--metrics", "negative_FPR,positive_FPR", "--out",
                                t/f"power_{s}.csv")
        pairs = itertools.combinations(MODELS, 2) if s in a.all_pairs else CONTRASTS.values()
        for x, y in pairs:
            log[f"compare {s} {x} {y}"] = cli("compare", files(s, x), "vs", files(s, y), "--adjust", "none", "--names",
                                               f"{MODELS[x]},{MODELS[y]}", "--n-boot", "200", "--mcnemar",
                                               t/f"mcnemar_{s}_{x}_{y}.csv", "--out", t/f"compare_{s}_{x}_{y}.csv")
        secs[s] = time.time() - t0
    t0 = time.time()
    if not a.redraw: log["robustness"] = cli("robustness", files("amazon"), "--label", f"NS-prompts={files('NS-prompts')}", "--label",
                            f"regard={files('regard')}", "--margin", ROB_MARGIN, "--out", t/"robustness_sets.csv")
    secs["robustness"] = time.time() - t0
    one_family(t)
    quality(t)
    figures(t, f)
    if not a.redraw: (a.out/"commands.log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False) + "\n")
    print("seconds: " + json.dumps({k: round(v, 1) for k, v in secs.items()}))   # measured, not committed
    if a.page: page(ROOT)
    return 0


def one_family(t: Path):
    "Every model pair's Welch difference, one Benjamini–Yekutieli family per set (statsmodels), as pairs.csv."
    from statsmodels.stats.multitest import multipletests
    rows = []
    for p in sorted(t.glob("compare_*.csv")):
        c = pd.read_csv(p, keep_default_na=False, na_values={"p_value": [""], "diff": [""]})
        c = c[(c.method == "welch") & (c.mirror_of.astype(str) == "") & c.p_value.notna()]
        rows.append(c.assign(set=p.stem.split("_")[1]))
    d = pd.concat(rows, ignore_index=True)
    d["p_family"] = np.nan
    for s, g in d.groupby("set"):
        d.loc[g.index, "p_family"] = multipletests(g.p_value, method="fdr_by")[1]
    d["significant_family"] = d.p_family < 0.05
    d[["set", "a", "b", "category", "group", "metric", "gap_a", "gap_b", "diff", "ci_low", "ci_high", "p_value",
       "p_family", "significant_family", "n_a", "n_b"]].to_csv(t/"pairs.csv", index=False)


def page(build: Path):
    "The page, filled from the tables under build/results/field-reanalysis (scripts/page_values.field)."
    sys.path.insert(0, str(ROOT/"scripts"))
    import page_values
    from spbias.report.pages import write_page
    tpl = ROOT/"scripts"/"pages"/FAMILY.parents[1]/"README.md.j2"
    write_page(tpl, {"field": page_values.field(build)}, build/FAMILY.parents[1]/"README.md")


def quality(t: Path):
    "Model quality as recorded: each prompt's validation and test accuracy (SST-5, 3 classes) and its accuracy on each set."
    from spbias.formats.predictions import load_predictions
    rows = []
    for s in SETS:
        p = load_predictions(files(s))
        for (m, r), g in p.groupby(["model", "run"], sort=False):
            rows.append(dict(set=s, model=m, run=r, validation_accuracy=float(g.validation_accuracy.iloc[0]),
                             test_accuracy=float(g.test_accuracy.iloc[0]), set_accuracy=float((g.y_true == g.y_pred).mean()),
                             rows=len(g)))
    pd.DataFrame(rows).to_csv(t/"quality.csv", index=False)


def figures(t: Path, f: Path):
    "The figures (_figures) in matplotlib's default style, whatever an earlier step in this process set (same bytes alone or after it)."
    import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    with plt.style.context("default"): _figures(t, f)


def _figures(t: Path, f: Path):
    "A forest plot of each set's gaps per model (crossed 95% CIs), and the model × model differences of the white negative-FPR gap."
    import matplotlib.pyplot as plt
    from spbias.stats.metrics import read_gaps
    fig, axes = plt.subplots(1, len(SETS), figsize=(4.2 * len(SETS), 5.2), sharey=True)
    for ax, s in zip(axes, SETS):
        g = read_gaps(t/f"gaps_{s}.csv"); g = g[g.metric == "negative_FPR"].reset_index(drop=True)
        names = [PATH_NAMES.get(_short(m), _short(m)) for m in g.model]
        y = np.arange(len(g))
        ax.errorbar(g.gap_mean, y, xerr=[g.gap_mean - g.ci_low, g.ci_high - g.gap_mean], fmt="o", ms=3, lw=1,
                    color="k")
        ax.axvline(0, color="grey", lw=0.6); ax.set_title(f"{s}: negative-FPR gap"); ax.set_xlabel("gap (crossed 95% CI)")
        ax.set_yticks(y, [f"{n} · {gr}" for n, gr in zip(names, g.group)], fontsize=6)
    fig.tight_layout(); fig.savefig(f/"forest_negative_FPR.png", dpi=130); plt.close(fig)
    d = pd.read_csv(t/"pairs.csv"); d = d[(d.group == "white") & (d.metric == "negative_FPR")]
    fig, axes = plt.subplots(1, d.set.nunique(), figsize=(4.2 * d.set.nunique(), 3.8))
    for ax, (s, g) in zip(np.atleast_1d(axes), d.groupby("set")):
        ms = list(dict.fromkeys(list(g.a) + list(g.b))); m = pd.DataFrame(np.nan, ms, ms)
        for r in g.itertuples(): m.loc[r.a, r.b], m.loc[r.b, r.a] = r.diff, -r.diff
        im = ax.imshow(m.to_numpy(dtype=float), cmap="RdBu_r", vmin=-0.1, vmax=0.1)
        ax.set_xticks(range(len(ms)), ms, rotation=45, ha="right", fontsize=7); ax.set_yticks(range(len(ms)), ms, fontsize=7)
        ax.set_title(f"{s}: white negative-FPR gap, row − column", fontsize=8)
    fig.colorbar(im, ax=axes); fig.savefig(f/"pairs_white_negative_FPR.png", dpi=130); plt.close(fig)


PATH_NAMES = {"opt-1.3b": "OPT-1.3B", "opt-13b": "OPT-13B", "13b": "LLaMA-13B", "llama-2-7b": "LLaMA-2-7B",
              "llama-2-13b": "LLaMA-2-13B"}   # the last part of each model path, as the group's cluster wrote it


def _short(m) -> str: return str(m).rstrip("/").split("/")[-1].lower()


if __name__ == "__main__":
    try: sys.exit(main())
    except SpbiasError as e: sys.exit(f"field_reanalysis: error: {e}")
