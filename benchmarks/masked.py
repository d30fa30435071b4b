"""Stopped prompts in a vmapped step: masked (one compiled step, stopped rows frozen) or compact (recompiled smaller).

`spbias tune --stopped masked` (the default) keeps the step it compiled and freezes the rows of stopped prompts;
`--stopped compact` hands the step the active prompts only, padded to the next power of two, compiling a new step
for each size (15 -> 8 -> 4 -> 2 -> 1 on the H200 run of 2026-11-26). This times both on this machine with
`make_train_step` as `tune` calls it (vmapped, per-prompt rates): the masked step at 15 rows, and for each smaller
size the compile (the first call) and the step. A random LLaMA of SmolLM2-135M's widths with fewer layers, packed
batches of the tune default. Results go to benchmarks/results/masked.json.

    python benchmarks/masked.py [--layers 2] [--repeats 3]
"""
from __future__ import annotations
import argparse, json, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT/"benchmarks"/"results"/"masked.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=2, help="decoder layers of the random SmolLM2-135M-wide model")
    ap.add_argument("--seeds", type=int, default=15)
    ap.add_argument("--repeats", type=int, default=3, help="timed steps per point after the compiling one (median)")
    a = ap.parse_args()
    import numpy as np, jax, jax.numpy as jnp
    from flax import nnx
    from spbias.config import ModelConfig
    from spbias.models import build_model
    from spbias.prompt import PromptConfig, prompt_base
    from spbias.tune import TuneConfig, make_rated, make_train_step, make_batcher, train_batch, step_size
    from spbias.core import atomic_write_json
    mcfg = ModelConfig.tiny_llama(vocab_size=49152, d_model=576, n_heads=9, n_kv_heads=3, d_ff=1536, n_layers=a.layers,
                                  bos_token_id=1, eos_token_id=2, pad_token_id=2, tie_word_embeddings=True,
                                  max_positions=2048)
    model = build_model(mcfg, nnx.Rngs(0))
    graphdef, params = nnx.split(model)
    S = a.seeds
    cfg = TuneConfig(seeds=list(range(1, S + 1)), batch_size=8, lr=1e-2)
    tx = make_rated(cfg)
    rng = np.random.default_rng(0)
    texts = [rng.integers(3, 49152, int(n)).astype(np.int32) for n in rng.integers(10, 50, 2000)]
    batcher = make_batcher(cfg, [len(t) for t in texts])
    tok, mask, ends, slots = train_batch(batcher, texts, cfg.seeds, 0, 2)  # one batch shape throughout
    y, w = np.zeros(slots.shape, np.int32), (slots >= 0).astype(np.float32)
    base = np.asarray(prompt_base(model, PromptConfig(8, "bos")))
    label_ids = jnp.asarray([100, 200, 300])

    def timed(n_rows, n_active):
        "A fresh jitted step of n_rows prompts: (first call s, median of the next `repeats` s)."
        make_train_step.cache_clear()
        step = make_train_step(graphdef, tx, "full_vocab", "vmap")
        d = jnp.zeros((n_rows,) + base.shape); o = jax.vmap(tx.init)(d)
        b, act = jnp.asarray(np.stack([base] * n_rows)), jnp.asarray(np.arange(n_rows) < n_active)
        lrs = jnp.full(n_rows, 1e-2, jnp.float32)
        times = []
        for k in range(a.repeats + 1):
            t = time.perf_counter()
            d, o, losses, _ = step(params, d, o, b, tok[:n_rows], mask[:n_rows], ends[:n_rows], y[:n_rows],
                                   w[:n_rows], act, label_ids, lrs)
            jax.block_until_ready(losses); times.append(time.perf_counter() - t)
        return times[0], float(np.median(times[1:]))

    out = dict(benchmark="stopped prompts in a vmapped step: masked (kept step) vs compact (recompiled smaller)",
               machine=dict(platform=platform.platform(), cpu_count=os.cpu_count(), python=platform.python_version(),
                            jax=jax.__version__, backend=jax.default_backend(), load_average_at_start=os.getloadavg()),
               settings=dict(model=f"random LLaMA, SmolLM2-135M widths, {a.layers} layers", prompts=S, batch_size=8,
                             packing="one PackedBatcher batch shape", compile_cache="off (each size compiled afresh)",
                             timing=f"first call (compile + step), then the median of {a.repeats} steps"),
               results={})
    first, masked = timed(S, 1)
    out["results"]["masked"] = dict(rows=S, compile_and_first_step_s=first, step_s=masked)
    print("masked", out["results"]["masked"], flush=True)
    sizes = sorted({step_size(n, S) for n in range(1, S)} - {S}, reverse=True)
    for n in sizes:
        first, step_s = timed(n, n)
        out["results"][f"compact_{n}"] = dict(rows=n, compile_and_first_step_s=first, compile_s=first - step_s,
                                             step_s=step_s, saving_per_step_s=masked - step_s,
                                             steps_to_repay_compile=(first - step_s) / max(masked - step_s, 1e-9))
        print("compact", n, out["results"][f"compact_{n}"], flush=True)
    out["machine"]["load_average_at_end"] = os.getloadavg()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(RESULTS, out)
    print(json.dumps(out["results"], indent=1))


if __name__ == "__main__":
    main()
