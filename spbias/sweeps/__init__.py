"""Many runs: papermill sweeps (sharded, resumable, staged), the accelerator study's plan, the offline demo.

- `sweeps.store` (800): a sweep's output root, a folder or an fsspec URL: manifests of finished runs, copies up and down.
- `sweeps.sweep` (801): a SWEEP.yaml expanded into runs: the grid, the shards, the papermill executor and the parameters' checks.
- `sweeps.sweep_run` (802): one sweep's runs executed, resumed or refused by their run mark, uploaded when finished.
- `sweeps.stages` (803): staged sweeps (the papers' learning-rate stage, then the main one) and `spbias sweep`'s command line.
- `sweeps.gpu_study` (804): the accelerator study's cost model (FLOPs, measured throughput, the plan within a budget) and its packs across lent machines.
- `sweeps.demo` (805): the whole pipeline offline on a small machine.
"""
