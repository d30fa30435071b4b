"""A frozen decoder LM from a Hugging Face folder, a hub id or a GGUF file, as Flax NNX: the families, their weights, device meshes, several processes; or a hosted endpoint.

- `models.config` (400): `ModelConfig`, one frozen description of a decoder.
- `models.layers` (401): norms, rotary embeddings, masks, attention over a cached soft-prompt prefix.
- `models.opt` (402): the OPT family's decoder.
- `models.decoder` (403): the one rotary decoder of every other family, its differences named options.
- `models.build` (404): `build_model` (config in, Flax NNX decoder out) and the shardings over a device mesh.
- `models.distributed` (405): several processes, one JAX program.
- `models.families` (406): the family table, each `model_type`'s config mapping and checkpoint key map.
- `models.weights` (407): weight files (safetensors, torch `.bin`, GGUF) read and streamed into a model, every mismatch in one error.
- `models.fingerprint` (408): one fingerprint of a model's weights (sha1 of the config and a strided sample of every parameter): what a run records, `spbias info` prints, `predict` and `export` check.
- `models.pretrained` (409): load model — a name (`smollm2`, folder, `.gguf`, hub id) to `(model, tokenizer, ModelConfig)`; label-token ids; `spbias info`, `spbias next-token`.
- `models.hosted` (410): next-token log-probabilities from an OpenAI-compatible endpoint.
"""
