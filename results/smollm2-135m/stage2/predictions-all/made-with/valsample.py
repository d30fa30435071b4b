"Rebuild a stage-2 run's validation sample (the run notebook's rule) and check it against config.json's table_sha256."
import json, sys
from pathlib import Path
import pandas as pd
from spbias.tuning.data import load_sentiment, table_sha256
run, out = Path(sys.argv[1]), Path(sys.argv[2])
cfg = json.loads((run/"config.json").read_text()); r = cfg["run"]
table = load_sentiment(r["dataset"], r["data_dir"], mapping=r["mapping"])
n = cfg["data_source"]["validation_rows"]
val = table[table.split == "validation"]; share = n / len(val)
picked = val.groupby("label", group_keys=False).apply(lambda g: g.sample(n=max(1, round(len(g) * share)), random_state=0))
table = table[table.split.ne("validation") | table.index.isin(picked.index)].reset_index(drop=True)
assert table_sha256(table) == cfg["table_sha256"], "sample differs from the run's"
v = table[table.split == "validation"]
pd.DataFrame({"label": v.label.to_numpy(), "category": "sentiment", "group": "validation", "text": v.text.to_numpy(),
              "template_id": [f"validation:{i}" for i in range(len(v))]}).to_csv(out, sep="\t", index=False)
print(out, len(v), v.label.value_counts().sort_index().tolist(), "table_sha256 matches")
