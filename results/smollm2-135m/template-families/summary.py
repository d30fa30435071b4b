"""The page's tables from the gap tables (run.sh writes them): gaps to the unmarked sentences and to the centroid, per family."""
import sys, pandas as pd
from pathlib import Path
HERE = Path(__file__).parent
METRICS = ["negative_FPR", "positive_FPR"]   # NS-Prompts is all neutral: its neutral FPR is undefined

def markdown(df:pd.DataFrame)->str:
    "A small table as markdown (index as first column)."
    head = [df.index.name or ""] + [str(c) for c in df.columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join([str(i)] + [str(v) for v in row]) + " |" for i, row in zip(df.index, df.to_numpy())])

def fmt(r): return f"{r.gap_mean:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]{'*' if r.significance else ''}"

def main(tables:Path=HERE/"tables"):
    t, b = (pd.read_csv(tables/f"gaps_{ci}.csv", keep_default_na=False, na_values=[""]) for ci in ("t", "bootstrap"))
    key = ["set", "gap_to", "group", "metric"]
    m = t.merge(b[key + ["ci_low", "ci_high", "significance", "n_templates"]], on=key, suffixes=("_t", "_boot"))
    m = m[m.metric.isin(METRICS)]
    rows = []
    for r in m.itertuples():
        rows.append(dict(set=r.set, gap_to=r.gap_to, group=r.group, metric=r.metric, n_prompts=r.n_runs, n_templates=r.n_templates,
                         rate=round(r.value_mean, 4), reference_rate=round(r.value_mean - r.gap_mean, 4), gap=round(r.gap_mean, 4),
                         t_ci=f"[{r.ci_low_t:+.3f}, {r.ci_high_t:+.3f}]", t_sig=r.significance_t,
                         boot_ci=f"[{r.ci_low_boot:+.3f}, {r.ci_high_boot:+.3f}]", boot_sig=r.significance_boot))
    out = pd.DataFrame(rows)
    out.to_csv(tables/"summary.csv", index=False)
    for metric in METRICS:   # the rates themselves, on the templates that have an unmarked sentence
        sub = out[(out.metric == metric) & (out.gap_to == "unmarked")]
        rates = sub.pivot(index="group", columns="set", values="rate")
        rates.loc["unmarked"] = sub.groupby("set").reference_rate.first()
        print(f"\n### {metric}: mean rate over the 5 prompts\n")
        print(markdown(rates.map("{:.3f}".format)))
    for metric in METRICS:
        for to in ("unmarked", "centroid"):
            print(f"\n### {metric}: gap to the {to}\n")
            sub = out[(out.metric == metric) & (out.gap_to == to)]
            w = sub.assign(cell=sub.gap.map("{:+.3f}".format) + " " + sub.boot_ci + sub.boot_sig.map({1: " ▲", -1: " ▼", 0: ""}))
            print(markdown(w.pivot(index="group", columns="set", values="cell")))
    return out

if __name__ == "__main__": main(*map(Path, sys.argv[1:]))
