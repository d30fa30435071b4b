"""How much arithmetic each side of a benchmark does, so a speed-up can be read against what the work allows.

A speed-up over a peer has two factors: the work ratio (multiply-accumulates the peer does over the ones we do,
from padding, shared prefixes, logits nobody reads) and the efficiency ratio (how fast each side gets through
its multiply-accumulates). On a CPU both sides spend nearly all their time in the same matrix products, so
the work ratio is roughly the speed-up one can expect when both run at the same rate. The counts below are
the matrix products of a decoder (projections, MLP, attention scores and mixing, output head); norms,
rotary embeddings and softmax are left out (a few per cent).
"""
from __future__ import annotations


def layer_macs_per_token(cfg)->int:
    "Multiply-accumulates of one decoder layer's projections and MLP for one token (attention over keys not included)."
    D, H, K, Dh, F = cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.d_ff
    mlp = (3 if cfg.arch == "llama" else 2) * D * F  # gated (gate, up, down) or plain (fc1, fc2)
    return D * H * Dh + 2 * D * K * Dh + H * Dh * D + mlp


def forward_macs(cfg, tokens:int, key_slots:int, head_positions:int)->int:
    """Multiply-accumulates of a forward pass.

    tokens: positions run through the stack; key_slots: sum over those positions of the keys each one's
    attention computes scores against (masked ones included: a dense [T, S] score matrix costs T*S);
    head_positions: positions whose full-vocabulary logits are computed."""
    attn = 2 * cfg.n_heads * cfg.head_dim * key_slots  # scores q.k and mixing w.v
    return cfg.n_layers * (tokens * layer_macs_per_token(cfg) + attn) + head_positions * (cfg.embed_dim or cfg.d_model) * cfg.vocab_size


def train_macs(cfg, tokens:int, key_slots:int, head_positions:int)->int:
    "Forward plus the backward pass to the inputs only (frozen weights: no weight gradients), about twice the forward."
    return 2 * forward_macs(cfg, tokens, key_slots, head_positions)


def summary(ours:int, peer:int, speedup:float)->dict:
    "The work ratio (peer / ours), and the efficiency ratio that the measured speed-up implies (speed-up / work ratio)."
    ratio = peer / ours
    return dict(macs_spbias=int(ours), macs_peer=int(peer), work_ratio_peer_over_spbias=ratio,
                efficiency_spbias_over_peer=speedup / ratio)
