"""Tuning speed on an accelerator, like for like: spbias with 1, 15 and 45 prompts a step vs HF PEFT prompt tuning as a
careful user runs it, float32 and bfloat16, in one process, with MFU against the peak of the arithmetic actually used.

Both sides tune 8 soft prompt tokens in front of the same frozen model on the same device, with the same batch size, on
the same texts (SST-5 train from the shared data, else the project's demo set), full-vocabulary loss, AdamW:

- spbias: `spbias.tuning.tune.make_train_step` as `spbias tune` runs it (the scanned layer stack), on the batches its batcher
  draws (texts packed several to a row); every prompt is one seed (a learning rate on the prompt axis costs the same).
  Every step shape is compiled first (`compile_s`, and `first_step_s`: loaded model to the end of its first step).
- PEFT: `peft.get_peft_model` with a `PromptTuningConfig` (8 virtual tokens), torch AdamW, the same loss; the model
  loaded in the measured dtype (`from_pretrained(dtype=...)`: bfloat16 weights, not autocast), SDPA attention, TF32
  allowed for float32 matrix products (as JAX does on NVIDIA GPUs) unless --precision highest; batches padded to their
  longest row and on the device before timing.
- Each measurement: >= --warmup untimed steps, then timed steps repeated until >= --min-seconds of work (10 s).

FLOPs (spbias.sweeps.gpu_study.train_flops): the frozen model's forward pass and its backward pass to the inputs, attention
included (weight products once more backward, attention's two products of activations twice), 2 FLOPs a
multiply-accumulate; each side counted on the positions it computes (PEFT: its padded rows and full logits at every
position). MFU = FLOP/s over the dense peak of the arithmetic the products used (spbias.sweeps.gpu_study.matmul_arithmetic:
TF32 for float32 on NVIDIA unless the precision is highest; bf16; fp32), stated in the result. No peak on a CPU.

    python benchmarks/gpu.py                          # SmolLM2-135M (offline GGUF), writes benchmarks/results/gpu.json
    python benchmarks/gpu.py --tiny --out /tmp/g.json # a random 2-layer LLaMA, short timings: checks the script, anywhere
"""
from __future__ import annotations
import argparse, dataclasses, json, os, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT/"benchmarks"))
import numpy as np
from step_speed import spbias_speed  # the measurement benchmarks/tune.py takes too

# the issue 43 goals, on an H200
TARGETS = dict(mfu_bf16_45=0.40, tuning_vs_peft=10.0, prompts_15_vs_1=8.0)


def load_texts(tokenizer, limit:int)->tuple[list[str], np.ndarray, str]:
    "Training texts and 3-class labels: SST-5 train from the shared data where it is, else the demo set."
    from spbias.core import shared_data_dir
    from spbias.tuning.data import load_sentiment
    name = "sst5" if shared_data_dir() is not None else "demo"
    t = load_sentiment(name, split="train")
    t = t.sample(min(limit, len(t)), random_state=0) if limit else t
    return t.text.tolist(), t.label.to_numpy(), name


def peft_speed(load, tokenizer, texts, labels, steps:int, batch_size:int, dtype:str, device:str, mcfg, warmup:int=10,
               min_seconds:float=10.0, seed:int=0)->dict:
    "Examples/s of HF PEFT prompt tuning (8 virtual tokens, AdamW) in `dtype` weights, SDPA; batches on the device first."
    import torch, transformers as tf
    from peft import PromptTuningConfig, PromptTuningInit, TaskType, get_peft_model
    from spbias.tuning.data import LABEL_NAMES
    from spbias.models.pretrained import label_token_ids
    from spbias.sweeps.gpu_study import train_flops
    torch.manual_seed(seed)
    base = load(getattr(torch, dtype)).to(device)
    model = get_peft_model(base, PromptTuningConfig(task_type=TaskType.CAUSAL_LM, num_virtual_tokens=8,
                                                    prompt_tuning_init=PromptTuningInit.RANDOM))
    model.train()
    lab = torch.tensor(label_token_ids(tokenizer, LABEL_NAMES), device=device)
    if tokenizer.pad_token is None: tokenizer.pad_token = tokenizer.eos_token
    collator = tf.DataCollatorWithPadding(tokenizer)
    enc = tokenizer(list(texts), add_special_tokens=False)
    rng = np.random.default_rng(seed)
    batches = []
    for k in range(steps):  # collated before timing
        idx = rng.choice(len(texts), batch_size, replace=False)
        b = collator([{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i]} for i in idx])
        batches.append((b["input_ids"].to(device), b["attention_mask"].to(device), torch.as_tensor(labels[idx], device=device)))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    def step(ids, mask, y):
        out = model(input_ids=ids, attention_mask=mask)
        last = mask.sum(1) - 1 + 8  # the virtual tokens come first
        loss = torch.nn.functional.cross_entropy(out.logits[torch.arange(len(ids), device=device), last].float(), lab[y])
        opt.zero_grad(); loss.backward(); opt.step()
        return loss
    sync = (lambda: torch.cuda.synchronize()) if device.startswith("cuda") else (lambda: None)
    for k in range(warmup): step(*batches[k % steps])
    sync()
    t0, n, flops, rounds = time.perf_counter(), 0, 0, 0
    while rounds == 0 or time.perf_counter() - t0 < min_seconds:
        for ids, mask, y in batches:
            step(ids, mask, y); B, T = ids.shape; T += 8; n += B
            flops += train_flops(mcfg, B * T, B * T * T, B * T)  # the full logits at every position, as the model computes them
        sync(); rounds += 1
    dt = time.perf_counter() - t0
    return dict(steps=rounds * steps, examples=n, seconds=dt, examples_per_s=n / dt, flops=flops, warmup=warmup,
                weights_dtype=dtype, attention=model.base_model.config._attn_implementation)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tiny", action="store_true",
                   help="a random 2-layer LLaMA built here, 0.5 s timings (runs anywhere, in a minute or two on a CPU)")
    p.add_argument("--out", default=str(ROOT/"benchmarks"/"results"/"gpu.json"), help="JSON file to write")
    p.add_argument("--steps", type=int, default=30, help="distinct batches per measurement (timed over and over)")
    p.add_argument("--prompts", default="1,15,45", help="prompts a step in each spbias measurement")
    p.add_argument("--batch-size", type=int, default=16, help="training examples per prompt and step")
    p.add_argument("--dtypes", default="float32,bfloat16", help="model dtypes to measure")
    p.add_argument("--texts", type=int, default=4000, help="training texts drawn from (0: all)")
    p.add_argument("--warmup", type=int, default=10, help="untimed steps before each timing (after compiling)")
    p.add_argument("--min-seconds", type=float, default=10.0, help="each measurement is timed over at least this long")
    p.add_argument("--precision", choices=("default", "high", "highest"), default="default",
                   help="float32 matrix products: default (TF32 on NVIDIA GPUs, both sides), highest (true float32)")
    p.add_argument("--peak-tflops", type=float, default=None, help="the device's dense peak TFLOP/s for the arithmetic used")
    p.add_argument("--no-peft", action="store_true", help="leave PEFT out")
    a = p.parse_args(argv)
    if a.tiny and "--min-seconds" not in " ".join(argv or sys.argv): a.min_seconds = 0.5
    import jax, platform
    if a.precision != "default": jax.config.update("jax_default_matmul_precision", a.precision)
    try: import torch
    except ImportError: torch = None  # a wheelhouse install without BENCH=1: spbias alone can still be measured
    if torch is None and not a.no_peft:
        sys.exit("gpu.py: error: torch is not installed, so PEFT cannot be measured. Fix: pass --no-peft, or install torch and peft "
                 "(make wheelhouse BENCH=1 carries them).")
    from spbias.core import atomic_write_json, smollm2_gguf_path
    from spbias.models.pretrained import load_model, load_tokenizer, read_model_config
    from spbias.tuning.data import encode_texts
    from spbias.models.build import set_layers
    from spbias.sweeps.gpu_study import matmul_arithmetic, peak_tflops
    dev = jax.devices()[0]
    tdev = "cuda" if torch is not None and torch.cuda.is_available() else "cpu"
    if torch is not None:  # float32 products in TF32 as JAX makes them on NVIDIA GPUs, unless --precision highest
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = a.precision != "highest"
    prompts = [int(x) for x in a.prompts.split(",")]
    tmp = tempfile.mkdtemp()
    if a.tiny:
        from spbias.testing import tiny_checkpoint
        spec = str(tiny_checkpoint(Path(tmp)/"tiny", "llama"))
        name = "tiny random LLaMA (spbias.testing.tiny_checkpoint)"
        hf = lambda dt: __import__("transformers").AutoModelForCausalLM.from_pretrained(spec, dtype=dt, attn_implementation="sdpa")
    else:
        g = smollm2_gguf_path(); spec = str(g)
        name = "SmolLM2-135M-Instruct (Q4_1 GGUF, dequantised)"
        hf = lambda dt: __import__("transformers").AutoModelForCausalLM.from_pretrained(str(g.parent), gguf_file=g.name, dtype=dt,
                                                                                       attn_implementation="sdpa")
    jprec = str(jax.config.jax_default_matmul_precision or "default")
    res = dict(model=name, device=dict(jax_backend=jax.default_backend(), device_kind=dev.device_kind, n_devices=jax.device_count(),
                                       torch_device=torch.cuda.get_device_name(0) if tdev == "cuda" else "cpu"),
               batch_size=a.batch_size, n_tokens=8, distinct_batches=a.steps, warmup_steps=a.warmup, min_seconds=a.min_seconds,
               matmul_precision=dict(jax=jprec, torch_allow_tf32=bool(torch and torch.backends.cuda.matmul.allow_tf32)),
               flops=("spbias.sweeps.gpu_study.train_flops: forward + backward to the inputs of the frozen model, attention included "
                      "(2 FLOPs a multiply-accumulate), on the positions each side computes"),
               versions=dict(python=platform.python_version(), jax=jax.__version__, torch=torch and torch.__version__), runs={})
    for dtype in a.dtypes.split(","):
        t0 = time.perf_counter()
        model_t = load_model(spec, dtype=dtype)
        set_layers(model_t[0], scan=True)  # as `spbias tune` runs it
        loaded = time.perf_counter(); load_s = loaded - t0
        res["model_config"] = json.loads(json.dumps(dataclasses.asdict(model_t[2]), default=str))  # the cost model's FLOPs
        texts, labels, data = load_texts(model_t[1], a.texts)
        ids = encode_texts(model_t[1], texts)
        res["data"] = f"{data} train ({len(texts)} texts, 3-class)"
        arith = matmul_arithmetic(jax.default_backend(), dtype, jprec)
        peak = peak_tflops(dev.device_kind, arith, a.peak_tflops)
        mfu = lambda r, pk=peak: None if pk is None else r["flops"] / r["seconds"] / (pk * 1e12)
        r = {"load_s": load_s, "arithmetic": arith, "peak_tflops": peak}
        for k, n in enumerate(prompts):
            m = spbias_speed(model_t, ids, labels, list(range(1001, 1001 + n)), a.steps, a.batch_size,
                             loaded_at=loaded if k == 0 else None, warmup=a.warmup, min_seconds=a.min_seconds)
            r[f"spbias_{n}_prompts"] = m | dict(mfu=mfu(m))
        one, top = r[f"spbias_{prompts[0]}_prompts"], r[f"spbias_{prompts[-1]}_prompts"]
        for n in prompts[1:]:
            r[f"prompts_{n}_vs_{prompts[0]}"] = r[f"spbias_{n}_prompts"]["seed_steps_per_s"] / one["seed_steps_per_s"]
        del model_t
        if not a.no_peft:
            mcfg = read_model_config(spec)
            pf = peft_speed(hf, load_tokenizer(Path(spec)), texts, labels, a.steps, a.batch_size, dtype, tdev, mcfg,
                            a.warmup, a.min_seconds)
            t_arith = matmul_arithmetic("cuda" if tdev == "cuda" else "cpu", dtype,
                                        "high" if torch.backends.cuda.matmul.allow_tf32 else "highest")
            r["peft"] = pf | dict(arithmetic=t_arith, mfu=mfu(pf, peak_tflops(res["device"]["torch_device"], t_arith, a.peak_tflops)))
            r["speedup_vs_peft_1_prompt"] = one["examples_per_s"] / pf["examples_per_s"]
            r[f"speedup_vs_peft_{prompts[-1]}_prompts"] = top["examples_per_s"] / pf["examples_per_s"]  # prompt-examples/s
        res["runs"][dtype] = r
        print(dtype, json.dumps({k: (v if not isinstance(v, dict) else {kk: vv for kk, vv in v.items() if kk != "shapes"})
                                 for k, v in r.items()}, default=str), flush=True)
    b16 = res["runs"].get("bfloat16", {})
    top = f"spbias_{prompts[-1]}_prompts"
    got = dict(mfu_bf16_45=b16.get(top, {}).get("mfu") if prompts[-1] == 45 else None,
               tuning_vs_peft=min((v[f"speedup_vs_peft_{prompts[-1]}_prompts"] for v in res["runs"].values()
                                   if f"speedup_vs_peft_{prompts[-1]}_prompts" in v), default=None),
               prompts_15_vs_1=b16.get("prompts_15_vs_1"))
    res["targets"] = dict(TARGETS, measured=got, met={k: None if v is None else v >= TARGETS[k] for k, v in got.items()})
    res["note"] = "targets are for a GPU (an H200)" if jax.default_backend() == "cpu" else ""
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(a.out), res)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
