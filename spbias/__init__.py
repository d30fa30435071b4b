"""Measure social bias in large language models by soft-prompt tuning, in JAX/Flax.

One notebook per module in `nbs/`, exported to `spbias/`. The package is a house with eight wings,
subpackages named for what a researcher does, numbered from the bottom: a wing imports only the top-level helpers and
the wings numbered below it (`nbs/001_core.ipynb` tests it, imports inside functions and by name included), so a
change belongs to the lowest wing that can hold it. The three lowest wings need no JAX: they are the statistics layer
for anyone's predictions and harness logs.

### The top level (0xx): what every wing uses

- `core` (001): paths, errors, atomic files and small parsers every stage shares, and the three label words.
- `schemas` (002): shared helpers of the declared formats — pandera rules that carry their message, CSV/TSV line checks, one line per first violation.
- `checks` (003): the generic rules every command applies before a model loads or a file is written (outputs and `--force`, input files, tables, argument types).
- `args` (004): every subcommand's parser and help, a bad command line said in one line, warnings in one line.

### `formats` (1xx): the files a study reads and writes: predictions tables (spbias's, the papers', lm-eval and Inspect logs, read as one table) and gap tables, each format declared once.

- `formats.prediction_format` (100): the predictions table's columns and its `PREDICTIONS` schema, declared once.
- `formats.predictions` (101): predictions tables read and checked (files, `.tsv.gz`, folders, patterns), rates per run and group, the per-run gaps, the top-k prompts.
- `formats.harness` (102): harness — lm-evaluation-harness and Inspect logs read into the predictions table; a mapping names category, group and template.
- `formats.gap_format` (103): the gap table and per-run gaps files — their pandera schemas (`GAP_TABLE`, `PER_RUN_GAPS`) and readers (`read_gaps`, `check_gap_table`, `read_per_run`); `spbias.stats.metrics` re-exports them.
- `formats.inspect_logs` (104): Inspect eval logs opened and read as label classes: a run's status, answers as label words, letters mapped through the sample's choices, chat answers extracted or taken as the task's scorer decided, epochs.
- `formats.prediction_checks` (105): what one table read from several files must not mix: distinct runs of one model and tuning set (unless --pool-runs), a category or group spelt two ways.

### `stats` (2xx): gaps and their inference: crossed intervals over prompts, templates and identity terms, declared families of tests, equivalence, power, the top-k selection, measured coverage.

- `stats.intervals` (200): intervals and p-values across prompts, families of tests and their adjustment, mirror-image pairs.
- `stats.bootstrap` (201): the two-level bootstrap over prompts and templates, for centroid gaps and for gaps to a reference group.
- `stats.crossed` (202): prompts, templates and identity terms as crossed random effects — each sentence's identity term from its template's fillings, variance components by the method of moments (checked against statsmodels), the pooled gap's own SE with each group's own term variance and df that do not jump, the `crossed` interval (`spbias gaps`' default).
- `stats.multiplicity` (203): declared families — the confirmatory family from a committed family file (the papers' Table 2 claims and their directions; a post hoc preset named so), Holm, and each claim's verdict; exploratory Benjamini–Yekutieli; the family's place in git.
- `stats.equivalence` (204): TOST at a stated margin — absolute, relative to the comparator's rate or on the log-odds scale — adjusted as significance is (t form, or the bootstrap's 90% interval).
- `stats.power` (205): power and minimum detectable effect of a crossed design (the `mde` and `mde_family` columns of every gap table; not detectable where no gap in [−1, 1] is) and `spbias power`: the prompts, templates and terms needed to detect a gap from a pilot, and the floor each leaves.
- `stats.contrasts` (206): the follow-up's contrasts — each group against the mean of the others, each row's estimand named.
- `stats.selection` (207): the top-k procedure vs a random tuned prompt: each gap's shift and its test, its slope on validation accuracy, the paired validation SE at the cut.
- `stats.claims` (208): the `spbias gaps` flags `--confirmatory`, `--margin`, `--contrasts`, `--selection`.
- `stats.coverage` (209): the coverage benchmark read back: the warning under a gap table for every model and tuning set whose n measured below 93%, and `spbias gaps --help`'s advice.
- `stats.simulate` (210): crossed prompt × template × term designs with known truth and every interval method of `spbias gaps` vectorised over replicates: the coverage benchmark's engine.
- `stats.metrics` (211): gaps — the gap table CSV with 95% CIs, its method note and coverage warning; the papers' Table 2; `spbias gaps` and `spbias table2`.
- `stats.design` (212): a pilot's variance components turned into the SE and df of each gap under another design of prompts, templates and terms (what `spbias power` searches).

### `biassets` (3xx): bias sets from templates: Czarnowska et al.'s, the follow-up's, ours, any template file; APES statements; the same sets as lm-eval and Inspect tasks.

- `biassets.templates` (300): generate bias set — Czarnowska et al.'s and our templates and lexicons to a bias set; reading and checking bias sets, the unmarked control, bias sets by name.
- `biassets.harness_tasks` (301): harness_tasks — bias sets written as lm-eval and Inspect tasks (`spbias templates --format`). The hand-written prompt wordings (`WORDINGS`) a task is written with and the manual baseline scores.
- `biassets.template_files` (302): any template file filled from any lexicon, the follow-up's NS-Prompts and Regard sets, and `spbias templates`.
- `biassets.apes` (303): Yes/No stereotype statements from APES templates.
- `biassets.inspect_task` (304): spbias's Inspect task, each label word scored by its log-likelihood after the prompt (Inspect's `hf` provider); its source is the task file `spbias templates --format inspect` writes.

### `models` (4xx): a frozen decoder LM from a Hugging Face folder, a hub id or a GGUF file, as Flax NNX: the families, their weights, device meshes, several processes; or a hosted endpoint.

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

### `tuning` (5xx): soft prompts tuned on a sentiment set: the data, the prompt, the run folder, many seeds and rates in one compiled step, and whether a step fits a mesh.

- `tuning.data` (500): load tuning data — sentiment sets as one 3-class table, length-bucketed batches.
- `tuning.prompt` (501): the soft prompt, its initial embeddings and the label scores behind it.
- `tuning.run_files` (502): a run folder's config.json and summary.json as pydantic models.
- `tuning.run` (503): a run folder's life — its identity (`run_id`), the refuse / resume / `--force` rules, checkpoints, the finish, reading it back.
- `tuning.settings` (504): `TuneConfig`, each setting of a run written once (type, default, help), and the flags and checks derived from it.
- `tuning.tune_loop` (505): the loop's parts — prompt folders of a run of several rates, masked or compacted stopped prompts, the step timer, the plan line. and the arithmetic of the matrix products (fp32, TF32, bf16) with each device's peak.
- `tuning.tune` (506): tune — `TuneConfig`, many seeds per compiled step, early stopping, the loop and `spbias tune`.
- `tuning.plan` (507): will a tuning step fit on a device mesh, from XLA's memory analysis.

### `scoring` (6xx): prompts score a bias set into the predictions table: a run's soft prompts, hand-written prompts, APES probes; prompts out and back in as PEFT adapters.

- `scoring.predict` (600): predict — a run folder and a bias set to the predictions TSV.
- `scoring.export` (601): export prompts — PEFT prompt-tuning adapters out and back in.
- `scoring.probe` (602): APES Yes/No probing of a local or hosted model.
- `scoring.manual` (603): the manual-prompt baseline, in the same predictions TSV.

### `report` (7xx): gap tables to what a reader sees: the papers' figures and tables, two models or probes compared, robustness, harness bias scores, the results pages.

- `report.figures` (700): figures / tables — gap tables to the papers' figures and tables.
- `report.compare_figure` (701): compare's figure — each difference's interval at its adjustment's level (Holm step levels, FCR), so a filled marker and an interval clear of 0 agree.
- `report.compare` (702): compare — two sets of prompts on the same bias set: the difference of their gaps (Welch's t, paired bootstrap over templates), McNemar per prompt pair.
- `report.robustness` (703): robustness — does each gap survive: sign across prompts, spread across prompts and templates, each interval method, other probes; group rank stability.
- `report.harness_bias` (704): harness_bias — BBQ bias scores with template-clustered CIs and CrowS-Pairs model A vs B from lm-eval logs; `spbias harness`.
- `report.study` (705): the first real study, read from its published results.
- `report.pages` (706): results pages from computed tables, refused when their text holds a number not computed.

### `sweeps` (8xx): many runs: papermill sweeps (sharded, resumable, staged), the accelerator study's plan, the offline demo.

- `sweeps.store` (800): a sweep's output root, a folder or an fsspec URL: manifests of finished runs, copies up and down.
- `sweeps.sweep` (801): a SWEEP.yaml expanded into runs: the grid, the shards, the papermill executor and the parameters' checks.
- `sweeps.sweep_run` (802): one sweep's runs executed, resumed or refused by their run mark, uploaded when finished.
- `sweeps.stages` (803): staged sweeps (the papers' learning-rate stage, then the main one) and `spbias sweep`'s command line.
- `sweeps.gpu_study` (804): the accelerator study's cost model (FLOPs, measured throughput, the plan within a budget) and its packs across lent machines.
- `sweeps.demo` (805): the whole pipeline offline on a small machine.

### Above the wings (9xx): the entry points

- `cli` (900): the `spbias` console script, one subcommand per stage.
- `testing` (901): tiny random checkpoints and a tiny tokenizer for fast tests; `spbias parity`.

A notebook user types the common names from the top: `from spbias import load_model, tune, bias_set, predict_run,
load_predictions, gap_table` (the list is `spbias.NAMES`; each is imported when first used, so `import spbias` stays light).
"""
__version__ = "0.1.0"

import importlib as _importlib
NAMES = {'load_model': 'models.pretrained', 'load_sentiment': 'tuning.data', 'TuneConfig': 'tuning.tune', 'tune': 'tuning.tune', 'bias_set': 'biassets.templates', 'predict_run': 'scoring.predict', 'export_run': 'scoring.export', 'load_predictions': 'formats.predictions', 'read_gaps': 'formats.gap_format', 'gap_table': 'stats.metrics', 'table2': 'stats.metrics', 'crossed_summary': 'stats.crossed', 'compare_gaps': 'report.compare', 'robustness_table': 'report.robustness'}
WINGS = ['formats', 'stats', 'biassets', 'models', 'tuning', 'scoring', 'report', 'sweeps']

def __getattr__(name):  # PEP 562: a top-level name, or a wing, imported when first used
    if name in NAMES: return getattr(_importlib.import_module(f'spbias.{NAMES[name]}'), name)
    if name in WINGS: return _importlib.import_module(f'spbias.{name}')
    raise AttributeError(f'module spbias has no attribute {name!r}')

def __dir__(): return sorted([*globals(), *NAMES, *WINGS])
