"""Split a bias set into chunks of whole templates (seeded random order: any finished prefix of chunks is a random sample of
templates), and join scored chunks into one gzipped predictions file. Used by run.sh."""
import csv, os, sys
from pathlib import Path
import numpy as np, pandas as pd
from spbias.templates import load_bias_set, save_bias_set

def split(bias_set:str, folder:str, per:int=125, seed:int=35):
    "Chunks part-000.tsv, part-001.tsv, ... of `per` templates each, once (a marker file says it was done)."
    out = Path(folder); out.mkdir(parents=True, exist_ok=True)
    if (out/".split").exists(): return
    b = load_bias_set(bias_set); tids = b.template_id.unique()
    order = np.random.default_rng(seed).permutation(len(tids))
    for k, s in enumerate(range(0, len(tids), per)):
        save_bias_set(b[b.template_id.isin(set(tids[order[s:s + per]]))], out/f"part-{k:03d}.tsv")
    (out/".split").touch()

def join(target:str, *parts:str):
    "The scored chunks in one .tsv.gz (written whole, then renamed)."
    df = pd.concat([pd.read_csv(p, sep="\t", quoting=csv.QUOTE_NONE, keep_default_na=False, dtype=str) for p in parts], ignore_index=True)
    df.to_csv(target + ".part", sep="\t", index=False, quoting=csv.QUOTE_NONE, compression="gzip")
    os.replace(target + ".part", target)
    print(f"{target}: {len(df)} rows from {len(parts)} chunk(s), {df.template_id.nunique()} templates")

if __name__ == "__main__":
    {"split": split, "join": join}[sys.argv[1]](*sys.argv[2:])
