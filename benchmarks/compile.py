"""Compile time of a deep model's forward pass and tuning step: unrolled layers vs one scanned stack, with and without remat.

The model is a LLaMA-style config of tiny width (ModelConfig.tiny_llama: d_model 64, 4 heads of which 2 key/value, MLP 128,
vocabulary 256) at 8 and 32 layers, so that compiling, not computing, dominates. For each depth, each of the two functions and
each layer mode (spbias.models.build.set_layers: scan off/on, remat off/on), a fresh Python process builds the model, switches
it, and times `jax.jit(f).lower(*args)` (tracing and lowering to StableHLO) and `.compile()` (XLA) on concrete inputs:

- forward: the full logits [B, T, V] of a batch of token ids (`model(tokens, mask)`);
- step: `spbias.tuning.tune.make_train_step` (the step `spbias tune` runs: S seeds vmapped, each with its prompt, AdamW state and
  batch, full-vocabulary loss, the gradient with respect to the prompt).

JAX's persistent compilation cache is off and every measurement has its own process, so nothing compiled is reused.
Each measurement is repeated (the repetitions interleaved with the other measurements, so a change in the machine's load
spreads over all of them) and the median is recorded, with every repetition, in benchmarks/results/compile.json.

    python benchmarks/compile.py [--layers 8,32] [--repeats 3] [--out benchmarks/results/compile.json]
"""
from __future__ import annotations
import argparse, json, os, platform, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHAPE = dict(seeds=4, batch_size=8, max_len=64, n_tokens=8)  # the step's shape; the forward takes one seed's batch
MODES = [dict(scan=s, remat=r) for s in (False, True) for r in (False, True)]

def config(layers:int):
    from spbias.models.config import ModelConfig
    return ModelConfig.tiny_llama(n_layers=layers)

def measure(layers:int, what:str, scan:bool, remat:bool)->dict:
    "Build, switch and compile one function in this (fresh) process; its lowering and compile seconds."
    import jax, jax.numpy as jnp, numpy as np
    jax.config.update("jax_enable_compilation_cache", False)
    from flax import nnx
    from spbias.models.build import build_model, set_layers
    from spbias.tuning.tune import TuneConfig, make_optimizer, make_train_step
    cfg = config(layers)
    model = set_layers(build_model(cfg, nnx.Rngs(0)), scan=scan, remat=remat)
    graphdef, params = nnx.split(model)
    S, B, T, P = SHAPE["seeds"], SHAPE["batch_size"], SHAPE["max_len"], SHAPE["n_tokens"]
    r = np.random.default_rng(0)
    tok = jnp.asarray(r.integers(4, cfg.vocab_size, (S, B, T)), jnp.int32); mask = jnp.ones((S, B, T), jnp.int32)
    if what == "forward":
        f, args = jax.jit(lambda p, t, m: nnx.merge(graphdef, p)(t, m)), (params, tok[0], mask[0])
    else:
        tx = make_optimizer(TuneConfig())
        deltas = jnp.zeros((S, P, cfg.embed_dim), jnp.float32)
        ends = jnp.asarray(np.arange(B)[None].repeat(S, 0) * T + T - 1, jnp.int32)
        f = make_train_step(graphdef, tx, "full_vocab", "vmap")
        args = (params, deltas, jax.vmap(tx.init)(deltas), jnp.asarray(r.normal(0, 0.1, (S, P, cfg.embed_dim)), jnp.float32), tok, mask, ends,
                jnp.asarray(r.integers(0, 3, (S, B)), jnp.int32), jnp.ones((S, B), jnp.float32), jnp.ones(S, bool), jnp.array([5, 6, 7]))
    t0 = time.perf_counter()
    lowered = f.lower(*args)
    t1 = time.perf_counter()
    compiled = lowered.compile()
    t2 = time.perf_counter()
    return dict(lower_s=t1 - t0, compile_s=t2 - t1, total_s=t2 - t0, temp_bytes=int(compiled.memory_analysis().temp_size_in_bytes))

def run_child(spec:dict)->dict:
    "One measurement in a fresh Python process (no compilation cache, nothing compiled before)."
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_COMPILATION_CACHE")}
    env.update(JAX_PLATFORMS="cpu", PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])))
    r = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True, text=True, env=env)
    if r.returncode: raise SystemExit(f"measurement {spec} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])

def machine()->dict:
    import jax, flax
    return dict(platform=platform.platform(), processor=platform.processor() or platform.machine(), cpu_count=os.cpu_count(),
                python=platform.python_version(), jax=jax.__version__, flax=flax.__version__, jax_backend="cpu",
                xla_flags=os.environ.get("XLA_FLAGS", ""), load_average_at_start=os.getloadavg())

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", default="8,32", help="depths to measure, comma-separated")
    p.add_argument("--repeats", type=int, default=3, help="fresh processes per measurement (the median is recorded)")
    p.add_argument("--out", default=str(ROOT/"benchmarks"/"results"/"compile.json"))
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(json.dumps(measure(**json.loads(a.child)))); return
    specs = [dict(layers=int(L), what=w, **m) for L in a.layers.split(",") for w in ("forward", "step") for m in MODES]
    info, t_start = machine(), time.time()
    got = {i: [] for i in range(len(specs))}
    for rep in range(a.repeats):
        for i, s in enumerate(specs):
            got[i].append(run_child(s))
            print(f"rep {rep + 1}/{a.repeats} L={s['layers']:<2} {s['what']:7} scan={s['scan']!s:5} remat={s['remat']!s:5} "
                  f"lower {got[i][-1]['lower_s']:6.2f} s  compile {got[i][-1]['compile_s']:6.2f} s", flush=True)
    runs = []
    for i, s in enumerate(specs):
        med = {k: round(statistics.median(g[k] for g in got[i]), 3) for k in ("lower_s", "compile_s", "total_s")}
        runs.append(dict(**s, **med, total_s_all=[round(g["total_s"], 3) for g in got[i]], temp_bytes=got[i][0]["temp_bytes"]))
    by = {(r["layers"], r["what"], r["scan"], r["remat"]): r["total_s"] for r in runs}
    speedup = {f"{L} layers, {w}{', remat' if rm else ''}": round(by[(L, w, False, rm)] / by[(L, w, True, rm)], 2)
               for L in sorted({r["layers"] for r in runs}) for w in ("forward", "step") for rm in (False, True)}
    cfg = config(1).to_dict(); cfg.pop("n_layers", None)
    info.update(load_average_at_end=os.getloadavg(), wall_s=round(time.time() - t_start, 1),
                note="2 cores shared with other work: a load average above 2 means other processes competed for the CPU")
    out = dict(benchmark="compile time (jit lowering + XLA compilation) of the forward logits and the tuning step, unrolled vs scanned layers, with and without remat",
               machine=info,
               settings=dict(date=time.strftime("%Y-%m-%d"), repeats=a.repeats, statistic="median over fresh processes, repetitions interleaved",
                             compilation_cache="off (jax_enable_compilation_cache=False; one fresh process per measurement)",
                             model=dict(kind="ModelConfig.tiny_llama with n_layers varied", **cfg),
                             forward=dict(batch=SHAPE["batch_size"], length=SHAPE["max_len"], output="full logits [B, T, V]"),
                             step=dict(SHAPE, loss="full_vocab", seed_loop="vmap", function="spbias.tuning.tune.make_train_step"),
                             timed="lower_s: jax.jit(f).lower(*args) (trace and lowering); compile_s: .compile() (XLA); total_s: both"),
               runs=runs, speedup_unrolled_over_scanned=speedup)
    from spbias.core import atomic_write_json
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(Path(a.out), out)
    for r in runs:
        print(f"L={r['layers']:<2} {r['what']:7} scan={r['scan']!s:5} remat={r['remat']!s:5} total {r['total_s']:7.2f} s "
              f"(lower {r['lower_s']:.2f}, compile {r['compile_s']:.2f})  temporaries {r['temp_bytes']:,} B")
    print(json.dumps(speedup, indent=1))

if __name__ == "__main__": main()
