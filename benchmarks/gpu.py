"""Tuning speed on an accelerator: spbias (1 seed and 15 seeds, float32 and bfloat16) vs HF PEFT prompt tuning, in one process.

Both sides tune 8 soft prompt tokens in front of the same frozen model on the same device, with the same batch size, on
the same texts (SST-5 train from the shared data, else the project's demo set), full-vocabulary loss, AdamW:

- spbias: `spbias.tune.make_train_step` as `spbias tune` runs it (the scanned layer stack, its default), on the batches its
  batcher draws (texts packed several to a row). Every step shape the timed steps use is compiled first (ahead of time,
  `lower().compile()`), and those seconds are recorded apart: `compile_s`, and `first_step_s`, the seconds from a
  loaded model to the end of its first step (the figure `spbias tune` prints).
- PEFT: `peft.get_peft_model` with a `PromptTuningConfig` (8 virtual tokens), torch AdamW, the same loss. Its batches
  are padded to their longest row and moved to the device before timing (DataCollatorWithPadding), so the timed loop
  is the model alone; bfloat16 is torch's autocast, as a PEFT script would use it.

Model FLOP utilisation (MFU) counts the matrix products of the work each side must do (benchmarks/work.py: the forward
and the backward pass to the inputs, 2 FLOPs a multiply-accumulate) against the device's dense peak for that dtype
(PEAK_TFLOPS, or --peak-tflops). On a CPU there is no peak to quote and MFU is left out.

    python benchmarks/gpu.py                         # SmolLM2-135M (offline GGUF), writes benchmarks/results/gpu.json
    python benchmarks/gpu.py --tiny --out /tmp/g.json  # a random 2-layer LLaMA: checks that the script runs, anywhere
"""
from __future__ import annotations
import argparse, json, os, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT/"benchmarks"))
import numpy as np
from step_speed import spbias_speed  # the measurement benchmarks/tune.py takes too

# dense peak TFLOP/s by device kind and dtype (vendor data sheets; float32 without TF32, SXM parts)
PEAK_TFLOPS = {
    "H100": {"float32": 67.0, "bfloat16": 989.0},
    "H200": {"float32": 67.0, "bfloat16": 989.0},
    "A100": {"float32": 19.5, "bfloat16": 312.0},
    "A40": {"float32": 37.4, "bfloat16": 149.7},
    "L4": {"float32": 30.3, "bfloat16": 121.0},
    "TPU v3": {"float32": None, "bfloat16": 123.0},
    "TPU v4": {"float32": None, "bfloat16": 275.0},
}
TARGETS = dict(speedup_vs_peft_float32=10.0, seeds_together_vs_one=8.0, first_step_s=20.0)


def peak_tflops(device_kind:str, dtype:str, override:float|None=None)->float|None:
    "The device's dense peak for `dtype`, from PEAK_TFLOPS by the first name its kind contains (None: unknown, e.g. a CPU)."
    if override: return override
    return next((v[dtype] for k, v in PEAK_TFLOPS.items() if k.lower() in device_kind.lower()), None)


def load_texts(tokenizer, limit:int)->tuple[list[str], np.ndarray, str]:
    "Training texts and 3-class labels: SST-5 train from the shared data where it is, else the demo set."
    from spbias.core import shared_data_dir
    from spbias.data import load_sentiment
    name = "sst5" if shared_data_dir() is not None else "demo"
    t = load_sentiment(name, split="train")
    t = t.sample(min(limit, len(t)), random_state=0) if limit else t
    return t.text.tolist(), t.label.to_numpy(), name


def peft_speed(folder_or_model, tokenizer, texts, labels, steps:int, batch_size:int, dtype:str, device:str, mcfg, seed:int=0)->dict:
    "Examples/s of HF PEFT prompt tuning (8 virtual tokens, AdamW), batches collated and on the device before timing."
    import torch, transformers as tf
    from peft import PromptTuningConfig, PromptTuningInit, TaskType, get_peft_model
    from spbias.data import LABEL_NAMES
    from spbias.pretrained import label_token_ids
    from work import train_macs
    torch.manual_seed(seed)
    base = folder_or_model().to(device)
    model = get_peft_model(base, PromptTuningConfig(task_type=TaskType.CAUSAL_LM, num_virtual_tokens=8, prompt_tuning_init=PromptTuningInit.RANDOM))
    model.train()
    lab = torch.tensor(label_token_ids(tokenizer, LABEL_NAMES), device=device)
    if tokenizer.pad_token is None: tokenizer.pad_token = tokenizer.eos_token
    collator = tf.DataCollatorWithPadding(tokenizer)
    enc = tokenizer(list(texts), add_special_tokens=False)
    rng = np.random.default_rng(seed)
    batches = []
    for k in range(steps + 2):  # collated before timing
        idx = rng.choice(len(texts), batch_size, replace=False)
        b = collator([{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i]} for i in idx])
        batches.append((b["input_ids"].to(device), b["attention_mask"].to(device), torch.as_tensor(labels[idx], device=device)))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    auto = torch.autocast(device_type=device.split(":")[0], dtype=torch.bfloat16, enabled=dtype == "bfloat16")
    def step(ids, mask, y):
        with auto:
            out = model(input_ids=ids, attention_mask=mask)
            last = mask.sum(1) - 1 + 8  # the virtual tokens come first
            logits = out.logits[torch.arange(len(ids), device=device), last].float()
            loss = torch.nn.functional.cross_entropy(logits, lab[y])
        opt.zero_grad(); loss.backward(); opt.step()
        return loss
    sync = (lambda: torch.cuda.synchronize()) if device.startswith("cuda") else (lambda: None)
    for b in batches[:2]: step(*b)  # warm-up
    sync()
    t0, n, macs = time.perf_counter(), 0, 0
    for ids, mask, y in batches[2:]:
        step(ids, mask, y); B, T = ids.shape; T += 8; n += B
        macs += train_macs(mcfg, B * T, B * T * T, B * T)  # the full logits at every position, as the model computes them
    sync()
    dt = time.perf_counter() - t0
    return dict(steps=steps, examples=n, seconds=dt, examples_per_s=n / dt, flops=2 * macs, autocast=dtype == "bfloat16")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tiny", action="store_true", help="a random 2-layer LLaMA built here (runs anywhere, in seconds on a CPU)")
    p.add_argument("--out", default=str(ROOT/"benchmarks"/"results"/"gpu.json"), help="JSON file to write")
    p.add_argument("--steps", type=int, default=30, help="timed steps per measurement")
    p.add_argument("--seeds", type=int, default=15, help="seeds trained together in the many-seed measurement")
    p.add_argument("--batch-size", type=int, default=16, help="training examples per seed and step")
    p.add_argument("--dtypes", default="float32,bfloat16", help="model dtypes to measure")
    p.add_argument("--texts", type=int, default=4000, help="training texts drawn from (0: all)")
    p.add_argument("--peak-tflops", type=float, default=None, help="the device's dense peak TFLOP/s (default: PEAK_TFLOPS by device kind)")
    p.add_argument("--no-peft", action="store_true", help="leave PEFT out")
    a = p.parse_args(argv)
    import jax, platform
    try: import torch
    except ImportError: torch = None  # a wheelhouse install without BENCH=1: spbias alone can still be measured
    if torch is None and not a.no_peft:
        sys.exit("gpu.py: error: torch is not installed, so PEFT cannot be measured. Fix: pass --no-peft, or install torch and peft "
                 "(make wheelhouse BENCH=1 carries them).")
    from spbias.core import atomic_write_json, smollm2_gguf_path
    from spbias.pretrained import load_model, load_tokenizer, read_model_config
    from spbias.data import encode_texts
    from spbias.models import set_layers
    dev = jax.devices()[0]
    tdev = "cuda" if torch is not None and torch.cuda.is_available() else "cpu"
    tmp = tempfile.mkdtemp()
    if a.tiny:
        from spbias.testing import tiny_checkpoint
        spec = str(tiny_checkpoint(Path(tmp)/"tiny", "llama"))
        name = "tiny random LLaMA (spbias.testing.tiny_checkpoint)"
        hf = lambda: __import__("transformers").AutoModelForCausalLM.from_pretrained(spec, torch_dtype=torch.float32)
    else:
        g = smollm2_gguf_path(); spec = str(g)
        name = "SmolLM2-135M-Instruct (Q4_1 GGUF, dequantised)"
        hf = lambda: __import__("transformers").AutoModelForCausalLM.from_pretrained(str(g.parent), gguf_file=g.name, torch_dtype=torch.float32)
    res = dict(model=name, device=dict(jax_backend=jax.default_backend(), device_kind=dev.device_kind, n_devices=jax.device_count(),
                                       torch_device=torch.cuda.get_device_name(0) if tdev == "cuda" else "cpu"),
               batch_size=a.batch_size, n_tokens=8, steps=a.steps,
               versions=dict(python=platform.python_version(), jax=jax.__version__, torch=torch and torch.__version__), runs={})
    for dtype in a.dtypes.split(","):
        t0 = time.perf_counter()
        model_t = load_model(spec, dtype=dtype)
        set_layers(model_t[0], scan=True)  # as `spbias tune` runs it
        loaded = time.perf_counter(); load_s = loaded - t0
        texts, labels, data = load_texts(model_t[1], a.texts)
        ids = encode_texts(model_t[1], texts)
        res["data"] = f"{data} train ({len(texts)} texts, 3-class)"
        peak = peak_tflops(dev.device_kind, dtype, a.peak_tflops)
        mfu = lambda r: None if peak is None else r["flops"] / r["seconds"] / (peak * 1e12)
        one = spbias_speed(model_t, ids, labels, [1001], a.steps, a.batch_size, loaded_at=loaded)
        many = spbias_speed(model_t, ids, labels, list(range(1001, 1001 + a.seeds)), a.steps, a.batch_size)
        r = {"load_s": load_s, "spbias_1_seed": one | dict(mfu=mfu(one)), f"spbias_{a.seeds}_seeds": many | dict(mfu=mfu(many)),
             "seeds_together_vs_one": many["seed_steps_per_s"] / one["seed_steps_per_s"], "peak_tflops": peak}
        del model_t
        if not a.no_peft:
            mcfg = read_model_config(spec)
            pf = peft_speed(hf, load_tokenizer(Path(spec)), texts, labels, a.steps, a.batch_size, dtype, tdev, mcfg)
            r["peft"] = pf | dict(mfu=mfu(pf))
            r["speedup_vs_peft"] = one["examples_per_s"] / pf["examples_per_s"]
        res["runs"][dtype] = r
        print(dtype, json.dumps({k: (v if not isinstance(v, dict) else {kk: vv for kk, vv in v.items() if kk != "shapes"}) for k, v in r.items()}, default=str), flush=True)
    f32 = res["runs"].get("float32", {})
    res["targets"] = dict(TARGETS, met=dict(
        speedup_vs_peft_float32=None if "speedup_vs_peft" not in f32 else f32["speedup_vs_peft"] >= TARGETS["speedup_vs_peft_float32"],
        seeds_together_vs_one=None if not f32 else f32["seeds_together_vs_one"] >= TARGETS["seeds_together_vs_one"],
        first_step_s=None if not f32 else f32["spbias_1_seed"]["first_step_s"] <= TARGETS["first_step_s"]))
    res["note"] = "targets are for a GPU" if jax.default_backend() == "cpu" else ""
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(a.out), res)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
