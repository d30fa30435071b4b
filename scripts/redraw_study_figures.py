"""Redraw the published study's gap figures from its gap table (issue 34): the legend says what a filled marker means
(method, adjustment, test family and its size), x tick labels that do not overlap, and a "prompts near chance" note on
the panels of a tuning set whose top-5 prompts are not shown to beat the majority class (spbias.report.figures.near_chance).

    python scripts/redraw_study_figures.py [--study results/smollm2-135m/stage2] [--gaps t]
"""
import argparse, sys
from pathlib import Path
import pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from spbias.report import figures as F; from spbias.stats import metrics as M
from spbias.core import repo_root


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--study", type=Path, default=repo_root()/"results"/"smollm2-135m"/"stage2")
    ap.add_argument("--gaps", default="t", help="which gap table: tables/gaps_<this>.csv")
    a = ap.parse_args(argv)
    gaps = M.read_gaps(a.study/"tables"/f"gaps_{a.gaps}.csv")
    chance = F.near_chance(pd.read_csv(a.study/"tables"/"accuracy.csv"))
    for cat in gaps.category.unique():
        paths = F.save_figure(F.gap_figure(gaps, cat, near_chance=chance), a.study/"figures", f"gaps_{cat.replace('grouped_', '')}")
        print(f"wrote {', '.join(map(str, paths))}")
    print(f"near chance: {', '.join(chance) or 'none'}; legend: {F.significance_legend(gaps)}")


if __name__ == "__main__":
    main()
