"""Stopped seeds cost nothing: the tuning step's time as seeds stop, mapped and vmapped.

Before this change every seed was computed at every step, active or not, so a step cost the same
with 1 active seed as with 15. Now a mapped step (the CPU default) skips stopped seeds with
`jax.lax.cond`, and `tune` compacts a vmapped step to the active seeds (`spbias.tuning.tune.lineup`: the next
power of two). This times `make_train_step` exactly as `tune` calls it, for 15, 8, 4 and 1 active seeds,
on a random LLaMA of SmolLM2-135M's widths with fewer layers (so a 2-core CPU times it in minutes),
with packed training batches of the `spbias tune` default shape. "all computed" is the cost before the
change: every seed computed whatever its flag (the step at 15 active seeds). Results go to
benchmarks/results/compact.json.

    python benchmarks/compact.py [--layers 4] [--seeds 15] [--repeats 3] [--out FILE]
"""
from __future__ import annotations
import time
from _common import machine, step_parser, tuning_setup, write_results, WIDTHS


def main():
    a = step_parser(__doc__, layers=4, name="compact").parse_args()
    import numpy as np, jax, jax.numpy as jnp
    from spbias.tuning.tune import make_optimizer, make_train_step, train_batch, lineup
    S = a.seeds
    u = tuning_setup(a.layers, S)
    tx = make_optimizer(u.cfg)
    bases = np.stack([u.base] * S)
    out = dict(benchmark="tuning-step time as seeds stop (stopped seeds skipped when mapped, compacted when vmapped)",
               machine=machine(),
               settings=dict(model=f"random LLaMA, {WIDTHS}, {a.layers} layers",
                             seeds=S, prompt_tokens=8, batch_size=8, packing="PackedBatcher (the spbias tune default)",
                             timing=f"median of {a.repeats} steps after one compiling step; the same batches for every "
                                    "point",
                             before="before this change every seed was computed whatever its flag: the step at "
                                    "all seeds active"),
               results={})
    steps = [train_batch(u.batcher, u.texts, u.cfg.seeds, k, 2) for k in range(a.repeats + 1)]
    for loop in ("map", "vmap"):
        step = make_train_step(u.graphdef, tx, "full_vocab", loop)
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
                deltas, opt, losses, _ = step(u.params, deltas, opt, jnp.asarray(bases[ix]), tok[ix], mask[ix],
                                              ends[ix], y[ix], w[ix], jnp.asarray(act), u.label_ids)
                jax.block_until_ready(losses)
                if k: times.append(time.perf_counter() - t)
            rows[str(n_active)] = dict(seeds_in_step=int(len(ix)), step_s=float(np.median(times)))
            print(loop, n_active, rows[str(n_active)], flush=True)
        full = rows[str(S)]["step_s"]
        for r in rows.values(): r["vs_all_computed"] = round(r["step_s"] / full, 3)
        out["results"][loop] = rows
    write_results(out, a.out)


if __name__ == "__main__":
    main()
