"""Prompts score a bias set into the predictions table: a run's soft prompts, hand-written prompts, APES probes; prompts out and back in as PEFT adapters.

- `scoring.predict` (600): predict — a run folder and a bias set to the predictions TSV.
- `scoring.export` (601): export prompts — PEFT prompt-tuning adapters out and back in.
- `scoring.probe` (602): APES Yes/No probing of a local or hosted model.
- `scoring.manual` (603): the manual-prompt baseline, in the same predictions TSV.
"""
