"""The files a study reads and writes: predictions tables (spbias's, the papers', lm-eval and Inspect logs, read as one table) and gap tables, each format declared once.

- `formats.prediction_format` (100): the predictions table's columns and its `PREDICTIONS` schema, declared once.
- `formats.predictions` (101): predictions tables read and checked (files, `.tsv.gz`, folders, patterns), rates per run and group, the per-run gaps, the top-k prompts.
- `formats.harness` (102): harness — lm-evaluation-harness and Inspect logs read into the predictions table; a mapping names category, group and template.
- `formats.gap_format` (103): the gap table and per-run gaps files — their pandera schemas (`GAP_TABLE`, `PER_RUN_GAPS`) and readers (`read_gaps`, `check_gap_table`, `read_per_run`); `spbias.stats.metrics` re-exports them.
- `formats.inspect_logs` (104): Inspect eval logs opened and read as label classes: a run's status, answers as label words, letters mapped through the sample's choices, chat answers extracted or taken as the task's scorer decided, epochs.
- `formats.prediction_checks` (105): what one table read from several files must not mix: distinct runs of one model and tuning set (unless --pool-runs), a category or group spelt two ways.
"""
