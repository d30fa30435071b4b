"""Scoring speed: spbias vs HF PEFT + transformers inference on a Czarnowska-style bias set.

Same process, machine and model (SmolLM2-135M, from the offline GGUF), 8 prompt tokens, batch size 64,
the same sample of sentences generated from the Czarnowska et al. (2021) templates (spbias.biassets.templates, from
the shared data). spbias: length-bucketed batches, the prompt's keys/values computed once per batch, only
the three label logits at the last position (spbias.tuning.prompt.score_texts, timed after one warm-up pass that
compiles each shape). PEFT: a PromptTuning model, batches in the set's order padded to their longest row
(DataCollatorWithPadding), the model's full logits, then the label logits at the last position.
Results are written to benchmarks/results/score.json.

    python benchmarks/score.py [--n 1024] [--batch-size 64]
"""
from __future__ import annotations
import argparse, json, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT/"benchmarks"))
RESULTS = ROOT/"benchmarks"/"results"/"score.json"

import numpy as np


def bias_sentences(n:int, seed:int=0)->list[str]:
    "A random sample of n sentences of the Czarnowska-style bias set built from the shared templates."
    from spbias.core import shared_data_dir
    from spbias.biassets.templates import generate
    df = generate(shared_data_dir(required=True)/"czarnowska")
    return df.sample(min(n, len(df)), random_state=seed).text.tolist()


def spbias_scoring(model_t, texts, batch_size:int, n_prompts:int=1):
    from spbias.tuning.data import encode_texts, LABEL_NAMES
    from spbias.tuning.prompt import PromptConfig, prompt_base, score_texts
    from spbias.models.pretrained import label_token_ids
    model, tok, mcfg = model_t
    ids = encode_texts(tok, texts)
    lab = label_token_ids(tok, LABEL_NAMES)
    prompts = np.stack([prompt_base(model, PromptConfig(8, "vocab"), seed=s) for s in range(n_prompts)])
    kw = dict(batch_size=batch_size, buckets=(8, 16, 24, 32, 48, 64), pad_id=mcfg.pad_token_id or 0)
    t0 = time.time(); score_texts(model, prompts, ids, lab, **kw); warm = time.time() - t0
    t0 = time.time(); scores, _ = score_texts(model, prompts, ids, lab, **kw); dt = time.time() - t0
    lens = np.array([len(i) for i in ids])
    return dict(sentences=len(texts), prompts=n_prompts, seconds=dt, sentences_per_s=len(texts) * n_prompts / dt, warmup_compile_s=warm,
                mean_tokens=float(lens.mean()), max_tokens=int(lens.max())), scores


def peft_scoring(texts, batch_size:int, prompt_embeddings=None):
    import torch, transformers as tf
    from peft import PromptTuningConfig, PromptTuningInit, TaskType, get_peft_model
    from spbias.core import smollm2_gguf_path
    from spbias.tuning.data import LABEL_NAMES
    from spbias.models.pretrained import label_token_ids, load_tokenizer
    g = smollm2_gguf_path()
    tok = load_tokenizer(g)
    base = tf.AutoModelForCausalLM.from_pretrained(str(g.parent), gguf_file=g.name, torch_dtype=torch.float32)
    model = get_peft_model(base, PromptTuningConfig(task_type=TaskType.CAUSAL_LM, num_virtual_tokens=8, prompt_tuning_init=PromptTuningInit.RANDOM)).eval()
    if prompt_embeddings is not None:
        with torch.no_grad(): model.prompt_encoder["default"].embedding.weight.copy_(torch.as_tensor(prompt_embeddings))
    lab = torch.tensor(label_token_ids(tok, LABEL_NAMES))
    collator = tf.DataCollatorWithPadding(tok)
    enc = tok(list(texts), add_special_tokens=False)
    def run():
        out = []
        with torch.no_grad():
            for s in range(0, len(texts), batch_size):
                b = collator([{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i]} for i in range(s, min(s + batch_size, len(texts)))])
                logits = model(input_ids=b["input_ids"], attention_mask=b["attention_mask"]).logits
                last = b["attention_mask"].sum(1) - 1 + 8
                out.append(logits[torch.arange(len(last)), last][:, lab])
        return torch.cat(out).numpy()
    t0 = time.time(); run(); dt = time.time() - t0  # first pass (warm-up) ...
    t0 = time.time(); scores = run(); dt = time.time() - t0  # ... then the timed pass
    return dict(sentences=len(texts), seconds=dt, sentences_per_s=len(texts) / dt, torch_threads=torch.get_num_threads()), scores


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=1024, help="sentences in the sample")
    p.add_argument("--batch-size", type=int, default=64)
    a = p.parse_args()
    from tune import machine_info
    from spbias.models.pretrained import load_model
    from spbias.core import atomic_write_json, enable_compile_cache
    enable_compile_cache()
    texts = bias_sentences(a.n)
    model_t = load_model("smollm2")
    ours, s_ours = spbias_scoring(model_t, texts, a.batch_size)
    print("spbias", ours, flush=True)
    from spbias.tuning.prompt import PromptConfig, prompt_base
    peft, s_peft = peft_scoring(texts, a.batch_size, prompt_base(model_t[0], PromptConfig(8, "vocab"), seed=0))
    print("peft", peft, flush=True)
    res = dict(model="SmolLM2-135M-Instruct (float32)", data=f"{len(texts)} sentences sampled from the Czarnowska-style bias set",
               batch_size=a.batch_size, n_tokens=8, machine=machine_info(), spbias=ours, peft=peft,
               speedup_vs_peft=ours["sentences_per_s"] / peft["sentences_per_s"], target_speedup_vs_peft=3.0,
               max_abs_label_logit_difference=float(np.abs(s_ours[0] - s_peft).max()))
    res["target_met"] = res["speedup_vs_peft"] >= 3.0
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(RESULTS, res)
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
