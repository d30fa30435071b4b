"""How many of the published study's gaps stay significant under each interval method, adjustment and test family, with
the papers' top 5 and with degenerate prompts skipped (issue 34). Everything is computed by spbias.stats.metrics.

    python scripts/study_families.py [--n-boot 2000] [--out results/smollm2-135m/stage2/tables/significance_by_family.csv]

Counts are over every metric (accuracy and the six FPR/TPR rates) of the 53 groups of one tuning set (371 rows), a
two-group attribute's mirror-image pair counted once (names_gender: 364 tests). The published predictions hold each
tuning set's top 5 prompts only, so "degenerate skipped" keeps those of the five that pass the rule (judged on the
bias-set predictions: the files carry no validation class distribution).
"""
import argparse, glob, sys, warnings
from pathlib import Path
import numpy as np, pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from spbias.stats import metrics as M
from spbias.core import repo_root, save_table

STUDY = repo_root()/"results"/"smollm2-135m"/"stage2"


def counts(gt: pd.DataFrame, selection: str, ci: str) -> list[dict]:
    "Significant gaps per tuning set under every adjustment and family, from one gap table made without adjustment."
    rows = []
    for adjust in ("none", "holm", "bh"):
        for family in (["attribute"] if adjust == "none" else list(M.FAMILIES)):
            t = gt.assign(adjust=adjust, family=family)
            t = t.assign(family_size=M.family_sizes(t, family), p_adjusted=M.adjust_pvalues(t, adjust, family))
            t = t.assign(significance=M.significance(t, adjust))
            for d, s in t.groupby("dataset"):
                fpr = s[s.metric.isin(["positive_FPR", "negative_FPR"])]
                rows.append(dict(selection=selection, dataset=d, ci=ci, adjust=adjust, family=family if adjust != "none" else "(none)",
                                 n_prompts=int(s.n_runs.max()), tests=int((s.p_value.notna() & (M.mirror_of(s) == "")).sum()),
                                 family_size=f"{int(s.family_size[s.p_value.notna()].min())}–{int(s.family_size.max())}" if adjust != "none" else "",
                                 significant=M.n_significant(s), significant_fpr=M.n_significant(fpr)))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-boot", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=STUDY/"tables"/"significance_by_family.csv")
    a = ap.parse_args(argv)
    preds = M.load_predictions(sorted(glob.glob(str(STUDY/"predictions"/"*.tsv.gz"))))
    rows, said = [], []
    for selection, keep in (("papers' top 5", True), ("degenerate skipped", False)):
        for ci in ("crossed", "t", "papers", "bootstrap"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gt = M.gap_table(preds, top_k=5, ci=ci, n_boot=a.n_boot, boot_seed=0, keep_degenerate=keep, log=said.append)
            rows += counts(gt, selection, ci)
    out = pd.DataFrame(rows)
    save_table(out, a.out)
    for line in dict.fromkeys(said): print(line)
    print(out.to_string(index=False))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
