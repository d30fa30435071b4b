"""Peak host memory of loading a sharded checkpoint: streamed (spbias.models.pretrained.load_weights) vs reading every shard into one dict first.

Writes a random LLaMA checkpoint of about 2.4 GB under /tmp (float32 safetensors shards of at most --shard-mb MB,
model.safetensors.index.json and config.json; no tokenizer), loads it with each loader and dtype in a fresh process,
and deletes it. The loader before streaming ("dict") is spbias.checkpoint as of commit 415ef19 (main before the
streaming loader), imported from git history unchanged: read_weights (every shard into one dict, bfloat16 read through
safetensors' flax reader) then model_from_tensors, which pops each tensor as it converts it; exactly what its
load_model did, without the tokenizer. The new loader is load_weights: shard by shard, tensor by tensor, each cast once
and placed on the default device. Each child reports its baseline RSS (python with jax and spbias imported, the
CPU backend started), its peak RSS (getrusage ru_maxrss), its RSS once loaded and the seconds the load took, and a
sha256 of its parameters (equal between loaders of one dtype).

On the CPU backend the loaded model itself lives in host memory, so a loader's transient cost is
peak - baseline - model bytes ("overhead"); on an accelerator host that is all the host ever holds.

    nice -n 19 python benchmarks/load.py [--layers 9] [--shard-mb 500] [--keep DIR] [--out benchmarks/results/load.json]
"""
from __future__ import annotations
import argparse, hashlib, json, os, platform, resource, shutil, subprocess, sys, tempfile, time
from pathlib import Path

BEFORE = "415ef19"  # main before the streaming loader

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=9, help="decoder layers of the random LLaMA (9: 594M parameters, 2.37 GB in float32)")
    p.add_argument("--shard-mb", type=int, default=500, help="largest shard file, MB (as transformers' max_shard_size)")
    p.add_argument("--dtypes", default="float32,bfloat16", help="target dtypes, comma-separated")
    p.add_argument("--keep", default=None, help="write the checkpoint here and keep it (default: a /tmp folder, deleted)")
    p.add_argument("--out", default=str(Path(__file__).parent/"results"/"load.json"))
    p.add_argument("--child", nargs=4, metavar=("LOADER", "DTYPE", "CKPT", "BEFORE_PY"), help=argparse.SUPPRESS)
    return p.parse_args(argv)

def config(layers:int)->dict:
    return dict(model_type="llama", architectures=["LlamaForCausalLM"], hidden_size=2048, intermediate_size=5632,
                num_hidden_layers=layers, num_attention_heads=16, num_key_value_heads=16, vocab_size=32000,
                max_position_embeddings=2048, rms_norm_eps=1e-5, rope_theta=10000.0, tie_word_embeddings=False,
                hidden_act="silu", torch_dtype="float32", bos_token_id=1, eos_token_id=2)

def shapes(c:dict)->dict:
    "transformers' LLaMA state-dict keys and shapes."
    D, F, V = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    out = {"model.embed_tokens.weight": (V, D)}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out.update({p + "input_layernorm.weight": (D,), p + "post_attention_layernorm.weight": (D,),
                    **{p + f"self_attn.{n}_proj.weight": (D, D) for n in "qkvo"},
                    p + "mlp.gate_proj.weight": (F, D), p + "mlp.up_proj.weight": (F, D), p + "mlp.down_proj.weight": (D, F)})
    out.update({"model.norm.weight": (D,), "lm_head.weight": (V, D)})
    return out

def write_checkpoint(folder:Path, layers:int, shard_mb:int)->dict:
    "A random float32 LLaMA as transformers writes it: shards of at most `shard_mb` MB, an index, config.json."
    import numpy as np
    from safetensors.numpy import save_file
    c, rng = config(layers), np.random.default_rng(0)
    groups, cur, size = [], [], 0
    for k, s in shapes(c).items():  # fill shards in order, as transformers' max_shard_size does
        n = 4 * int(np.prod(s))
        if cur and size + n > shard_mb * 10**6: groups.append(cur); cur, size = [], 0
        cur.append((k, s)); size += n
    groups.append(cur)
    folder.mkdir(parents=True, exist_ok=True)
    weight_map = {}
    for i, g in enumerate(groups):
        name = f"model-{i + 1:05d}-of-{len(groups):05d}.safetensors"
        save_file({k: (rng.standard_normal(s, np.float32) * 0.02 if len(s) == 2 else np.ones(s, np.float32)) for k, s in g}, str(folder/name))
        weight_map.update({k: name for k, _ in g})
        print(f"wrote {name} ({(folder/name).stat().st_size / 1e6:.0f} MB)", flush=True)
    total = sum(4 * int(np.prod(s)) for s in shapes(c).values())
    (folder/"model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=2))
    (folder/"config.json").write_text(json.dumps(c, indent=2))
    files = sorted(folder.glob("*.safetensors"))
    return dict(config=c, parameters=total // 4, files=len(files), file_bytes={f.name: f.stat().st_size for f in files},
                checkpoint_bytes=sum(f.stat().st_size for f in files), largest_shard_bytes=max(f.stat().st_size for f in files),
                largest_tensor_bytes=max(4 * int(np.prod(s)) for s in shapes(c).values()))

def rss_now()->int:
    "This process's resident memory now, bytes."
    return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmRSS:"))

def child(loader:str, dtype:str, ckpt:str, before_py:str):
    "Load once in this fresh process; print RESULT and a JSON line."
    import importlib.util, numpy as np, jax
    from flax import nnx
    from spbias.models.families import config_from_hf
    from spbias.models.pretrained import load_weights
    spec = importlib.util.spec_from_file_location("spbias._checkpoint_before", before_py)  # relative imports resolve in spbias
    before = importlib.util.module_from_spec(spec); spec.loader.exec_module(before)
    jax.devices()  # the CPU backend started: part of the baseline
    base, base_max = rss_now(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    if loader == "streamed": model, cfg = load_weights(ckpt, dtype)
    else:
        cfg = config_from_hf(before.read_config(Path(ckpt)), dtype=dtype)
        model = before.model_from_tensors(cfg, before.read_weights(Path(ckpt)), source=ckpt)
    leaves = [v[...] for _, v in nnx.to_flat_state(nnx.state(model, nnx.Param))]
    jax.block_until_ready(leaves)
    seconds = time.perf_counter() - t0
    peak, after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, rss_now()
    h = hashlib.sha256()
    for x in leaves: h.update(np.asarray(x).tobytes())
    model_bytes = sum(x.nbytes for x in leaves)
    print("RESULT " + json.dumps(dict(loader=loader, dtype=dtype, seconds=seconds, baseline_rss_bytes=base, baseline_peak_rss_bytes=base_max,
                                      peak_rss_bytes=peak, rss_after_bytes=after, model_bytes=model_bytes, params_sha256=h.hexdigest())), flush=True)

def main(args):
    from spbias.core import atomic_write_json
    root = Path(__file__).resolve().parents[1]
    work = Path(tempfile.mkdtemp(prefix="spbias-load-"))
    ckpt = Path(args.keep) if args.keep else work/"ckpt"
    before_py = work/"checkpoint_before.py"
    before_py.write_text(subprocess.run(["git", "-C", str(root), "show", f"{BEFORE}:spbias/checkpoint.py"], capture_output=True, text=True, check=True).stdout)
    load0, runs = os.getloadavg(), []
    try:
        t0 = time.perf_counter()
        info = write_checkpoint(ckpt, args.layers, args.shard_mb)
        info["write_seconds"] = time.perf_counter() - t0
        print(f"checkpoint: {info['checkpoint_bytes'] / 1e9:.2f} GB in {info['files']} shards, largest {info['largest_shard_bytes'] / 1e6:.0f} MB", flush=True)
        for dtype in args.dtypes.split(","):
            for loader in ("dict", "streamed"):
                out = subprocess.run([sys.executable, __file__, "--child", loader, dtype, str(ckpt), str(before_py)],
                                     stdout=subprocess.PIPE, text=True, check=True, env=dict(os.environ, JAX_PLATFORMS="cpu")).stdout
                r = json.loads(next(l for l in out.splitlines() if l.startswith("RESULT "))[7:])
                ck, model = info["checkpoint_bytes"], r["model_bytes"]
                r.update(peak_over_checkpoint=r["peak_rss_bytes"] / ck, peak_above_baseline_bytes=r["peak_rss_bytes"] - r["baseline_rss_bytes"],
                         overhead_bytes=r["peak_rss_bytes"] - r["baseline_rss_bytes"] - model,
                         overhead_over_checkpoint=(r["peak_rss_bytes"] - r["baseline_rss_bytes"] - model) / ck,
                         target_bytes=info["largest_shard_bytes"] + model // 4)
                r["meets_target"] = r["overhead_bytes"] <= r["target_bytes"]
                runs.append(r)
                print(f"{loader:>8} {dtype:>8}: peak {r['peak_rss_bytes'] / 1e9:.2f} GB (baseline {r['baseline_rss_bytes'] / 1e9:.2f}, model {model / 1e9:.2f}, "
                      f"overhead {r['overhead_bytes'] / 1e9:.2f} GB, target <= {r['target_bytes'] / 1e9:.2f}), {r['seconds']:.1f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if args.keep is None: shutil.rmtree(ckpt, ignore_errors=True)
    same = {d: len({r["params_sha256"] for r in runs if r["dtype"] == d}) == 1 for d in args.dtypes.split(",")}
    assert all(same.values()), same
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    import jax, safetensors
    result = dict(
        benchmark="peak host RSS of loading a sharded float32 LLaMA safetensors checkpoint: streamed vs every shard into one dict first",
        machine=dict(cpu=cpu, usable_cores=len(os.sched_getaffinity(0)), memory_bytes=os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
                     platform=platform.platform(), python=platform.python_version(), jax=jax.__version__, safetensors=safetensors.__version__,
                     load_average_at_start=load0, load_average_at_end=os.getloadavg(),
                     note="run with nice 19 beside a long study using both cores: seconds are slow and noisy; memory is not affected"),
        settings=dict(backend="cpu (the loaded model lives in host memory)", before_commit=BEFORE,
                      dict_loader="spbias.checkpoint at the commit before streaming: model_from_tensors(cfg, read_weights(folder))",
                      streamed_loader="spbias.models.pretrained.load_weights(folder, dtype)",
                      peak="getrusage(RUSAGE_SELF).ru_maxrss of a fresh process per loader and dtype (file-backed mapped pages included)",
                      baseline="VmRSS after importing jax, flax and spbias and starting the CPU backend",
                      overhead="peak - baseline - model bytes: host memory the loading needs besides the model itself",
                      target="overhead <= largest shard + 25% of the model"),
        checkpoint=info, runs=runs, params_equal_between_loaders=same,
        summary={f"{r['loader']} {r['dtype']}": dict(peak_gb=round(r["peak_rss_bytes"] / 1e9, 2), overhead_gb=round(r["overhead_bytes"] / 1e9, 2),
                                                    peak_over_checkpoint=round(r["peak_over_checkpoint"], 2), seconds=round(r["seconds"], 1),
                                                    meets_target=r["meets_target"]) for r in runs},
    )
    atomic_write_json(args.out, result)
    print(f"-> {args.out}")

if __name__ == "__main__":
    a = parse_args()
    child(*a.child) if a.child else main(a)
