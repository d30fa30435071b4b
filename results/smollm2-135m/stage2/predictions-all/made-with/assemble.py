"Assemble predictions-all/ (all 15 prompts on the scored subset) and validation-answers/ from the scratch outputs."
import gzip, io, sys
from pathlib import Path
import numpy as np, pandas as pd
R = Path("/work/h-selection/results/smollm2-135m/stage2")
OUT, VAL = R/"predictions-all", R/"validation-answers"
ATTRS = "sexuality age disability race gender religion nationality names".split()
KEY = ["y_true", "category", "group", "text", "template_id"]
parts = [p for p in sys.argv[1:]]          # which scratch outputs to use, e.g. small big
def read(p): return pd.read_csv(p, sep="\t", keep_default_na=False, dtype=str)
def write_gz(df, path):
    buf = io.StringIO(); df.to_csv(buf, sep="\t", index=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as g: g.write(buf.getvalue().encode())
def with_n(df): return df.assign(_n=df.groupby(KEY).cumcount())
for s in ("sst5", "semeval"):
    subset = pd.concat([read(f"/tmp/sel/subset/{p}.tsv") for p in parts], ignore_index=True).rename(columns={"label": "y_true"})
    new = pd.concat([read(f"/tmp/sel/out/{p}_{s}.tsv") for p in parts], ignore_index=True)
    for a in ATTRS:
        old = read(R/"predictions"/f"czarnowska-{a}_{s}.tsv.gz"); cols = list(old.columns)
        sub = with_n(subset[subset.category.isin(old.category.unique())][KEY])
        top = pd.concat([with_n(g).merge(sub, on=KEY + ["_n"]) for _, g in old.groupby("seed", sort=True)])
        rest = pd.concat([with_n(g).merge(sub, on=KEY + ["_n"]) for _, g in new[new.category.isin(old.category.unique())].groupby("seed", sort=True)])
        assert len(top) == 5 * len(sub) and len(rest) == 10 * len(sub), (a, s, len(top), len(rest), len(sub))
        both = pd.concat([top[cols], rest[cols]]).sort_values("seed", kind="stable")
        write_gz(both, OUT/f"czarnowska-{a}_{s}.tsv.gz")
        print(s, a, len(sub), "rows per prompt,", both.seed.nunique(), "prompts")
    v = read(f"/tmp/sel/out/validation_{s}.tsv")
    keep = [c for c in ["y_true", "y_pred", "category", "group", "text", "model", "run_id", "dataset", "seed",
                        "validation_accuracy", "test_accuracy", "score_negative", "score_neutral", "score_positive",
                        "template_id"]]
    v = v[keep].assign(text="")          # the tuning set's sentences are not published: each row's sentence is its template_id
    acc = v.assign(ok=v.y_true == v.y_pred).groupby("seed").agg(ok=("ok", "mean"), rec=("validation_accuracy", "first"))
    assert np.allclose(acc.ok, acc.rec.astype(float), atol=1e-9), acc
    write_gz(v, VAL/f"{s}.tsv.gz")
    print(s, "validation answers: every prompt's accuracy equals its recorded validation accuracy;", len(v), "rows")
