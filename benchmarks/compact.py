"""Stopped seeds cost nothing: the tuning step's time as seeds stop, mapped and vmapped.

Before this change every seed was computed at every step, active or not, so a step cost the same
with 1 active seed as with 15. Now a mapped step (the CPU default) skips stopped seeds with
`jax.lax.cond`, and `tune` compacts a vmapped step to the active seeds (`spbias.tune.lineup`: the next
power of two). This times `make_train_step` exactly as `tune` calls it, for 15, 8, 4 and 1 active seeds,
on a random LLaMA of SmolLM2-135M's widths with fewer layers (so a 2-core CPU times it in minutes),
with packed training batches of the `spbias tune` default shape. "all computed" is the cost before the
change: every seed computed whatever its flag (the step at 15 active seeds). Results go to
benchmarks/results/compact.json.

    python benchmarks/compact.py [--layers 4] [--repeats 3]
"""
from __future__ import annotations
import argparse, json, os, platform, sys, time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT/"benchmarks"/"results"/"compact.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=4, help="decoder layers of the random SmolLM2-135M-wide model")
    ap.add_argument("--seeds", type=int, default=15)
    ap.add_argument("--repeats", type=int, default=3, help="timed steps per point (after one compiling step); the median is kept")
    a = ap.parse_args()
    import numpy as np, jax, jax.numpy as jnp
    from flax import nnx
    from spbias.config import ModelConfig
    from spbias.models import build_model
    from spbias.prompt import PromptConfig, prompt_base
    from spbias.tune import TuneConfig, make_optimizer, make_train_step, make_batcher, train_batch, lineup
    from spbias.core import atomic_write_json
    mcfg = ModelConfig.tiny_llama(vocab_size=49152, d_model=576, n_heads=9, n_kv_heads=3, d_ff=1536, n_layers=a.layers,
                                  bos_token_id=1, eos_token_id=2, pad_token_id=2, tie_word_embeddings=True, max_positions=2048)
    model = build_model(mcfg, nnx.Rngs(0))
    graphdef, params = nnx.split(model)
    S = a.seeds
    cfg = TuneConfig(seeds=list(range(1, S + 1)), batch_size=8, lr=1e-2)
    tx = make_optimizer(cfg)
    rng = np.random.default_rng(0)
    texts = [rng.integers(3, 49152, int(n)).astype(np.int32) for n in rng.integers(10, 50, 2000)]  # SST-5-like lengths
    batcher = make_batcher(cfg, [len(t) for t in texts])
    bases = np.stack([prompt_base(model, PromptConfig(8, "bos")) for _ in range(S)])
    label_ids = jnp.asarray([100, 200, 300])
    out = dict(benchmark="tuning-step time as seeds stop (stopped seeds skipped when mapped, compacted when vmapped)",
               machine=dict(platform=platform.platform(), processor=platform.processor() or platform.machine(), cpu_count=os.cpu_count(),
                            python=platform.python_version(), jax=jax.__version__, backend=jax.default_backend(),
                            load_average_at_start=os.getloadavg()),
               settings=dict(model=f"random LLaMA, SmolLM2-135M widths (d_model 576, 9 heads, 3 kv heads, d_ff 1536, vocab 49152), {a.layers} layers",
                             seeds=S, prompt_tokens=8, batch_size=8, packing="PackedBatcher (the spbias tune default)",
                             timing=f"median of {a.repeats} steps after one compiling step; the same batches for every point",
                             before="before this change every seed was computed whatever its flag: the step at all seeds active"),
               results={})
    steps = [train_batch(batcher, texts, cfg.seeds, k, 2) for k in range(a.repeats + 1)]
    for loop in ("map", "vmap"):
        step = make_train_step(graphdef, tx, "full_vocab", loop)
        rows = {}
        for n_active in (S, 8, 4, 1):
            active = np.arange(S) < n_active
            ix = lineup(active)[0] if loop == "vmap" else np.arange(S)  # what tune hands the step
            act = (np.arange(len(ix)) < n_active) if loop == "vmap" else active
            deltas = jnp.zeros((len(ix),) + bases.shape[1:]); opt = jax.vmap(tx.init)(deltas)
            times = []
            for k, (tok, mask, ends, slots) in enumerate(steps):
                y, w = np.where(slots >= 0, 0, 0), (slots >= 0).astype(np.float32)
                t = time.perf_counter()
                deltas, opt, losses, _ = step(params, deltas, opt, jnp.asarray(bases[ix]), tok[ix], mask[ix], ends[ix], y[ix], w[ix],
                                              jnp.asarray(act), label_ids)
                jax.block_until_ready(losses)
                if k: times.append(time.perf_counter() - t)
            rows[str(n_active)] = dict(seeds_in_step=int(len(ix)), step_s=float(np.median(times)))
            print(loop, n_active, rows[str(n_active)], flush=True)
        full = rows[str(S)]["step_s"]
        for r in rows.values(): r["vs_all_computed"] = round(r["step_s"] / full, 3)
        out["results"][loop] = rows
    out["machine"]["load_average_at_end"] = os.getloadavg()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(RESULTS, out)
    print(json.dumps(out["results"], indent=1))


if __name__ == "__main__":
    main()
