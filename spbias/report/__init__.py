"""Gap tables to what a reader sees: the papers' figures and tables, two models or probes compared, robustness, harness bias scores, the results pages.

- `report.figures` (700): figures / tables — gap tables to the papers' figures and tables.
- `report.compare_figure` (701): compare's figure — each difference's interval at its adjustment's level (Holm step levels, FCR), so a filled marker and an interval clear of 0 agree.
- `report.compare` (702): compare — two sets of prompts on the same bias set: the difference of their gaps (Welch's t, paired bootstrap over templates), McNemar per prompt pair.
- `report.robustness` (703): robustness — does each gap survive: sign across prompts, spread across prompts and templates, each interval method, other probes; group rank stability.
- `report.harness_bias` (704): harness_bias — BBQ bias scores with template-clustered CIs and CrowS-Pairs model A vs B from lm-eval logs; `spbias harness`.
- `report.study` (705): the first real study, read from its published results.
- `report.pages` (706): results pages from computed tables, refused when their text holds a number not computed.
"""
