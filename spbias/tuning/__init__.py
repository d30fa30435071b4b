"""Soft prompts tuned on a sentiment set: the data, the prompt, the run folder, many seeds and rates in one compiled step, and whether a step fits a mesh.

- `tuning.data` (500): load tuning data — sentiment sets as one 3-class table, length-bucketed batches.
- `tuning.prompt` (501): the soft prompt, its initial embeddings and the label scores behind it.
- `tuning.run_files` (502): a run folder's config.json and summary.json as pydantic models.
- `tuning.run` (503): a run folder's life — its identity (`run_id`), the refuse / resume / `--force` rules, checkpoints, the finish, reading it back.
- `tuning.settings` (504): `TuneConfig`, each setting of a run written once (type, default, help), and the flags and checks derived from it.
- `tuning.tune_loop` (505): the loop's parts — prompt folders of a run of several rates, masked or compacted stopped prompts, the step timer, the plan line. and the arithmetic of the matrix products (fp32, TF32, bf16) with each device's peak.
- `tuning.tune` (506): tune — `TuneConfig`, many seeds per compiled step, early stopping, the loop and `spbias tune`.
- `tuning.plan` (507): will a tuning step fit on a device mesh, from XLA's memory analysis.
"""
