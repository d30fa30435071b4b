"""The measurements behind spbias.testing's parity tolerances: every family's tiny model at three weight
scales, tied and untied, ours against transformers in float32 and bfloat16 (and transformers' own
bfloat16-vs-float32 difference); for OLMo 2 also the wrong norm cast order (`rms` for `rms_f32`).

Columns: d32 / d16 max |ours - transformers| in float32 / bfloat16; ref16 max |transformers bf16 - fp32|;
our16 max |ours bf16 - transformers fp32|; std, amax of transformers' fp32 logits; p32 / p16 / pref16 the
same maxima on the softmax over the vocabulary; m16 / mref mean |ours bf16 - transformers bf16| and mean
|transformers bf16 - fp32|; mut16 / mmut the same for the mutant (OLMo 2).

Run: python benchmarks/parity_rules.py > benchmarks/results/parity_rules.txt
"""
import dataclasses, sys, time
from pathlib import Path
import numpy as np, torch, transformers as tf, jax.numpy as jnp
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from spbias.testing import tiny_hf_model, SENTENCES, TINY_ARCHS, softmax, hf_logits
from spbias.models.families import config_from_hf
from spbias.models.weights import model_from_tensors
tf.utils.logging.set_verbosity_error(); torch.set_num_threads(1)

t0 = time.time()
for arch in TINY_ARCHS:
    for scale in (0.02, 0.1, 0.3):
        for tie in (False, True):
            src, tok = tiny_hf_model(arch, seed=1, **{"init_std" if arch == "opt" else "initializer_range": scale, "tie_word_embeddings": tie})
            enc = tok(SENTENCES[:3], padding=True, return_tensors="np"); real = enc["attention_mask"] > 0
            sd, d = {k: v.numpy() for k, v in src.state_dict().items()}, src.config.to_dict()
            ids, mask = jnp.asarray(enc["input_ids"]), jnp.asarray(enc["attention_mask"])
            r32 = hf_logits(src, enc["input_ids"], enc["attention_mask"]); r16 = hf_logits(src.to(torch.bfloat16), enc["input_ids"], enc["attention_mask"])
            o32 = np.asarray(model_from_tensors(config_from_hf(d), sd)(ids, mask))
            o16 = np.asarray(model_from_tensors(config_from_hf(d, "bfloat16"), sd)(ids, mask), np.float32)
            mx = lambda a, b: float(np.abs(a - b)[real].max()); mn = lambda a, b: float(np.abs(a - b)[real].mean())
            row = dict(d32=mx(o32, r32), d16=mx(o16, r16), ref16=mx(r16, r32), our16=mx(o16, r32), std=float(r32[real].std()),
                       amax=float(np.abs(r32[real]).max()), p32=mx(softmax(o32), softmax(r32)), p16=mx(softmax(o16), softmax(r16)),
                       pref16=mx(softmax(r16), softmax(r32)), m16=mn(o16, r16), mref=mn(r16, r32))
            if arch == "olmo2":
                m = np.asarray(model_from_tensors(dataclasses.replace(config_from_hf(d, "bfloat16"), norm="rms"), sd)(ids, mask), np.float32)
                row.update(mut16=mx(m, r16), mmut=mn(m, r16))
            print(f"{arch:11s} scale={scale} tied={int(tie)} " + " ".join(f"{k}={v:.2e}" for k, v in row.items()), flush=True)
print(f"# {time.time() - t0:.0f} s")
