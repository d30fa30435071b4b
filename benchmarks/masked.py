"""Stopped prompts in a vmapped step: masked (one compiled step, stopped rows frozen) or compact (recompiled smaller).

`spbias tune --stopped masked` (the default) keeps the step it compiled and freezes the rows of stopped prompts;
`--stopped compact` hands the step the active prompts only, padded to the next power of two, compiling a new step
for each size (15 -> 8 -> 4 -> 2 -> 1 on the H200 run of 2026-11-26). This times both on this machine with
`make_train_step` as `tune` calls it (vmapped, per-prompt rates): the masked step at 15 rows, and for each smaller
size the compile (the first call) and the step. A random LLaMA of SmolLM2-135M's widths with fewer layers, packed
batches of the tune default. Results go to benchmarks/results/masked.json.

    python benchmarks/masked.py [--layers 2] [--seeds 15] [--repeats 3] [--out FILE]
"""
from __future__ import annotations
import time
from _common import machine, step_parser, tuning_setup, write_results, WIDTHS


def main():
    a = step_parser(__doc__, layers=2, name="masked").parse_args()
    import numpy as np, jax, jax.numpy as jnp
    from spbias.tuning.tune import make_rated, make_train_step, train_batch, step_size
    S = a.seeds
    u = tuning_setup(a.layers, S)
    tx = make_rated(u.cfg)
    tok, mask, ends, slots = train_batch(u.batcher, u.texts, u.cfg.seeds, 0, 2)  # one batch shape throughout
    y, w = np.zeros(slots.shape, np.int32), (slots >= 0).astype(np.float32)
    base = u.base

    def timed(n_rows, n_active):
        "A fresh jitted step of n_rows prompts: (first call s, median of the next `repeats` s)."
        make_train_step.cache_clear()
        step = make_train_step(u.graphdef, tx, "full_vocab", "vmap")
        d = jnp.zeros((n_rows,) + base.shape); o = jax.vmap(tx.init)(d)
        b, act = jnp.asarray(np.stack([base] * n_rows)), jnp.asarray(np.arange(n_rows) < n_active)
        lrs = jnp.full(n_rows, 1e-2, jnp.float32)
        times = []
        for k in range(a.repeats + 1):
            t = time.perf_counter()
            d, o, losses, _ = step(u.params, d, o, b, tok[:n_rows], mask[:n_rows], ends[:n_rows], y[:n_rows],
                                   w[:n_rows], act, u.label_ids, lrs)
            jax.block_until_ready(losses); times.append(time.perf_counter() - t)
        return times[0], float(np.median(times[1:]))

    out = dict(benchmark="stopped prompts in a vmapped step: masked (kept step) vs compact (recompiled smaller)",
               machine=machine(),
               settings=dict(model=f"random LLaMA, {WIDTHS}, {a.layers} layers", prompts=S, batch_size=8,
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
    write_results(out, a.out)


if __name__ == "__main__":
    main()
