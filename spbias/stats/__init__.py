"""Gaps and their inference: crossed intervals over prompts, templates and identity terms, declared families of tests, equivalence, power, the top-k selection, measured coverage.

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
"""
