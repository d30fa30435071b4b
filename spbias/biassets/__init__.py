"""Bias sets from templates: Czarnowska et al.'s, the follow-up's, ours, any template file; APES statements; the same sets as lm-eval and Inspect tasks.

- `biassets.templates` (300): generate bias set — Czarnowska et al.'s and our templates and lexicons to a bias set; reading and checking bias sets, the unmarked control, bias sets by name.
- `biassets.harness_tasks` (301): harness_tasks — bias sets written as lm-eval and Inspect tasks (`spbias templates --format`). The hand-written prompt wordings (`WORDINGS`) a task is written with and the manual baseline scores.
- `biassets.template_files` (302): any template file filled from any lexicon, the follow-up's NS-Prompts and Regard sets, and `spbias templates`.
- `biassets.apes` (303): Yes/No stereotype statements from APES templates.
- `biassets.inspect_task` (304): spbias's Inspect task, each label word scored by its log-likelihood after the prompt (Inspect's `hf` provider); its source is the task file `spbias templates --format inspect` writes.
"""
