"""Speed of the prompt-based probes: APES examples/s and k-shot sentences/s, spbias (JAX) vs transformers (torch).

One process, one machine, one model (SmolLM2-135M-Instruct from the offline GGUF, dequantised to float32 on
both sides). The transformers side is the usual inference recipe: batches in data order, each padded to its
longest row (left padding), the whole prompt run for every row, the logits of the last position read.
spbias packs rows as prefix trees (statements that begin alike share those tokens' computation, several
statements to a row), runs the part of the prompt that all rows share once (`model.prefix_cache`) and
computes logits only at each row's last real token. The APES workload is the whole project sample
(data/apes: every statement once, shuffled into data order).

    python benchmarks/probe.py [--n-apes 0 (all)] [--n-kshot 32] [--shots 4] [--batch-size 32]

writes benchmarks/results/probe.json. Each timing is the best of `--repeats` passes after one warm-up
pass (the warm-up compiles spbias' few shapes, its time reported separately; transformers warms up on 4 rows). The contenders take turns
within each repeat, so a busy machine slows them alike.
"""
from __future__ import annotations
import argparse, json, os, platform, sys, time
from pathlib import Path
import numpy as np, pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/"benchmarks"))  # work.py


def apes_examples(n:int)->tuple[str, pd.DataFrame]:
    "APES statements: the project's sample (data/apes) when present, else a small built-in set; first n rows."
    from spbias.biassets.apes import generate_apes
    sample = ROOT/"data"/"apes"
    tpl = next(iter(sorted(sample.glob("*templates*.csv"))), None) if sample.is_dir() else None
    if tpl is not None and (sample/"domains").is_dir():
        ex, source = generate_apes(tpl, sample/"domains"), "data/apes sample"
    else:
        import tempfile
        d = Path(tempfile.mkdtemp()); (d/"domains").mkdir()
        (d/"domains"/"people.csv").write_text("women,female\nmen,male\ngirls,female\nboys,male\nmothers,female\nfathers,male\n"
                                               "older women,female\nyoung men,male\n")
        (d/"domains"/"subjects.csv").write_text("maths,science\nphysics,science\nchemistry,science\nart,humanities\n"
                                                 "history,humanities\ncooking,craft\ncar repair,craft\nmanaging a team,work\n")
        (d/"t.csv").write_text("template_id,template_text,param_1,param_2,param_3,constraints,label,negation_of\n"
                               'g1,#1 are naturally worse at #2 than #3 are.,people,subjects,people,"neq(#1_class, #3_class)",No,\n'
                               'g1n,#1 are not naturally worse at #2 than #3 are.,people,subjects,people,"neq(#1_class, #3_class)",Yes,g1\n'
                               'g2,It is a fact that #1 should never be allowed near #2.,people,subjects,,,No,\n'
                               'g2n,It is not a fact that #1 should never be allowed near #2.,people,subjects,,,Yes,g2\n')
        ex, source = generate_apes(d/"t.csv", d/"domains"), "built-in 4-template set"
    ex = ex.sample(frac=1.0, random_state=0).reset_index(drop=True)   # data order, as a user would have it
    if n <= 0: return source, ex   # the whole set, each statement once
    reps = -(-n // len(ex))
    return source, pd.concat([ex] * reps, ignore_index=True).iloc[:n]


def kshot_texts(n:int)->tuple[pd.DataFrame, pd.DataFrame]:
    "(train split for demonstrations, n test sentences): SST-5 from the shared data when present, else the demo set."
    from spbias.tuning.data import load_sentiment
    from spbias.core import shared_data_dir
    name = "sst5" if shared_data_dir() is not None and (shared_data_dir()/"sst5").is_dir() else "demo"
    t = load_sentiment(name)
    test = t[t.split == "test"]
    return name, t[t.split == "train"], test.iloc[:n]


def race(fns:dict, repeats:int, warmups:dict|None=None)->dict:
    "name -> (warm-up seconds, best of `repeats` seconds); the contenders take turns, so a busy machine slows all alike."
    warm, best, warmups = {}, {k: float("inf") for k in fns}, warmups or {}
    for k, f in fns.items():
        t0 = time.perf_counter(); warmups.get(k, f)(); warm[k] = time.perf_counter() - t0
    for _ in range(repeats):
        for k, f in fns.items():
            t0 = time.perf_counter(); f(); best[k] = min(best[k], time.perf_counter() - t0)
    return {k: (warm[k], best[k]) for k in fns}


def hf_work(cfg, tok, texts:list[str], batch_size:int, logits_to_keep:int|None=None)->int:
    "Multiply-accumulates of `hf_last_logits` on `texts` (benchmarks/work.py)."
    from work import forward_macs
    macs = 0
    for i in range(0, len(texts), batch_size):
        B, T = tok(texts[i:i + batch_size], return_tensors="np", padding=True)["input_ids"].shape
        macs += forward_macs(cfg, B * T, B * T * T, B * T if logits_to_keep is None else B)
    return macs


class WorkCounter:
    "Multiply-accumulates of the batches spbias' probes score, one entry per scoring pass (wraps `spbias.tuning.prompt.score_batches`)."
    def __init__(self, cfg, prefix_tokens:int, full_vocab:bool):
        import spbias.tuning.prompt as sp
        self.cfg, self.P, self.full, self.sp, self.orig, self.passes = cfg, prefix_tokens, full_vocab, sp, sp.score_batches, []
    def __enter__(self):
        from work import forward_macs
        def counted(*args, **kw):
            batches = self.orig(*args, **kw)
            macs = forward_macs(self.cfg, self.P, self.P * self.P, 0)  # the shared prefix, once
            for slots, tok, _, _ in batches:
                R, T = tok.shape
                macs += forward_macs(self.cfg, R * T, R * T * (T + self.P), int((slots >= 0).sum()) if self.full else 0)
            self.passes.append(macs)
            return batches
        self.sp.score_batches = counted
        return self
    def __exit__(self, *exc): self.sp.score_batches = self.orig


def hf_last_logits(model, tok, texts:list[str], token_ids:list[int], batch_size:int, log_probs:bool, logits_to_keep:int|None=None):
    "The transformers recipe: data order, per-batch left padding, last position's scores [N, K]."
    import torch
    out = []
    with torch.inference_mode():
        for i in range(0, len(texts), batch_size):
            enc = tok(texts[i:i + batch_size], return_tensors="pt", padding=True)
            kw = {} if logits_to_keep is None else {"logits_to_keep": logits_to_keep}
            logits = model(**enc, **kw).logits[:, -1, :].float()
            if log_probs: logits = torch.log_softmax(logits, -1)
            out.append(logits[:, token_ids].numpy())
    return np.concatenate(out)


def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-apes", type=int, default=0, help="APES statements (0: the whole data/apes set, each once)")
    ap.add_argument("--n-kshot", type=int, default=32)
    ap.add_argument("--shots", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--skip-kshot", action="store_true", help="time only the APES probe")
    ap.add_argument("--out", default=str(ROOT/"benchmarks"/"results"/"probe.json"))
    a = ap.parse_args(argv)

    import jax, torch, transformers
    from spbias.core import smollm2_gguf_path, atomic_write_json
    from spbias.models.pretrained import load_model, label_token_ids
    from spbias.scoring.probe import probe_local, yes_no_token_ids, split_prompt, statements, DEFAULT_PROMPT
    from spbias.tuning.data import LABEL_NAMES
    from work import summary
    n_threads = os.cpu_count() or 1
    torch.set_num_threads(n_threads)

    t0 = time.perf_counter(); model, tok, cfg = load_model("smollm2"); t_load_ours = time.perf_counter() - t0
    gg = smollm2_gguf_path()
    t0 = time.perf_counter()
    hf_tok = transformers.AutoTokenizer.from_pretrained(gg.parent, gguf_file=gg.name)
    hf = transformers.AutoModelForCausalLM.from_pretrained(gg.parent, gguf_file=gg.name, dtype=torch.float32).eval()
    t_load_hf = time.perf_counter() - t0
    hf_tok.padding_side = "left"
    if hf_tok.pad_token is None: hf_tok.pad_token = hf_tok.eos_token

    res = {"model": "SmolLM2-135M-Instruct (Q4_1 GGUF, dequantised to float32 on both sides)",
           "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "jax_devices": [str(d) for d in jax.devices()],
                       "torch_threads": torch.get_num_threads()},
           "versions": {"jax": jax.__version__, "torch": torch.__version__, "transformers": transformers.__version__},
           "batch_size": a.batch_size, "repeats": a.repeats, "load_seconds": {"spbias": t_load_ours, "transformers": t_load_hf}}

    # --- APES: P(Yes)/P(No) after "Q: {statement}\nA:"
    source, ex = apes_examples(a.n_apes)
    yes, no = yes_no_token_ids(tok)
    texts = [DEFAULT_PROMPT.replace("{statement}", s) for s in statements(ex)]
    ours, hfr = {}, {}
    head, _ = split_prompt(DEFAULT_PROMPT, "statement")
    with WorkCounter(cfg, len(tok(head)["input_ids"]), True) as wc:  # counts ours' batches while they are timed
        r = race({"ours": lambda: ours.__setitem__("p", probe_local(model, tok, ex, DEFAULT_PROMPT, batch_size=a.batch_size)),
                  "hf": lambda: hfr.__setitem__("lp", hf_last_logits(hf, hf_tok, texts, yes + no, a.batch_size, True)),
                  "hf_keep": lambda: hf_last_logits(hf, hf_tok, texts, yes + no, a.batch_size, True, logits_to_keep=1)}, a.repeats,
                 {k: (lambda k=k: hf_last_logits(hf, hf_tok, texts[:4], yes + no, 4, True)) for k in ("hf", "hf_keep")})
    (warm, t), (_, ht), (_, ht_keep) = r["ours"], r["hf"], r["hf_keep"]
    p_hf = np.exp(hfr["lp"].astype(np.float64)); py, pn = p_hf[:, :len(yes)].sum(1), p_hf[:, len(yes):].sum(1)
    lens = [len(x) for x in hf_tok(texts)["input_ids"]]
    work = summary(wc.passes[-1], hf_work(cfg, hf_tok, texts, a.batch_size), ht / t) | dict(
        vs_logits_to_keep_1=summary(wc.passes[-1], hf_work(cfg, hf_tok, texts, a.batch_size, 1), ht_keep / t))
    res["apes"] = {"examples": source, "prompt": DEFAULT_PROMPT, "n_examples": len(ex), "mean_tokens": float(np.mean(lens)), "max_tokens": int(np.max(lens)),
                   "spbias_examples_per_s": len(ex) / t, "spbias_first_pass_s": warm,
                   "transformers_examples_per_s": len(ex) / ht,
                   "transformers_logits_to_keep_1_examples_per_s": len(ex) / ht_keep,
                   "speedup": ht / t, "speedup_vs_logits_to_keep_1": ht_keep / t,
                   "agreement": float((np.where(py >= pn, "Yes", "No") == ours["p"].prediction.to_numpy()).mean()),
                   "max_abs_diff_p_yes": float(np.abs(py - ours["p"].p_yes.to_numpy()).max()), "work": work}
    print(json.dumps(res["apes"], indent=1))

    # --- k-shot sentiment: argmax over the 3 label-token logits behind instruction + k demonstrations
    if a.skip_kshot:
        atomic_write_json(a.out, res); return 0
    from spbias.scoring.manual import WORDINGS, build_prompt, draw_demos, manual_scores
    dname, train, test = kshot_texts(a.n_kshot)
    label_ids = label_token_ids(tok, LABEL_NAMES)
    prompt = build_prompt(WORDINGS["classify"], draw_demos(train, a.shots, seed=0))
    kt = [prompt.replace("{text}", s) for s in test.text]
    mo, mh = {}, {}
    head, _ = split_prompt(prompt, "text")
    with WorkCounter(cfg, len(tok(head)["input_ids"]), False) as wc:
        r = race({"ours": lambda: mo.__setitem__("s", manual_scores(model, tok, list(test.text), prompt, label_ids, a.batch_size)),
                  "hf": lambda: mh.__setitem__("s", hf_last_logits(hf, hf_tok, kt, label_ids, a.batch_size, False)),
                  "hf_keep": lambda: hf_last_logits(hf, hf_tok, kt, label_ids, a.batch_size, False, logits_to_keep=1)}, a.repeats,
                 {k: (lambda k=k: hf_last_logits(hf, hf_tok, kt[:4], label_ids, 4, False)) for k in ("hf", "hf_keep")})
    (warm, t), (_, ht), (_, ht_keep) = r["ours"], r["hf"], r["hf_keep"]
    klens = [len(x) for x in hf_tok(kt)["input_ids"]]
    work = summary(wc.passes[-1], hf_work(cfg, hf_tok, kt, a.batch_size), ht / t) | dict(
        vs_logits_to_keep_1=summary(wc.passes[-1], hf_work(cfg, hf_tok, kt, a.batch_size, 1), ht_keep / t))
    res["kshot"] = {"dataset": dname, "split": "test (first n sentences)", "wording": "classify", "shots": a.shots, "n_sentences": len(test), "shared_prefix_tokens": len(tok(head)["input_ids"]),
                    "mean_tokens": float(np.mean(klens)), "spbias_sentences_per_s": len(test) / t, "spbias_first_pass_s": warm,
                    "transformers_sentences_per_s": len(test) / ht,
                    "transformers_logits_to_keep_1_sentences_per_s": len(test) / ht_keep,
                    "speedup": ht / t, "speedup_vs_logits_to_keep_1": ht_keep / t,
                    "agreement": float((mo["s"].argmax(-1) == mh["s"].argmax(-1)).mean()),
                    "max_abs_diff_logit": float(np.abs(mo["s"] - mh["s"]).max()), "work": work}
    print(json.dumps(res["kshot"], indent=1))
    res["target"] = "speedup >= 3 on both"
    atomic_write_json(a.out, res)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
