"""spbias's compiled multi-seed training step, timed: the one measurement benchmarks/tune.py (CPU) and benchmarks/gpu.py
(accelerators) both take, so that their numbers mean the same thing.

The batches are the ones `spbias tune` draws (its batcher, packed rows by default), moved to the device before timing.
Every step shape the timed steps use is compiled first, ahead of time (`lower().compile()`), and those seconds are kept
apart (`compile_s`); `first_step_s` is the time from `loaded_at` (a loaded model) to the end of the first step, losses
read, the figure `spbias tune` prints. Then `warmup` untimed steps; the timed loop is `steps` further steps, run over
again (the same batches) until it has taken at least `min_seconds`. FLOPs: `spbias.sweeps.gpu_study.step_flops` (the forward
pass and the backward pass to the inputs, attention included).
"""
from __future__ import annotations
import time
import numpy as np


def spbias_speed(model_t, # (model, tokenizer, ModelConfig) from spbias.models.pretrained.load_model
                 ids, labels, # token ids of the training texts and their labels
                 seeds:list[int], steps:int, batch_size:int,
                 buckets=None, # padded lengths (default: spbias's)
                 packing:bool=True, # texts packed several to a row (`spbias tune`'s default); False: length buckets
                 loaded_at:float|None=None, # perf_counter() when the model was loaded (default: now)
                 first_batch:int=0, # the step number of the first batch drawn
                 warmup:int=0, # untimed steps after the first (clocks and caches settle)
                 min_seconds:float=0.0 # time the steps over and over until at least this many seconds
                )->dict:
    "Examples/s of the compiled step over `seeds`, the work done (tokens, multiply-accumulates), compile and first-step seconds."
    import jax, jax.numpy as jnp
    from flax import nnx
    from spbias.tuning.data import LABEL_NAMES, DEFAULT_BUCKETS
    from spbias.tuning.prompt import PromptConfig, prompt_base
    from spbias.tuning.tune import TuneConfig, make_optimizer, make_train_step, make_batcher, train_batch
    from spbias.models.pretrained import label_token_ids
    from spbias.sweeps.gpu_study import step_flops
    from work import train_macs  # benchmarks/tune.py's work ratio against PEFT, counted the same way on both sides
    loaded_at = time.perf_counter() if loaded_at is None else loaded_at
    model, tok, mcfg = model_t
    cfg = TuneConfig(seeds=seeds, lr=1e-3, batch_size=batch_size, buckets=tuple(buckets or DEFAULT_BUCKETS), packing=packing)
    tx = make_optimizer(cfg); gd, params = nnx.split(model)
    step_fn = make_train_step(gd, tx, "full_vocab")
    lab = jnp.asarray(label_token_ids(tok, LABEL_NAMES))
    bases = jnp.asarray(np.stack([prompt_base(model, PromptConfig(), seed=s, tokenizer=tok) for s in seeds]))
    deltas = jnp.zeros_like(bases); st = jax.vmap(tx.init)(deltas); act = jnp.ones(len(seeds), bool)
    batcher = make_batcher(cfg, [len(t) for t in ids])
    pad = mcfg.pad_token_id or 0
    batches = []
    for k in range(first_batch, first_batch + steps + 1):
        tk, m, e, slots = train_batch(batcher, ids, seeds, k, pad)
        y, w = np.where(slots >= 0, labels[np.maximum(slots, 0)], 0), (slots >= 0).astype(np.float32)
        S, R, T = m.shape; P = cfg.n_tokens; n = int((slots >= 0).sum())
        flops = step_flops(mcfg, S, R, T, P, n)  # the rows, and the prompt prefix once a prompt
        macs = train_macs(mcfg, S * R * T, S * R * T * (T + P), n) + train_macs(mcfg, S * P, S * P * P, 0)
        batches.append(dict(args=tuple(jax.device_put(x) for x in (tk, m, e, y, w)), examples=n, shape=m.shape,
                            text_tokens=int((m > 0).sum()), computed_tokens=m.size, flops=flops, macs=macs))
    compiled, compile_s, first_step_s = {}, 0.0, None
    for b in batches:  # ahead of time: every shape once
        if b["shape"] not in compiled:
            t0 = time.perf_counter()
            compiled[b["shape"]] = step_fn.lower(params, deltas, st, bases, *b["args"], act, lab).compile()
            compile_s += time.perf_counter() - t0
        if first_step_s is None:  # the first step, as `spbias tune` takes it: compile, run, read the losses
            deltas, st, l, _ = compiled[b["shape"]](params, deltas, st, bases, *b["args"], act, lab)
            np.asarray(l); first_step_s = time.perf_counter() - loaded_at
    for k in range(warmup): deltas, st, l, _ = compiled[batches[1 + k % steps]["shape"]](params, deltas, st, bases,
                                                                                       *batches[1 + k % steps]["args"], act, lab)
    jax.block_until_ready(deltas)
    timed, rounds = batches[1:], 0
    t0 = time.perf_counter()
    while rounds == 0 or time.perf_counter() - t0 < min_seconds:
        for b in timed: deltas, st, l, _ = compiled[b["shape"]](params, deltas, st, bases, *b["args"], act, lab)
        jax.block_until_ready((deltas, l)); rounds += 1
    dt = time.perf_counter() - t0
    total = lambda k: rounds * sum(b[k] for b in timed)
    n, steps = total("examples"), rounds * steps
    return dict(seeds=len(seeds), steps=steps, examples=n, seconds=dt, examples_per_s=n / dt, seed_steps_per_s=steps * len(seeds) / dt,
                compile_s=compile_s, first_step_s=first_step_s, shapes=sorted(map(list, compiled)), packing=packing,
                text_tokens=total("text_tokens"), computed_tokens=total("computed_tokens"),
                token_fill=total("text_tokens") / total("computed_tokens"), flops=total("flops"), macs=total("macs"), warmup=warmup)
