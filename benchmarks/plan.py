"""`spbias plan` for the papers' two 13B set-ups: per-device memory of one tuning step, from XLA's memory analysis.

The set-ups: a TPU v3-8 (8 cores of 16 GiB; mesh data=1 x model=8) and 4 x A40 (48 GiB each; mesh data=1 x model=4),
each with OPT-13B and LLaMA-2-13B (the presets of spbias.tuning.plan), one step of the papers' shape (batch 16 texts of up to
128 tokens, 8 prompt tokens, full-vocabulary loss) for the seeds, dtype, remat and scanned-layer settings listed below. Every plan
compiles on 8 forced CPU devices in its own process (the 4-device mesh uses 4 of them): the SPMD partitioning is the
target's, the buffer assignment the CPU backend's (see nbs/507_plan.ipynb), with LLVM's optimisations off (FAST_CPU_COMPILE:
the same figures, faster compiles). Compile seconds are wall time on this machine.

    python benchmarks/plan.py [--only opt-13b] [--variants 1:float32,1:bfloat16,4:bfloat16:remat] [--out benchmarks/results/plan.json]

Results are written after each plan; a plan already in the output file (same model, set-up and variant) is kept, not redone.

"""
from __future__ import annotations
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path
from spbias.tuning.plan import FAST_CPU_COMPILE  # LLVM optimisations off: the same figures, faster compiles (nbs/507_plan.ipynb)

SETUPS = {"tpu-v3-8": ("data=1,model=8", "16GiB"), "4xA40": ("data=1,model=4", "48GiB")}
VARIANTS = "1:float32,1:bfloat16"  # seeds:dtype[:remat][:scan], comma-separated

def parse_variants(spec:str)->list[tuple]:
    return [(int(v.split(":")[0]), v.split(":")[1], "remat" in v.split(":")[2:], "scan" in v.split(":")[2:]) for v in spec.split(",")]

def one(model:str, setup:str, seeds:int, dtype:str, remat:bool, scan:bool=False)->dict:
    mesh, mem = SETUPS[setup]
    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-c", "import sys; from spbias.cli import main; sys.exit(main(sys.argv[1:]))", "plan", model,
               "--mesh", mesh, "--device-memory", mem, "--n-seeds", str(seeds), "--batch-size", "16", "--max-len", "128",
               "--dtype", dtype, "--out", f"{d}/p.json"] + (["--remat"] if remat else []) + (["--scan-layers"] if scan else ["--no-scan-layers"])
        env = {**os.environ, "JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_force_host_platform_device_count=8 " + FAST_CPU_COMPILE}
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        print(r.stdout, r.stderr[-2000:] if r.returncode not in (0, 1) else "", flush=True)
        if r.returncode not in (0, 1): raise SystemExit(f"plan failed: {' '.join(cmd)}")
        return {"setup": setup, "xla_flags": env["XLA_FLAGS"], **json.loads(Path(f"{d}/p.json").read_text())}

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default=None, help="plan only this model (opt-13b or llama-2-13b)")
    p.add_argument("--models", default="opt-13b,llama-2-13b", help="the models, in this order")
    p.add_argument("--setups", default=",".join(SETUPS), help="comma-separated set-ups: " + ", ".join(SETUPS))
    p.add_argument("--variants", default=VARIANTS, help="seeds:dtype[:remat][:scan], comma-separated")
    p.add_argument("--out", default=str(Path(__file__).parent/"results"/"plan.json"))
    a = p.parse_args(argv)
    out = Path(a.out)
    old = json.loads(out.read_text())["runs"] if out.is_file() else []
    key = lambda r: (r["model"], r["setup"], r["seeds"], r["dtype"], r["remat"], r.get("scan", False), r.get("method", "compiled"))
    runs = {key(r): r for r in old}
    for v in parse_variants(a.variants):
        for s in a.setups.split(","):
            for m in a.models.split(","):
                if a.only not in (None, m) or (m, s, *v, "compiled") in runs: continue
                r = {**one(m, s, *v), "method": "compiled", "load_average_after": os.getloadavg()}
                runs[key(r)] = r
                out.write_text(json.dumps(dict(
                    benchmark="spbias plan: per-device memory of one tuning step, 13B models",
                    machine=dict(platform=platform.platform(), python=platform.python_version(), cpus=os.cpu_count(),
                                 note="compiled on 8 forced CPU devices; the first plans while a long study used both cores (nice 19), so their compile "
                                      "seconds are slow; later runs record the load average after them"),
                    settings=dict(batch_size=16, max_len=128, n_tokens=8, loss="full_vocab", reserve=0.1, seed_loop="vmap", date=time.strftime("%Y-%m-%d")),
                    runs=sorted(runs.values(), key=key)), indent=2) + "\n")
    for r in sorted(runs.values(), key=key):
        print(f"{r['setup']:9} {r['model']:12} S={r['seeds']:<2} {r['dtype']:8} remat={str(r['remat']):5} scan={str(r.get('scan', False)):5} {r.get('method', 'compiled'):12} "
              f"weights {r['weights']/2**30:6.2f} GiB  total {r['total']/2**30:6.2f} GiB of {r['usable']/2**30:5.2f}  fits={r['fits']}")

if __name__ == "__main__": main()
