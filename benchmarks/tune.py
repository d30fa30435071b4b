"""Soft-prompt tuning speed: spbias vs HF PEFT prompt tuning, and many seeds at once vs one after another.

Same process, machine, model (SmolLM2-135M, from the offline GGUF), data (SST-5 train with its real
length distribution, 3-class) and batch size. Both sides run the same number of timed steps after a
warm-up (compilation for spbias, first steps for torch), on batches drawn the way each recipe draws them:
spbias random batches packed several texts to a row (spbias.tuning.data.PackedBatcher, the `spbias tune`
default; length-bucketed batches, `packing=False`, are timed too), PEFT random batches padded to their
longest row (DataCollatorWithPadding). Results are merged into benchmarks/results/tune.json.

    python benchmarks/tune.py                 # speed: spbias vs PEFT, 15 seeds together vs sequential
    python benchmarks/tune.py --real-run      # a short real tuning run on SST-5 (accuracy, steps, wall time)
"""
from __future__ import annotations
import argparse, json, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT/"benchmarks"))
RESULTS = ROOT/"benchmarks"/"results"/"tune.json"

import numpy as np
from step_speed import spbias_speed  # the measurement benchmarks/gpu.py takes too


def machine_info()->dict:
    import jax, torch
    return dict(platform=platform.platform(), processor=platform.processor() or platform.machine(), cpu_count=os.cpu_count(),
                python=platform.python_version(), jax=jax.__version__, jax_backend=jax.default_backend(), torch=torch.__version__,
                torch_threads=torch.get_num_threads(), load_average_at_start=os.getloadavg())


def merge_results(key:str, value:dict):
    from spbias.core import atomic_write_json
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data[key] = value
    atomic_write_json(RESULTS, data)
    print(json.dumps({key: value}, indent=2))


# ---------------------------------------------------------------------------------------------- real run
def real_run(a):
    "A short real run: SmolLM2-135M, 8 BOS-initialised tokens, SST-5 (3-class) from the shared data."
    import pandas as pd
    from spbias.tuning.data import load_sentiment
    from spbias.tuning.tune import TuneConfig, tune
    from spbias.tuning.run import read_summaries
    from spbias.models.pretrained import load_model
    t0 = time.time()  # tune() turns on spbias' compilation cache
    model = load_model("smollm2")
    table = load_sentiment("sst5")
    test = table[table.split == "test"]
    if a.test_limit and len(test) > a.test_limit:  # a stratified-by-chance random sample of the test split, to keep the run short
        test = test.sample(a.test_limit, random_state=0)
    table = pd.concat([table[table.split != "test"], test], ignore_index=True)
    cfg = TuneConfig(model="smollm2", dataset="sst5", seeds=a.seeds, n_tokens=8, lr=a.lr, batch_size=16, eval_every=a.eval_every,
                     eval_batch_size=64, min_steps=0, max_steps=a.max_steps, early_stopping=False, checkpoint_every=0, buckets=tuple(a.buckets),
                     loss=a.loss, out=a.out, force=True)
    run = tune(cfg, model=model, table=table)
    wall = time.time() - t0
    s = read_summaries(run)
    metrics = {int(r.seed): [json.loads(l) for l in (Path(run)/f"seed-{r.seed}"/"metrics.jsonl").read_text().splitlines()] for r in s.itertuples()}
    val = table[table.split == "validation"].label
    merge_results("real_run", dict(
        model="SmolLM2-135M-Instruct (Q4_1 GGUF, dequantised, float32)", dataset="SST-5 3-class (shared data)",
        config=cfg.identity(), steps=a.max_steps, examples_seen_per_seed=a.max_steps * 16,
        validation_size=int(len(val)), majority_validation_accuracy=float(val.value_counts().max() / len(val)),
        test_size=int(len(test)), test_note=("random sample of the test split" if len(test) < int((load_sentiment("sst5", split="test")).shape[0]) else "full test split"),
        per_seed=s.to_dict(orient="records"), metrics=metrics, wall_time_s=round(wall, 1), machine=machine_info()))


# ---------------------------------------------------------------------------------------------- speed
def peft_speed(texts, labels, steps:int, batch_size:int, cfg, seed:int=0):
    "Train examples/s of HF PEFT prompt tuning (8 virtual tokens) with torch AdamW, the usual recipe."
    import torch, transformers as tf
    from peft import PromptTuningConfig, PromptTuningInit, TaskType, get_peft_model
    from spbias.core import smollm2_gguf_path
    from spbias.tuning.data import LABEL_NAMES
    from spbias.models.pretrained import label_token_ids, load_tokenizer
    from work import train_macs
    torch.manual_seed(seed)
    g = smollm2_gguf_path()
    tok = load_tokenizer(g)
    base = tf.AutoModelForCausalLM.from_pretrained(str(g.parent), gguf_file=g.name, torch_dtype=torch.float32)
    model = get_peft_model(base, PromptTuningConfig(task_type=TaskType.CAUSAL_LM, num_virtual_tokens=8, prompt_tuning_init=PromptTuningInit.RANDOM))
    model.train()
    lab = torch.tensor(label_token_ids(tok, LABEL_NAMES))
    collator = tf.DataCollatorWithPadding(tok)
    enc = tok(list(texts), add_special_tokens=False)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(texts))
    def step(k):
        idx = order[(k * batch_size) % len(order):][:batch_size]
        if len(idx) < batch_size: idx = rng.permutation(len(texts))[:batch_size]
        b = collator([{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i]} for i in idx])
        out = model(input_ids=b["input_ids"], attention_mask=b["attention_mask"])
        last = b["attention_mask"].sum(1) - 1 + 8  # virtual tokens come first
        logits = out.logits[torch.arange(len(idx)), last]  # [B, V]
        loss = torch.nn.functional.cross_entropy(logits, lab[torch.as_tensor(labels[idx])])
        opt.zero_grad(); loss.backward(); opt.step()
        return len(idx), b["input_ids"].shape[1] + 8  # rows, row length with the virtual tokens
    for k in range(2): step(k)  # warm-up
    t0, n, tokens, macs = time.time(), 0, 0, 0
    for k in range(steps):
        B, T = step(2 + k); n += B; tokens += B * T
        macs += train_macs(cfg, B * T, B * T * T, B * T)  # full logits at every position, as the model computes them
    dt = time.time() - t0
    return dict(examples=n, seconds=dt, examples_per_s=n / dt, steps=steps, torch_threads=torch.get_num_threads(),
                computed_tokens=tokens, macs=macs)


def speed(a):
    from work import summary
    from spbias.core import enable_compile_cache
    from spbias.tuning.data import load_sentiment, encode_texts
    from spbias.models.pretrained import load_model
    enable_compile_cache()
    train = load_sentiment("sst5", split="train")
    model_t = load_model("smollm2")
    ids = encode_texts(model_t[1], train.text.tolist())
    labels = train.label.to_numpy()
    res = dict(model="SmolLM2-135M-Instruct (float32)", data="SST-5 train (8544 sentences, 3-class)", batch_size=a.batch_size,
               n_tokens=8, machine=machine_info())
    res["peft"] = peft_speed(train.text.tolist(), labels, a.peft_steps, a.batch_size, model_t[2])
    print("peft", res["peft"], flush=True)
    res["spbias_1_seed"] = spbias_speed(model_t, ids, labels, [1001], a.steps, a.batch_size, a.buckets, first_batch=1000)
    print("spbias 1 seed", res["spbias_1_seed"], flush=True)
    res["spbias_1_seed_bucketed"] = spbias_speed(model_t, ids, labels, [1001], a.steps, a.batch_size, a.buckets, packing=False, first_batch=1000)
    print("spbias 1 seed, bucketed", res["spbias_1_seed_bucketed"], flush=True)
    res["speedup_vs_peft"] = res["spbias_1_seed"]["examples_per_s"] / res["peft"]["examples_per_s"]
    res["target_speedup_vs_peft"] = 2.5
    res["target_met"] = res["speedup_vs_peft"] >= 2.5
    # per example: the work ratio is the speed-up both would reach at the same multiply-accumulates per second
    ours_per_ex, peft_per_ex = (res[k]["macs"] / res[k]["examples"] for k in ("spbias_1_seed", "peft"))
    res["work"] = summary(ours_per_ex, peft_per_ex, res["speedup_vs_peft"]) | dict(
        unit="multiply-accumulates per training example (benchmarks/work.py)",
        spbias_macs_per_s=res["spbias_1_seed"]["macs"] / res["spbias_1_seed"]["seconds"], peft_macs_per_s=res["peft"]["macs"] / res["peft"]["seconds"])
    if a.many_seeds:
        seeds = list(range(1001, 1001 + a.many_seeds))
        res[f"spbias_{a.many_seeds}_seeds_together"] = m = spbias_speed(model_t, ids, labels, seeds, a.many_steps, a.batch_size, a.buckets, first_batch=1000)
        print("spbias many", m, flush=True)
        res["seeds_together_vs_sequential"] = m["seed_steps_per_s"] / res["spbias_1_seed"]["seed_steps_per_s"]
    merge_results("speed", res)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--real-run", action="store_true")
    p.add_argument("--seeds", default="1001")
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--loss", default="full_vocab")
    p.add_argument("--max-steps", type=int, default=40)
    p.add_argument("--eval-every", type=int, default=40)
    p.add_argument("--test-limit", type=int, default=600)
    p.add_argument("--out", default=str(ROOT/"runs_out"/"real_run_sst5"))
    p.add_argument("--buckets", type=int, nargs="+", default=[8, 16, 24, 32, 48, 64, 96, 128])
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--steps", type=int, default=6, help="timed spbias steps")
    p.add_argument("--peft-steps", type=int, default=6, help="timed PEFT steps")
    p.add_argument("--many-seeds", type=int, default=15)
    p.add_argument("--many-steps", type=int, default=2)
    a = p.parse_args()
    real_run(a) if a.real_run else speed(a)
