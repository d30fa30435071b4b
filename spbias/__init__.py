"""Measure social bias in large language models by soft-prompt tuning, in JAX/Flax.

One notebook per module in `nbs/`, exported to `spbias/`, in the order the data flows (the stage map of the design page, `nbs/01a_design.ipynb`):
a model name becomes a model, a tuning set becomes a run folder, a run folder and a bias set become
predictions, predictions become gap tables, gap tables become figures. The design page,
`nbs/01a_design.ipynb`, states the stages, the artefacts each one writes and reads, and the contracts
between them. The package docstring (`help(spbias)`) holds the same list, written from this section by
`scripts/readme.py`.

- `core` (00): paths, errors, atomic files and small parsers every stage shares.
- `schemas` (00a): shared helpers of the declared formats — pandera rules that carry their message, CSV/TSV line checks, one line per first violation.
- `config` (01): `ModelConfig`, one frozen description of a decoder.
- `layers` (02): norms, rotary embeddings, masks, attention over a cached soft-prompt prefix.
- `opt` (03): the OPT family's decoder.
- `decoder` (04): the one rotary decoder of every other family, its differences named options.
- `models` (05): `build_model` (config in, Flax NNX decoder out) and the shardings over a device mesh.
- `weights` (06): weight files (safetensors, torch `.bin`, GGUF) read and streamed into a model, every mismatch in one error.
- `fingerprint` (06a): one fingerprint of a model's weights (sha1 of the config and a strided sample of every parameter): what a run records, `spbias info` prints, `predict` and `export` check.
- `pretrained` (06b): load model — a name (`smollm2`, folder, `.gguf`, hub id) to `(model, tokenizer, ModelConfig)`; label-token ids; `spbias info`, `spbias next-token`.
- `testing` (07): tiny random checkpoints and a tiny tokenizer for fast tests; `spbias parity`.
- `families` (08): the family table, each `model_type`'s config mapping and checkpoint key map.
- `distributed` (09): several processes, one JAX program.
- `data` (10): load tuning data — sentiment sets as one 3-class table, length-bucketed batches.
- `prompt` (11): the soft prompt, its initial embeddings and the label scores behind it.
- `run` (11b): a run folder's life — its identity (`run_id`), the refuse / resume / `--force` rules, checkpoints, the finish, reading it back.
- `run_files` (11ba): a run folder's config.json and summary.json as pydantic models.
- `settings` (11c): `TuneConfig`, each setting of a run written once (type, default, help), and the flags and checks derived from it.
- `tune` (12): tune — `TuneConfig`, many seeds per compiled step, early stopping, the loop and `spbias tune`.
- `tune_loop` (12a): the loop's parts — prompt folders of a run of several rates, masked or compacted stopped prompts, the step timer, the plan line.
- `predict` (13): predict — a run folder and a bias set to the predictions TSV.
- `plan` (14): will a tuning step fit on a device mesh, from XLA's memory analysis.
- `export` (15): export prompts — PEFT prompt-tuning adapters out and back in.
- `checks` (16): the generic rules every command applies before a model loads or a file is written (outputs and `--force`, input files, tables, argument types).
- `templates` (20): generate bias set — Czarnowska et al.'s and our templates and lexicons to a bias set; reading and checking bias sets, the unmarked control, bias sets by name.
- `template_files` (20a): any template file filled from any lexicon, the follow-up's NS-Prompts and Regard sets, and `spbias templates`.
- `apes` (21): Yes/No stereotype statements from APES templates.
- `prediction_format` (22): the predictions table's columns and its `PREDICTIONS` schema, declared once.
- `predictions` (22): predictions tables read and checked (files, `.tsv.gz`, folders, patterns), rates per run and group, the per-run gaps, the top-k prompts.
- `intervals` (22a): intervals and p-values across prompts, families of tests and their adjustment, mirror-image pairs.
- `bootstrap` (22b): the two-level bootstrap over prompts and templates, for centroid gaps and for gaps to a reference group.
- `metrics` (22c): gaps — the gap table CSV with 95% CIs, its method note and coverage warning; the papers' Table 2; `spbias gaps` and `spbias table2`.
- `coverage` (22c0): the coverage benchmark read back: the warning under a gap table for every model and tuning set whose n measured below 93%, and `spbias gaps --help`'s advice.
- `gap_format` (22c1): the gap table and per-run gaps files — their pandera schemas (`GAP_TABLE`, `PER_RUN_GAPS`) and readers (`read_gaps`, `check_gap_table`, `read_per_run`); `spbias.metrics` re-exports them.
- `crossed` (22d): prompts, templates and identity terms as crossed random effects — each sentence's identity term from its template's fillings, variance components by the method of moments (checked against statsmodels), the `crossed` interval (`spbias gaps`' default) and a design's SE.
- `multiplicity` (22e): declared families — confirmatory Holm in the Table 2 cells, exploratory Benjamini–Yekutieli.
- `simulate` (22e): crossed prompt × template × term designs with known truth and every interval method of `spbias gaps` vectorised over replicates: the coverage benchmark's engine.
- `equivalence` (22f): TOST at a stated margin (t form, or the bootstrap's 90% interval).
- `power` (22f): power and minimum detectable effect of a crossed design (the `mde` column of every gap table) and `spbias power`: the prompts, templates and terms needed to detect a gap, from a pilot.
- `contrasts` (22g): the follow-up's contrasts — each group against the mean of the others, each row's estimand named.
- `selection` (22h): what the top-k choice does to each gap; the validation SE at the cut.
- `claims` (22i): the `spbias gaps` flags `--confirmatory`, `--margin`, `--contrasts`, `--selection`.
- `compare` (23): compare — two sets of prompts on the same bias set: the difference of their gaps (Welch's t, paired bootstrap over templates), McNemar per prompt pair.
- `compare_figure` (23a): compare's figure — each difference's interval at its adjustment's level (Holm step levels, FCR), so a filled marker and an interval clear of 0 agree.
- `robustness` (24): robustness — does each gap survive: sign across prompts, spread across prompts and templates, each interval method, other probes; group rank stability.
- `harness` (25): harness — lm-evaluation-harness and Inspect logs read into the predictions table; a mapping names category, group and template.
- `harness_bias` (25a): harness_bias — BBQ bias scores with template-clustered CIs and CrowS-Pairs model A vs B from lm-eval logs; `spbias harness`.
- `harness_tasks` (25b): harness_tasks — bias sets written as lm-eval and Inspect tasks (`spbias templates --format`).
- `probe` (30): APES Yes/No probing of a local or hosted model.
- `hosted` (31): next-token log-probabilities from an OpenAI-compatible endpoint.
- `manual` (32): the manual-prompt baseline, in the same predictions TSV.
- `sweep` (40): a SWEEP.yaml expanded into runs: the grid, the shards, the papermill executor and the parameters' checks.
- `store` (40a): a sweep's output root, a folder or an fsspec URL: manifests of finished runs, copies up and down.
- `stages` (40b): staged sweeps (the papers' learning-rate stage, then the main one) and `spbias sweep`'s command line.
- `sweep_run` (40c): one sweep's runs executed, resumed or refused by their run mark, uploaded when finished.
- `figures` (41): figures / tables — gap tables to the papers' figures and tables.
- `demo` (42): the whole pipeline offline on a small machine.
- `gpu_study` (44): the accelerator study's cost model (FLOPs, measured throughput, the plan within a budget) and its packs across lent machines.
- `study` (50): the first real study, read from its published results.
- `pages` (51): results pages from computed tables, refused when their text holds a number not computed.
- `cli` (99): the `spbias` console script, one subcommand per stage.
"""
__version__ = "0.1.0"
