"""The like-for-like SemEval comparison (issue 34, item 4): the same two seeds' prompts after the first study's 150 steps and
after the longer budget, scored on the same 937 test tweets; per seed, accuracy and macro-F1 of each prompt and an exact
McNemar test on the tweets where the two disagree.

    python scripts/semeval_like_for_like.py [--out results/smollm2-135m/semeval-budget]

Writes like_for_like.csv (per seed) and like_for_like_predictions.csv.gz (per tweet and seed: its row in the test split,
the gold label and both prompts' answers; no text: SemEval-2018's terms forbid redistributing it). Needs the SemEval data
(shared data) and the offline SmolLM2 model; runs on a CPU in minutes.
"""
import argparse, json, sys
from pathlib import Path
import numpy as np, pandas as pd
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from spbias.core import repo_root, save_table
from spbias.tuning.data import load_sentiment, encode_texts
from spbias.stats.metrics import class_quality
from spbias.models.pretrained import load_model
from spbias.tuning.prompt import score_texts

R = repo_root()/"results"/"smollm2-135m"
SHORT = R/"stage2-runs"/"smollm2"/"semeval"/"lr0.001-n8-s1001-1015"   # the first study: 150 steps, batch 8
LONG = R/"semeval-budget"/"runs"/"full_vocab"                           # the longer budget: early stopped at 3,400 and 2,500
SEEDS = (1001, 1002)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=R/"semeval-budget")
    a = ap.parse_args(argv)
    from statsmodels.stats.contingency_tables import mcnemar
    cfg = {k: json.loads((d/"config.json").read_text()) for k, d in (("150", SHORT), ("long", LONG))}
    assert cfg["150"]["label_token_ids"] == cfg["long"]["label_token_ids"], "the two runs score different label tokens"
    run = cfg["long"]["run"]
    test = load_sentiment("semeval", None, split="test", mapping=run["mapping"]).reset_index(drop=True)
    model, tok, _ = load_model(run["model"], run.get("dtype", "float32"))
    ids = encode_texts(tok, test.text.astype(str).tolist(), run.get("max_len", 128))
    prompts = np.stack([np.load(d/f"seed-{s}"/"prompt.npz")["embeddings"] for s in SEEDS for d in (SHORT, LONG)])
    scores, _ = score_texts(model, prompts, ids, cfg["long"]["label_token_ids"], 64, tuple(run.get("buckets")), progress=True)
    answers = np.asarray(scores).argmax(-1).reshape(len(SEEDS), 2, len(test))   # [seed, (150, long), tweet]
    y = test.label.to_numpy(int)
    rows, per_tweet = [], []
    for i, s in enumerate(SEEDS):
        short, long_ = answers[i]
        q1, q2 = class_quality(y, short), class_quality(y, long_)
        right1, right2 = short == y, long_ == y
        table = [[int((right1 & right2).sum()), int((right1 & ~right2).sum())], [int((~right1 & right2).sum()), int((~right1 & ~right2).sum())]]
        rows.append(dict(seed=s, n=len(y), accuracy_150=right1.mean(), accuracy_long=right2.mean(), macro_f1_150=q1["macro_f1"],
                         macro_f1_long=q2["macro_f1"], majority_macro_f1=q1["majority_f1"], majority_accuracy=np.bincount(y).max() / len(y),
                         only_150_right=table[0][1], only_long_right=table[1][0], mcnemar_exact_p=mcnemar(table, exact=True).pvalue,
                         answers_150="/".join(map(str, q1["pred_counts"])), answers_long="/".join(map(str, q2["pred_counts"]))))
        per_tweet.append(pd.DataFrame({"row": np.arange(len(y)), "y_true": y, "seed": s, "y_pred_150": short, "y_pred_long": long_}))
    out = pd.DataFrame(rows)
    save_table(out, a.out/"like_for_like.csv")
    pd.concat(per_tweet).to_csv(a.out/"like_for_like_predictions.csv.gz", index=False)
    print(out.to_string(index=False, float_format=lambda v: f"{v:.4g}"))


if __name__ == "__main__":
    main()
