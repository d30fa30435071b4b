"""SmolLM2-135M forward throughput on CPU: spbias (JAX, jit, float32) vs transformers (torch, float32).

Both run in the same process (one per thread count) on the same batches (right-padded real sentences, full logits [B,T,V]) with the
same weights (the offline SmolLM2 GGUF, dequantised once) and the same number of CPU threads: the
process is pinned to that many cores, torch.set_num_threads is set to it, and XLA's CPU client sees only
those cores. Warm-up calls (compilation included) are not timed; each timing is the median of 2 x repeats calls,
run in blocks per framework (ours then torch, then torch then ours) so that one's idle worker threads
never compete with the other's work, while a busy machine still slows both alike.

    python benchmarks/forward.py [--threads 2,1] [--repeats R] [--batches 1x32,16x32] [--out benchmarks/results/forward.json]

Each thread count runs in its own process (the CPU pinning must precede importing jax and torch).
"""
from __future__ import annotations
import argparse, os, sys, time, platform, json, subprocess
from pathlib import Path

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", default=f"{len(os.sched_getaffinity(0))},1",
                   help="comma-separated CPU thread counts, one run each, used by both (default: all usable cores, then 1)")
    p.add_argument("--repeats", type=int, default=3, help="timed calls per block (two blocks per framework and batch shape)")
    p.add_argument("--batches", default="1x32,16x32", help="batch shapes BxT (rows x padded length)")
    p.add_argument("--out", default=str(Path(__file__).parent/"results"/"forward.json"))
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # one thread count, in a fresh process
    return p.parse_args(argv)

args = parse_args()
if args.child:  # pin this process to the first N usable cores before jax and torch start their thread pools
    N = int(args.threads)
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:N])
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=true")
import numpy as np
if args.child:
    import jax, jax.numpy as jnp
    from flax import nnx
    import torch, transformers as tf
    torch.set_num_threads(N)
    tf.utils.logging.set_verbosity_error(); tf.utils.logging.disable_progress_bar()
    from spbias.models.families import config_from_hf
    from spbias.models.weights import read_gguf, model_from_tensors
    from spbias.models.pretrained import load_tokenizer
    from spbias.testing import SENTENCES
from spbias.core import smollm2_gguf_path, atomic_write_json

def build_models():
    "Our model and transformers' LlamaForCausalLM with the very same (dequantised) weights."
    path = smollm2_gguf_path()
    hf, tensors = read_gguf(path)
    cfg = config_from_hf(hf, dtype="float32")
    ours = model_from_tensors(cfg, tensors, source=str(path))
    ref = tf.LlamaForCausalLM(tf.LlamaConfig(**{k: v for k, v in hf.items() if k != "model_type"})).float().eval()
    missing, unexpected = ref.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in tensors.items()}, strict=False)
    assert not unexpected and set(missing) <= {"lm_head.weight"}, (missing, unexpected)
    ref.tie_weights()
    return ours, ref, load_tokenizer(path)

def make_batch(tok, B:int, T:int):
    "B rows of real sentences (consecutive sentences joined until T tokens), right-padded to T."
    ids, mask, i = np.full((B, T), tok.pad_token_id, np.int32), np.zeros((B, T), np.int32), 0
    for b in range(B):
        row = []
        while True:
            nxt = tok(" " + SENTENCES[i % len(SENTENCES)] if row else SENTENCES[i % len(SENTENCES)], add_special_tokens=False)["input_ids"]
            if row and len(row) + len(nxt) > T: break
            row += nxt[:T]; i += 1
            if len(row) >= T: break
        ids[b, :len(row)], mask[b, :len(row)] = row[:T], 1
    return ids, mask

def gemm_rates(cfg, M:int=512, repeats:int=10)->dict:
    "GFLOP/s of the model's matrix products alone ([M, in] @ [in, out], float32): XLA (jit) vs torch vs numpy's BLAS."
    D, F, V, Q, KV = cfg.d_model, cfg.d_ff, cfg.vocab_size, cfg.n_heads * cfg.head_dim, cfg.n_kv_heads * cfg.head_dim
    out = {}
    for name, (k, n) in dict(q_o=(D, Q), k_v=(D, KV), gate_up=(D, F), down=(F, D), head=(D, V)).items():
        a, w = np.random.default_rng(0).standard_normal((M, k), np.float32), np.random.default_rng(1).standard_normal((k, n), np.float32)
        ja, jw, ta, tw = jnp.asarray(a), jnp.asarray(w), torch.from_numpy(a), torch.from_numpy(w)
        mm = jax.jit(jnp.matmul)
        fns = {"xla": lambda: mm(ja, jw).block_until_ready(), "torch": lambda: torch.matmul(ta, tw), "numpy": lambda: a @ w}
        ts = {key: [] for key in fns}
        for key, f in fns.items():  # a block per library: one's spinning worker threads must not slow another's calls
            time.sleep(0.5); f(); f()
            for _ in range(repeats):
                t0 = time.perf_counter(); f(); ts[key].append(time.perf_counter() - t0)
        out[f"{name} [{M},{k}]x[{k},{n}]"] = {key: 2 * M * k * n / float(np.median(v)) / 1e9 for key, v in ts.items()}
    return out

def child():
    "One run at one thread count: prints a JSON line with its results."
    ours, ref, tok = build_models()
    graphdef, state = nnx.split(ours)
    @jax.jit
    def fwd(state, ids, mask): return nnx.merge(graphdef, state)(ids, mask)  # full logits [B,T,V], float32
    def run_ours(ids, mask): return fwd(state, ids, mask).block_until_ready()
    def run_torch(ids, mask):
        with torch.inference_mode(): return ref(input_ids=ids, attention_mask=mask).logits
    rows = []
    for shape in args.batches.split(","):
        B, T = map(int, shape.split("x"))
        ids, mask = make_batch(tok, B, T)
        j_ids, j_mask, t_ids, t_mask = jnp.asarray(ids), jnp.asarray(mask), torch.from_numpy(ids).long(), torch.from_numpy(mask).long()
        a, b = np.asarray(run_ours(j_ids, j_mask)), run_torch(t_ids, t_mask).numpy()  # warm-up (and jit compile)
        run_ours(j_ids, j_mask); run_torch(t_ids, t_mask)
        real = mask.astype(bool)
        diff = float(np.abs(a - b)[real].max())
        times = {"spbias_jax": [], "transformers_torch": []}
        runs = {"spbias_jax": lambda: run_ours(j_ids, j_mask), "transformers_torch": lambda: run_torch(t_ids, t_mask)}
        for order in (("spbias_jax", "transformers_torch"), ("transformers_torch", "spbias_jax")):
            for k in order:  # a block of repeats per framework: idle worker threads of one never spin during the other
                time.sleep(0.5); runs[k]()
                for _ in range(args.repeats):
                    t0 = time.perf_counter(); runs[k](); times[k].append(time.perf_counter() - t0)
        med = {k: float(np.median(v)) for k, v in times.items()}
        row = dict(batch=B, length=T, real_tokens=int(mask.sum()), padded_tokens=B * T, max_abs_logit_diff=diff,
                   seconds_median=med, seconds_all=times,
                   tokens_per_s={k: B * T / v for k, v in med.items()},
                   ratio_ours_over_torch=med["transformers_torch"] / med["spbias_jax"])
        rows.append(row)
        print(f"B={B:>3} T={T}: ours {row['tokens_per_s']['spbias_jax']:8.1f} tok/s, torch {row['tokens_per_s']['transformers_torch']:8.1f} tok/s, "
              f"ratio {row['ratio_ours_over_torch']:.2f}, max |logit diff| {diff:.1e}", flush=True)
    gemm = gemm_rates(ours.cfg, M=512)
    for k, v in gemm.items(): print(f"GEMM {k}: " + ", ".join(f"{n} {g:.0f}" for n, g in v.items()) + " GFLOP/s", flush=True)
    total = {k: sum(r["padded_tokens"] for r in rows) / sum(r["seconds_median"][k] for r in rows) for k in ("spbias_jax", "transformers_torch")}
    run = dict(threads=N, cores=sorted(os.sched_getaffinity(0)), xla_flags=os.environ.get("XLA_FLAGS", ""), torch_threads=torch.get_num_threads(),
               versions=dict(jax=jax.__version__, torch=torch.__version__, transformers=tf.__version__),
               batches=rows, gemm_gflops=gemm, overall_tokens_per_s=total, overall_ratio_ours_over_torch=total["spbias_jax"] / total["transformers_torch"],
               load_average_at_end=os.getloadavg())
    print(f"threads={N} overall: ours {total['spbias_jax']:.1f} tok/s, torch {total['transformers_torch']:.1f} tok/s, "
          f"ratio {run['overall_ratio_ours_over_torch']:.2f} (target 1.2)", flush=True)
    print("RESULT " + json.dumps(run), flush=True)

def main():
    "Run one child process per thread count and write all results to one JSON file."
    runs, load0 = [], os.getloadavg()
    for n in args.threads.split(","):
        cmd = [sys.executable, __file__, "--child", "--threads", n, "--repeats", str(args.repeats), "--batches", args.batches]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
        print("\n".join(l for l in out.splitlines() if not l.startswith("RESULT ")), flush=True)
        runs.append(json.loads(next(l for l in out.splitlines() if l.startswith("RESULT "))[7:]))
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    result = dict(
        benchmark="SmolLM2-135M-Instruct (Q4_1 GGUF dequantised to float32): full forward to logits [B,T,V], float32, CPU",
        machine=dict(cpu=cpu, usable_cores=len(os.sched_getaffinity(0)), platform=platform.platform(), python=platform.python_version(),
                     load_average_at_start=load0, load_average_at_end=os.getloadavg(),
                     note="load averages above the core count mean other jobs shared the CPU during the run"),
        settings=dict(repeats_per_block=args.repeats, warmup_calls="2, then 1 untimed call before each block",
                      timing="median of 2 x repeats calls, in blocks per framework, block order ours-torch then torch-ours",
                      ours="jax.jit of the whole forward (nnx.split state as an argument)", torch="torch.inference_mode, eager",
                      tokens_counted="padded tokens B*T (both process the same padded batch)",
                      gemm_gflops="each matrix product of the model alone at M=512 rows, median of 10 calls in a block per library (XLA, torch, numpy's BLAS)"),
        runs=runs, target_ratio=1.2,
        ratio_ours_over_torch={str(r["threads"]): r["overall_ratio_ours_over_torch"] for r in runs},
    )
    atomic_write_json(args.out, result)
    print(f"-> {args.out}")

if __name__ == "__main__": child() if args.child else main()
