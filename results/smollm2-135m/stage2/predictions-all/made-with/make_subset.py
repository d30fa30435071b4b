"Nested tranches of the stratified subset: bias_set(czarnowska:<a>, templates_per_label=t, terms_per_group=3, seed=0) -- the sweep's own rule; t=2 is tranche 1, t=4 minus t=2 tranche 2."
import pandas as pd
from spbias.biassets.templates import bias_set
attrs = "sexuality age disability race gender religion nationality names".split()
def subset(t): return pd.concat([bias_set(f"czarnowska:{a}", None, t, 3, 0)[1] for a in attrs], ignore_index=True)
t2, t4 = subset(2), subset(4)
cols = list(t2.columns)
rest = t4.merge(t2.assign(_in=1), on=cols, how="left"); rest = rest[rest._in.isna()].drop(columns="_in")
assert len(rest) + len(t2) == len(t4)
t2.to_csv("/tmp/sel/subset/small.tsv.new", sep="\t", index=False); rest.to_csv("/tmp/sel/subset/big.tsv.new", sep="\t", index=False)
print(len(t2), len(rest), len(t4))
