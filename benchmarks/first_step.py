"""Time to the first tuning step of `spbias tune` on SmolLM2-135M, unrolled vs scanned layers, cold and warm compilation cache.

Each measurement is one `spbias tune` process (SmolLM2-135M from the offline GGUF, one seed, batch 8, the project's demo set,
whose short tables keep the final scoring quick; the model's shapes are SmolLM2's own), which prints the seconds from its weights being loaded to the end of its first step
("first step done N s after the weights were loaded"). For each layer mode:

- cold: a fresh, empty compilation cache folder (SPBIAS_JAX_CACHE), nothing compiled before; this run tunes 20 steps (so
  it compiles the step shapes a run meets: the batcher packs each step's texts into 2 to 4 rows);
- warm: the same cache again, another seed and another --out (a second run of a sweep, or a rerun after a fix).

Beside them, in a fresh process each, the tuning step alone at the first step's shape: XLA lowering and compile seconds,
and the median seconds of a step once compiled (the figure that says whether a scan slows the step).
Results go into benchmarks/results/compile.json under "smollm2_first_step"; every repetition is kept, the median reported.

    python benchmarks/first_step.py [--repeats 3] [--batch-size 8]
"""
from __future__ import annotations
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT/"benchmarks"/"results"/"compile.json"
SPBIAS = [str(Path(sys.executable).parent/"spbias")]  # the console script beside this Python
FIRST = re.compile(r"first step done ([0-9.]+) s after the weights were loaded")


def tune_first_step(cache:Path, out:Path, seed:int, scan:bool, batch_size:int, data:str, steps:int=1)->dict:
    "One `spbias tune` process: the first-step seconds it prints, and its wall seconds."
    env = dict(os.environ, SPBIAS_JAX_CACHE=str(cache), PYTHONPATH=str(ROOT))
    cmd = [*SPBIAS, "tune", "--dataset", data, "--seeds", str(seed), "--batch-size", str(batch_size), "--max-steps", str(steps),
           "--eval-every", "100", "--min-steps", "0", "--checkpoint-every", "0", "--out", str(out), "--scan-layers" if scan else "--no-scan-layers"]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    m = FIRST.search(r.stdout + r.stderr)
    if r.returncode or not m: raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{(r.stdout + r.stderr)[-3000:]}")
    return dict(first_step_s=float(m.group(1)), process_wall_s=wall)


STEP_CHILD = r"""
import json, sys, time, statistics
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_enable_compilation_cache", False)
from flax import nnx
from spbias.models.pretrained import load_model
from spbias.models.build import set_layers
from spbias.tuning.tune import TuneConfig, make_optimizer, make_train_step, make_batcher, train_batch
from spbias.tuning.data import load_sentiment, encode_texts
scan, batch_size, data = sys.argv[1] == "1", int(sys.argv[2]), sys.argv[3]
model, tok, mcfg = load_model("smollm2")
set_layers(model, scan)
t = load_sentiment(data, split="train")
cfg = TuneConfig(seeds=(1001,), batch_size=batch_size)
ids = encode_texts(tok, t.text.tolist())
tk, mask, ends, slots = train_batch(make_batcher(cfg, [len(i) for i in ids]), ids, [1001], 0, mcfg.pad_token_id or 0)
y, w = np.where(slots >= 0, t.label.to_numpy()[np.maximum(slots, 0)], 0), (slots >= 0).astype(np.float32)
tx = make_optimizer(cfg); gd, params = nnx.split(model)
E = model.embed_tokens.embedding[...].shape[1]
bases = jnp.zeros((1, 8, E)); act = jnp.ones(1, bool); lab = jnp.array([1, 2, 3])
f = make_train_step(gd, tx, "full_vocab", "map")
fresh = lambda: (jnp.zeros((1, 8, E)), jax.vmap(tx.init)(jnp.zeros((1, 8, E))))
d, s = fresh()
t0 = time.perf_counter(); lo = f.lower(params, d, s, bases, tk, mask, ends, y, w, act, lab); t1 = time.perf_counter()
c = lo.compile(); t2 = time.perf_counter()
times = []
for _ in range(7):
    d, s = fresh(); a = time.perf_counter()
    jax.block_until_ready(c(params, d, s, bases, tk, mask, ends, y, w, act, lab)); times.append(time.perf_counter() - a)
print(json.dumps(dict(shape=list(tk.shape), lower_s=t1 - t0, compile_s=t2 - t1, step_s=statistics.median(times[1:]), step_s_all=times)))
"""


def step_alone(scan:bool, batch_size:int, data:str)->dict:
    r = subprocess.run([sys.executable, "-c", STEP_CHILD, "1" if scan else "0", str(batch_size), data], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if r.returncode: raise SystemExit(f"step measurement failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3, help="fresh caches (and processes) per measurement; the median is reported")
    p.add_argument("--batch-size", type=int, default=8)
    a = p.parse_args(argv)
    import jax, platform
    from spbias.core import atomic_write_json
    data = "demo"
    reps = {m: dict(cold=[], warm=[], step=[]) for m in ("unrolled", "scanned")}
    for i in range(a.repeats):  # interleaved, so a change in the machine's load spreads over both modes
        for mode in reps:
            scan = mode == "scanned"
            work = Path(tempfile.mkdtemp())
            try:
                reps[mode]["cold"].append(tune_first_step(work/"cache", work/"a", 1001, scan, a.batch_size, data, steps=20))
                reps[mode]["warm"].append(tune_first_step(work/"cache", work/"b", 1002, scan, a.batch_size, data))
            finally: shutil.rmtree(work, ignore_errors=True)
            reps[mode]["step"].append(step_alone(scan, a.batch_size, data))
            print(mode, i, {k: v[-1] for k, v in reps[mode].items()}, flush=True)
    med = lambda xs, k: statistics.median(x[k] for x in xs)
    summary = {m: dict(first_step_cold_s=med(r["cold"], "first_step_s"), first_step_warm_s=med(r["warm"], "first_step_s"),
                       step_lower_s=med(r["step"], "lower_s"), step_compile_s=med(r["step"], "compile_s"), step_s=med(r["step"], "step_s"),
                       shape=r["step"][0]["shape"]) for m, r in reps.items()}
    res = dict(what="spbias tune on SmolLM2-135M (float32, 1 seed, batch %d, %s): seconds from the weights loaded to the end of the first step, "
                    "with an empty compilation cache (cold) and again with it filled by a run of another seed (warm); and the tuning step "
                    "alone at the first step's shape (lower, compile, median step once compiled)" % (a.batch_size, data),
               targets=dict(first_step_cold_s=20.0, first_step_warm_s=5.0), summary=summary, repetitions=reps,
               machine=dict(platform=platform.platform(), cpu_count=os.cpu_count(), python=platform.python_version(), jax=jax.__version__,
                            load_average_at_start=os.getloadavg()))
    data_all = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data_all["smollm2_first_step"] = res
    atomic_write_json(RESULTS, data_all)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
