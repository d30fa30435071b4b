"""Mutation checks: do the notebooks' tests fail on deliberate one-line faults?

Each mutant replaces one line of the exported package (spbias/*.py) by a plausible mistake and names
the notebook(s) whose tests must then fail. The script copies the repository (tracked and untracked,
not ignored files) into a temporary folder, runs each notebook there once unmutated (a baseline that
must pass), then for each mutant: applies it to the copy (the module and the notebook cell it is
exported from, since a notebook's tests run its own cells), runs `nbdev_test --path` on its notebooks in
the copy (stopping at the first that fails) with the copy first on PYTHONPATH, and restores the file.
The repository itself is never touched.

Mutants marked `old_missed=True` are faults the tests before issue 28 missed: for those the script also runs
the notebooks as committed at HEAD (`git show HEAD:nbs/...`, read only) on the same mutant, to record
that the old tests miss what the new ones catch.

Writes benchmarks/results/mutants.json: per mutant caught/missed, which notebook failed, seconds.

Run: python benchmarks/mutants.py [--only NAME ...] [--no-old] [--out FILE]
"""
from __future__ import annotations
import argparse, json, os, platform, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MUTANTS = [  # name, file, the exact text replaced (once), its replacement, notebooks that must fail, did the old tests miss it?
    dict(name="rms-f32-casts-first", file="spbias/models/layers.py",
         old='if self.kind == "rms": return self.scale[...] * y.astype(self.dtype)', new='if self.kind in ("rms", "rms_f32"): return self.scale[...] * y.astype(self.dtype)',
         notebooks=["406_families"], old_missed=True, why="OLMo 2's norm (rms_f32) casts to bf16 before scaling, LLaMA's order: differs in bfloat16 only"),
    dict(name="olmo2-mapping-norm-kind", file="spbias/models/families.py",
         old='norm="rms_f32", norm_placement="post", qk_norm="full")', new='norm="rms", norm_placement="post", qk_norm="full")',
         notebooks=["406_families"], why="the OLMo 2 mapping picks LLaMA's norm (caught by the real-config test before any parity)"),
    dict(name="gemma-1p-in-bf16", file="spbias/models/layers.py",
         old="        w = self.scale[...].astype(jnp.float32)\n", new="        w = self.scale[...]\n",
         notebooks=["406_families"], old_missed=True, why="Gemma's 1 + w computed in the weights' dtype: differs in bfloat16 only"),
    dict(name="mistral-tied-read-as-untied", file="spbias/models/families.py",
         old="return dict(kw, sliding_window=W, sliding_layers=tuple(range(",
         new="return dict(kw, tie_word_embeddings=False, sliding_window=W, sliding_layers=tuple(range(",
         notebooks=["406_families"], old_missed=True, why="Mistral/Phi-3 mapping ignores tie_word_embeddings"),
    dict(name="opt-untied-read-as-tied", file="spbias/models/families.py",
         old='tie_word_embeddings=d.get("tie_word_embeddings", True), do_layer_norm_before',
         new='tie_word_embeddings=True, do_layer_norm_before', notebooks=["406_families"], old_missed=True,
         why="OPT mapping always ties the head (an untied lm_head.weight is then silently ignored)"),
    dict(name="next-token-temperature", file="spbias/models/pretrained.py",
         old="p = np.asarray(jax.nn.softmax(logits.astype(jnp.float32)))", new="p = np.asarray(jax.nn.softmax(logits.astype(jnp.float32) / 2))",
         notebooks=["406_families"], old_missed=True, why="next-token probabilities of a softened softmax: same order, wrong values"),
    dict(name="rotary-half-swapped", file="spbias/models/layers.py",
         old="rot = jnp.concatenate([-x2, x1], -1)", new="rot = jnp.concatenate([x2, -x1], -1)",
         notebooks=["406_families"], why="rotate-half with its halves swapped (rotation by -θ)"),
    dict(name="sliding-window-off-by-one", file="spbias/models/layers.py",
         old="text = lay.allowed & (q_pos - (P + lay.pos)[:, None, :] < window)", new="text = lay.allowed & (q_pos - (P + lay.pos)[:, None, :] <= window)",
         notebooks=["406_families"], why="a window of W + 1 keys"),
    dict(name="layernorm-bias-missing", file="spbias/models/layers.py",
         old="if self.affine: y = y * self.scale[...].astype(jnp.float32) + self.bias[...].astype(jnp.float32)",
         new="if self.affine: y = y * self.scale[...].astype(jnp.float32)", notebooks=["406_families"],
         why="LayerNorm without its bias (GPT-NeoX, OPT)"),
    dict(name="olmo2-qk-norm-per-head", file="spbias/models/families.py",
         old='norm="rms_f32", norm_placement="post", qk_norm="full")', new='norm="rms_f32", norm_placement="post", qk_norm="head")',
         notebooks=["406_families"], why="OLMo 2's q/k norm over each head instead of the whole projection"),
    dict(name="t-quantile-is-1.96", file="spbias/stats/intervals.py",
         old="crit, p = stats.t.ppf(1 - ALPHA / 2, df), 2 * stats.t.sf(np.abs(z), df)", new="crit, p = 1.96, 2 * stats.t.sf(np.abs(z), df)",
         notebooks=["200_intervals"], why="the default Student t interval uses the normal quantile"),
    dict(name="top-k-by-run-name", file="spbias/formats/predictions.py",
         old='r = r[r.finite].sort_values(["model", "dataset", "score", "run"], ascending=[True, True, False, True])',
         new='r = r[r.finite].sort_values(["model", "dataset", "run", "score"], ascending=[True, True, True, False])',
         notebooks=["101_predictions"], why="top-k prompts chosen by the wrong column (run name, not validation accuracy)"),
    dict(name="centroid-median", file="spbias/formats/predictions.py",
         old='value.transform(centroid)', new='value.transform("median")',
         notebooks=["101_predictions"], why="gaps to the median of the groups when the mean is asked for"),
    dict(name="templates-adj-or-pp-drops-pp", file="spbias/biassets/templates.py",
         old='if form == "adj_or_pp": return [term] if pos in ("adj", "pp") else []', new='if form == "adj_or_pp": return [term] if pos == "adj" else []',
         notebooks=["300_templates"], why="a {x_adj_or_pp} slot loses the postpositive terms (one disability template)"),
    dict(name="apes-predict-not-dispatched", file="spbias/biassets/apes.py",
         old='if argv and argv[0] in ("predict", "report"):', new='if argv and argv[0] in ("report",):',
         notebooks=["303_apes"], old_missed=True, why="`spbias apes predict` no longer reaches spbias.scoring.probe (the old test sat behind a condition never true)"),
]


def copy_repo(dst:Path)->Path:
    "Copy the repository's tracked and untracked, not ignored files to `dst` (read-only git)."
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for f in filter(None, files):
        src = ROOT/f
        if src.is_file():
            (dst/f).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(src, dst/f)
    return dst


def mutate_notebook(p:Path, m:dict)->int:
    "Apply mutant `m` to the cells of notebook `p` that hold its line; the number of replacements."
    nb, n = json.loads(p.read_text()), 0
    for c in nb["cells"]:
        src = "".join(c["source"])
        if m["old"] in src:
            n += src.count(m["old"]); c["source"] = src.replace(m["old"], m["new"]).splitlines(keepends=True)
    if n: p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return n


def apply_mutant(repo:Path, m:dict)->dict:
    "Apply `m` to its module and to the notebook cell it is exported from; {path: original text} to restore."
    f = repo/m["file"]; text = f.read_text()
    assert text.count(m["old"]) == 1, f"{m['name']}: the text to replace occurs {text.count(m['old'])} times in {m['file']}"
    saved = {f: text}; f.write_text(text.replace(m["old"], m["new"]))
    for p in sorted((repo/"nbs").glob("*.ipynb")):
        t = p.read_text()
        if mutate_notebook(p, m): saved[p] = t
    assert len(saved) > 1, f"{m['name']}: no notebook holds the mutated line"
    return saved


def run_notebooks(repo:Path, notebooks:list[str], env:dict, timeout:int)->tuple[str|None, float, str]:
    "Run each notebook's tests in `repo`; (the first that failed or None, seconds, the failure's last lines)."
    t0 = time.perf_counter()
    nbdev_test = str(Path(sys.executable).with_name("nbdev_test"))
    for nb in notebooks:
        try:
            r = subprocess.run([nbdev_test, "--path", f"nbs/{nb}.ipynb", "--n_workers", "1"], cwd=repo, env=env,
                               capture_output=True, text=True, timeout=timeout)
            failed, tail = r.returncode != 0, (r.stdout + r.stderr)[-600:]
        except subprocess.TimeoutExpired: failed, tail = True, f"timed out after {timeout} s"
        if failed: return nb, time.perf_counter() - t0, tail
    return None, time.perf_counter() - t0, ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", help="run only these mutants (names)")
    ap.add_argument("--no-old", action="store_true", help="skip the runs of the old (HEAD) notebooks")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per notebook run")
    ap.add_argument("--skip-baseline", action="store_true", help="do not run the unmutated notebooks first (debugging only)")
    ap.add_argument("--out", type=Path, default=ROOT/"benchmarks"/"results"/"mutants.json")
    a = ap.parse_args(argv)
    mutants = [m for m in MUTANTS if not a.only or m["name"] in a.only]
    tmp = Path(tempfile.mkdtemp(prefix="spbias-mutants-"))
    repo = copy_repo(tmp/"repo")
    env = dict(os.environ, PYTHONPATH=str(repo) + os.pathsep + os.environ.get("PYTHONPATH", ""), XLA_PYTHON_CLIENT_PREALLOCATE="false")
    shared = ROOT.parent/"shared"/"data"  # the copy has no ../shared beside it: point its data tests at this checkout's
    if "SPBIAS_SHARED_DATA" not in env and shared.is_dir(): env["SPBIAS_SHARED_DATA"] = str(shared)
    where = subprocess.run([sys.executable, "-c", "import spbias; print(spbias.__file__)"], cwd=repo, env=env, capture_output=True, text=True).stdout.strip()
    assert where.startswith(str(repo)), f"the copy's spbias is not the one imported: {where}"
    out = dict(python=platform.python_version(), machine=platform.machine(), copy=str(repo), baseline={}, mutants=[])
    notebooks = sorted({nb for m in mutants for nb in m["notebooks"]})
    for nb in ([] if a.skip_baseline else notebooks):  # the unmutated copy must pass, or a failure below means nothing
        failed, secs, tail = run_notebooks(repo, [nb], env, a.timeout)
        out["baseline"][nb] = dict(passed=failed is None, seconds=round(secs, 1), **({"tail": tail} if failed else {}))
        print(f"baseline {nb}: {'pass' if failed is None else 'FAIL'} ({secs:.0f} s)", flush=True)
    for m in mutants:
        saved = apply_mutant(repo, m)
        try:
            failed, secs, tail = run_notebooks(repo, m["notebooks"], env, a.timeout)
            row = dict(name=m["name"], file=m["file"], why=m["why"], notebooks=m["notebooks"], caught=failed is not None,
                       failed_in=failed, seconds=round(secs, 1), replaced=m["old"], by=m["new"], mutated=sorted(str(p.relative_to(repo)) for p in saved),
                       failure=tail[-400:])
            if m.get("old_missed") and not a.no_old:  # the same mutant against the notebooks as committed before issue 28
                for nb in m["notebooks"]:
                    p = repo/"nbs"/f"{nb}.ipynb"
                    saved.setdefault(p, p.read_text())
                    p.write_text(subprocess.run(["git", "show", f"HEAD:nbs/{nb}.ipynb"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
                    mutate_notebook(p, m)  # where the mutated line is this notebook's own code
                ofailed, osecs, otail = run_notebooks(repo, m["notebooks"], env, a.timeout)
                row["old_tests"] = dict(caught=ofailed is not None, seconds=round(osecs, 1), failure=otail[-400:])
        finally:
            for p, t in saved.items(): p.write_text(t)
        out["mutants"].append(row)
        print(f"{m['name']:30s} {'caught' if row['caught'] else 'MISSED'} in {failed} ({secs:.0f} s)"
              + (f"; old tests: {'caught' if row['old_tests']['caught'] else 'missed'}" if "old_tests" in row else ""), flush=True)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(out, indent=1) + "\n")  # after each mutant: a partial run still leaves its results
    shutil.rmtree(tmp, ignore_errors=True)
    missed = [r["name"] for r in out["mutants"] if not r["caught"]]
    print(f"{len(out['mutants']) - len(missed)} of {len(out['mutants'])} mutants caught" + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 1 if missed or not all(b["passed"] for b in out["baseline"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
