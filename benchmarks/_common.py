"""What the tuning-step benchmarks (compact.py, masked.py) share: the path set-up, their command line, a random LLaMA of
SmolLM2-135M's widths with few layers, the same synthetic training texts and batcher, the machine and the results file.
"""
from __future__ import annotations
import argparse, json, os, platform, sys
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
RESULTS = ROOT/"benchmarks"/"results"
WIDTHS = "SmolLM2-135M widths (d_model 576, 9 heads, 3 kv heads, d_ff 1536, vocab 49152)"


def step_parser(doc:str, # the script's docstring (its first line is the description)
                layers:int, # the default number of decoder layers
                name:str # the results file's name: benchmarks/results/NAME.json
               )->argparse.ArgumentParser:
    "The tuning-step benchmarks' shared options: --layers, --seeds, --repeats, --out."
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--layers", type=int, default=layers, help="decoder layers of the random SmolLM2-135M-wide model")
    ap.add_argument("--seeds", type=int, default=15, help="prompts tuned together")
    ap.add_argument("--repeats", type=int, default=3, help="timed steps per point after the compiling one (median)")
    ap.add_argument("--out", default=str(RESULTS/f"{name}.json"), help="JSON to write (a quick run: another file)")
    return ap


def tuning_setup(layers:int, # decoder layers
                 seeds:int # prompts tuned together (seeds 1..seeds)
                )->SimpleNamespace:
    ("A random LLaMA of SmolLM2-135M's widths, the tune config (batch 8, lr 1e-2), 2,000 random texts of SST-5-like "
     "lengths and their packed batcher, the bos prompt base [n_tokens, d] and three label ids.")
    import numpy as np, jax.numpy as jnp
    from flax import nnx
    from spbias.models.config import ModelConfig
    from spbias.models.build import build_model
    from spbias.tuning.prompt import PromptConfig, prompt_base
    from spbias.tuning.tune import TuneConfig, make_batcher
    mcfg = ModelConfig.tiny_llama(vocab_size=49152, d_model=576, n_heads=9, n_kv_heads=3, d_ff=1536, n_layers=layers,
                                  bos_token_id=1, eos_token_id=2, pad_token_id=2, tie_word_embeddings=True,
                                  max_positions=2048)
    model = build_model(mcfg, nnx.Rngs(0))
    graphdef, params = nnx.split(model)
    cfg = TuneConfig(seeds=list(range(1, seeds + 1)), batch_size=8, lr=1e-2)
    rng = np.random.default_rng(0)
    texts = [rng.integers(3, 49152, int(n)).astype(np.int32) for n in rng.integers(10, 50, 2000)]
    return SimpleNamespace(model=model, graphdef=graphdef, params=params, cfg=cfg, texts=texts,
                           batcher=make_batcher(cfg, [len(t) for t in texts]),
                           base=np.asarray(prompt_base(model, PromptConfig(8, "bos"))),
                           label_ids=jnp.asarray([100, 200, 300]))


def machine()->dict:
    "The machine, the versions and the load average at the start."
    import jax
    return dict(platform=platform.platform(), processor=platform.processor() or platform.machine(),
                cpu_count=os.cpu_count(), python=platform.python_version(), jax=jax.__version__,
                backend=jax.default_backend(), load_average_at_start=os.getloadavg())


def write_results(out:dict, # the benchmark's results, with a `machine` entry
                  path:str|Path):
    "Note the load average at the end, write the JSON atomically and print the results."
    from spbias.core import atomic_write_json
    out["machine"]["load_average_at_end"] = os.getloadavg()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, out)
    print(json.dumps(out["results"], indent=1))
    print(f"wrote {path}")
