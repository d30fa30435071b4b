"""Bad-input audit of every `spbias` command: each case of `audit_cases.CASES` through the real console script.

    nohup nice -n 10 python benchmarks/audit.py [--rerun] [--only GLOB] [--workers 2] > /tmp/audit.log 2>&1 &

Each case gets its own temporary folder built from shared fixtures (a tiny random LLaMA from `spbias.testing`, a
4-step run of 2 seeds tuned on it, predictions, a gap table, an adapter, APES examples and answers), the files it
corrupts, its argv and a timeout. The outcome is decided by these rules, in this order:

- `hang`: the timeout passed (the process group is killed).
- `changed`: a file that existed before the case ran was modified or deleted (sha256 before/after) where the case
  expects a refusal, or a file the case names in `keep` changed.
- `fallback`: stderr holds "(a bug" (the CLI's catch-all).   `traceback`: stderr holds "Traceback".
- expected `clean` (a refusal): exit 0 is `accepted`; a refusal after the model was built (a marker file that a
  `sitecustomize` hook writes when `spbias.models.weights` builds a model) or after `LATE_S` seconds is `late`; exit 2 with
  exactly one stderr line (progress bars left out) that starts with 'spbias', holds 'error:' and 'Fix:' is `clean`;
  any other refusal is `messy`.
- expected `ok` (the input is fine, or the command's contract is to go on): exit 0 (or 141, a closed pipe) is `ok`,
  anything else `refused`.
- expected `warn` (going on is right if the user is told): a clean refusal is `clean`; exit 0 with a stderr line that
  starts with 'spbias' and holds 'warning' is `warned`; exit 0 without one is `accepted`.
- expected `problem` (doctor): a non-zero exit that names the problem is `clean`; exit 0 is `accepted`.
- expected `either` (both are right: a UTF-8 byte-order mark may be read or refused): exit 0 is `ok`, else as `clean`.

Writes benchmarks/results/audit.json (one record per case; resumable: cases already there are skipped unless
--rerun) and prints a summary table. `--before OLD.json` prints the outcome counts of OLD.json and --out side by side
over the cases both hold, and each case whose outcome changed (nothing is run).
"""
from __future__ import annotations
import argparse, concurrent.futures as cf, fnmatch, gzip, hashlib, json, os, re, shutil, signal, subprocess, sys
import tempfile, threading, time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/"benchmarks"))
RESULTS = ROOT/"benchmarks"/"results"/"audit.json"
LATE_S = 60.0  # a refusal of a command that builds no model, after this long, is late (plan compiling)
SPBIAS = shutil.which("spbias") or "spbias"

HOOK = '''import os, sys
_marker = os.environ.get("SPBIAS_AUDIT_MARKER")
if _marker:
    import importlib.machinery
    class _BuiltHook:
        "Wrap spbias.models.weights' model builders so that a model build leaves a marker file."
        def find_spec(self, name, path=None, target=None):
            if name != "spbias.models.weights": return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            run = spec.loader.exec_module
            def exec_module(module):
                run(module)
                for fn in ("model_from_shards", "model_from_tensors"):
                    f = getattr(module, fn)
                    def built(*a, _f=f, _n=fn, **k):
                        with open(_marker, "a") as fh: fh.write(_n + "\\n")
                        return _f(*a, **k)
                    setattr(module, fn, built)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, _BuiltHook())
'''


def sh(*argv, cwd=None):
    "Run spbias (or another program) for a fixture; fail loudly."
    r = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True)
    if r.returncode: raise RuntimeError(f"fixture step failed: {argv}\n{r.stderr[-2000:]}")
    return r


def build_fixtures(fx:Path)->Path:
    "The shared inputs every case copies from (built once; `fx/DONE` marks them complete)."
    if (fx/"DONE").exists(): return fx
    import pandas as pd
    from spbias.testing import tiny_checkpoint
    fx.mkdir(parents=True, exist_ok=True)
    tiny_checkpoint(fx/"model", arch="llama", seed=0, max_position_embeddings=512)
    shutil.copytree(ROOT/"data"/"demo", fx/"data", dirs_exist_ok=True)
    for f in (fx/"data").glob("*.md"): f.unlink()
    sh(SPBIAS, "templates", "ours", "--attributes", "age,gender", "--out", fx/"all.tsv")
    t = pd.read_csv(fx/"all.tsv", sep="\t")
    t.groupby(["category", "group", "label"]).head(2).to_csv(fx/"bias.tsv", sep="\t", index=False)
    tune = [SPBIAS, "tune", "--model", fx/"model", "--data-dir", fx/"data", "--max-steps", "4", "--eval-every", "2",
            "--min-steps", "0", "--batch-size", "8"]
    sh(*tune, "--seeds", "1,2", "--out", fx/"run")
    sh(*tune, "--seeds", "3,4", "--out", fx/"run2")
    sh(SPBIAS, "predict", "--run", fx/"run", "--testset", fx/"bias.tsv", "--out", fx/"preds.tsv")
    sh(SPBIAS, "predict", "--run", fx/"run2", "--testset", fx/"bias.tsv", "--out", fx/"preds2.tsv")
    p = pd.read_csv(fx/"preds.tsv", sep="\t")
    p.to_csv(fx/"preds.tsv.gz", sep="\t", index=False); p.to_parquet(fx/"preds.parquet")
    (fx/"predsdir").mkdir(exist_ok=True); p.to_csv(fx/"predsdir"/"a.tsv.gz", sep="\t", index=False)
    sh(SPBIAS, "gaps", fx/"preds.tsv", "--top-k", "0", "--out", fx/"gaps.csv")
    sh(SPBIAS, "export", "--run", fx/"run", "--seed", "1", "--out", fx/"adapter")
    sh(SPBIAS, "apes", "generate", "--templates", ROOT/"data"/"apes"/"templates.csv", "--domains",
       ROOT/"data"/"apes"/"domains", "--out", fx/"apes_all.csv")
    a = pd.read_csv(fx/"apes_all.csv"); a.head(16).to_csv(fx/"apes.csv", index=False)
    shutil.copy(ROOT/"data"/"apes"/"templates.csv", fx/"apes_templates.csv")
    shutil.copytree(ROOT/"data"/"apes"/"domains", fx/"apes_domains", dirs_exist_ok=True)
    sh(SPBIAS, "apes", "predict", "--model", fx/"model", "--examples", fx/"apes.csv", "--out", fx/"apes_preds.csv")
    (fx/"tpl.csv").write_text("TEMPLATE,DOMAIN,SENT,NER\nI met the {identity_adj} person today.,ev,2,person\n"
                              "The {identity_adj} man ruined the party.,ev,0,person\nThe {identity_adj} one walked in.,ev,1,person\n")
    (fx/"terms.csv").write_text("group,term\nyoung,young person\nold,old person\nadult,adult\n")
    (fx/"select.json").write_text(json.dumps({"grouped_age": ["young", "old"]}))
    shutil.copy(ROOT/"sweeps"/"demo.yaml", fx/"sweep.yaml")
    shutil.copytree(ROOT/"data"/"templates", fx/"templates_src", dirs_exist_ok=True)
    (fx/"DONE").write_text("ok\n")
    return fx


# file changes a case asks for: (op, path relative to the case folder, *args)
OPS = ("copy", "write", "rm", "mkdir", "empty", "truncate", "head", "bom", "latin1", "gzip_truncate", "dup", "cell",
       "dropcol", "json", "npz", "safetensors", "replace", "symlink", "hardlink", "fifo")
def _table_rows(text:str)->list[str]: return text.splitlines(keepends=True)

def apply(op:tuple, t:Path, fx:Path):
    "Carry out one setup step of a case in its folder `t`."
    kind, rel, *args = op
    p = t/rel
    if kind == "copy":  # ("copy", dst, fixture-relative source)
        src = fx/args[0]
        p.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(src, p, symlinks=True) if src.is_dir() else shutil.copy(src, p)
    elif kind == "write": p.parent.mkdir(parents=True, exist_ok=True); p.write_text(args[0])
    elif kind == "rm": shutil.rmtree(p) if p.is_dir() else p.unlink()
    elif kind == "mkdir": p.mkdir(parents=True, exist_ok=True)
    elif kind == "empty": p.write_bytes(b"")
    elif kind == "truncate":  # keep this share of the bytes (cuts mid-row, mid-header, mid-tensor)
        b = p.read_bytes(); p.write_bytes(b[:max(1, int(len(b) * args[0]))])
    elif kind == "head":  # keep the first n lines (1: the header alone)
        p.write_text("".join(_table_rows(p.read_text())[:args[0]]))
    elif kind == "bom": p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    elif kind == "latin1":  # one accented word, written in Latin-1
        lines = _table_rows(p.read_text())
        lines[1] = lines[1].replace(args[0] if args else "e", "é", 1) if len(lines) > 1 else lines[1]
        p.write_bytes("".join(lines).encode("latin-1", errors="replace"))
    elif kind == "gzip_truncate":
        b = p.read_bytes(); p.write_bytes(b[:len(b) // 2])
    elif kind == "dup":  # the data rows twice
        lines = _table_rows(p.read_text()); p.write_text("".join(lines + lines[1:]))
    elif kind == "cell":  # ("cell", file, column, value, row index or None for every row); csv/tsv by suffix
        import pandas as pd
        col, val, row = args
        sep = "\t" if ".tsv" in p.name else ","
        d = pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False)
        if row is None: d[col] = val
        else: d.loc[d.index[row], col] = val
        d.to_csv(p, sep=sep, index=False)
    elif kind == "dropcol":
        import pandas as pd
        sep = "\t" if ".tsv" in p.name else ","
        pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False).drop(columns=args[0]).to_csv(p, sep=sep, index=False)
    elif kind == "json":  # ("json", file, dotted key, value): set a key (None value: delete it)
        d = json.loads(p.read_text()); keys = args[0].split("."); cur = d
        for k in keys[:-1]: cur = cur[k]
        if args[1] is None: cur.pop(keys[-1])
        else: cur[keys[-1]] = args[1]
        p.write_text(json.dumps(d))
    elif kind == "npz":  # ("npz", file, "nan" | "wide"): a NaN or a wrong-width prompt
        import numpy as np
        z = dict(np.load(p))
        for k, v in z.items():
            if v.dtype.kind == "f":
                z[k] = np.full_like(v, np.nan) if args[0] == "nan" else np.concatenate([v, v], axis=-1)
        np.savez(p, **z)
    elif kind == "safetensors":  # ("safetensors", file, "nan" | "wide")
        import numpy as np
        from safetensors.numpy import load_file, save_file
        z = load_file(p)
        z = {k: (np.full_like(v, np.nan) if args[0] == "nan" else np.concatenate([v, v], axis=-1)) for k, v in z.items()}
        save_file(z, p)
    elif kind == "replace": p.write_text(p.read_text().replace(args[0], args[1]))
    elif kind == "symlink": p.parent.mkdir(parents=True, exist_ok=True); p.symlink_to(t/args[0])   # ("symlink", link, target)
    elif kind == "hardlink": p.parent.mkdir(parents=True, exist_ok=True); os.link(t/args[0], p)
    elif kind == "fifo": p.parent.mkdir(parents=True, exist_ok=True); os.mkfifo(p)   # a named pipe no one writes
    else: raise ValueError(f"unknown setup step {kind!r}")


def snapshot(t:Path)->dict:
    "sha256 of every file under `t`."
    return {str(f.relative_to(t)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(t.rglob("*")) if f.is_file() and f.name != ".model_built"}


def message_lines(err:str)->list[str]:
    "stderr's lines without progress bars and blank lines."
    lines = [l.split("\r")[-1].strip() for l in err.splitlines()]
    return [l for l in lines if l and not re.search(r"\d+%\|", l) and not re.search(r"\| *\d+/\d+ \[", l)]


def classify(case:dict, rc:int|None, err:str, secs:float, built:bool, before:dict, after:dict)->str:
    "The outcome class of one run (rules in this module's docstring)."
    exp = case["expected"]
    if rc is None: return "hang"
    gone = [k for k, h in before.items() if after.get(k) != h]
    if exp in ("clean", "problem") and gone: return "changed"
    if any(fnmatch.fnmatch(k, g) for k in gone for g in case.get("keep", ())): return "changed"
    if "(a bug" in err: return "fallback"
    if "Traceback" in err: return "traceback"
    lines = message_lines(err)
    one = (len(lines) == 1 and lines[0].startswith("spbias") and "error:" in lines[0] and "Fix:" in lines[0])
    if exp == "ok": return "ok" if rc in (0, 141) else "refused"
    if exp == "problem": return "accepted" if rc == 0 else "clean"
    if exp == "either" and rc == 0: return "ok"
    if rc == 0:
        if exp == "warn" and any(l.startswith("spbias") and "warning" in l for l in lines): return "warned"
        return "accepted"
    if built or (secs > LATE_S and not case.get("slow_ok")): return "late"
    return "clean" if rc == 2 and one else "messy"


def run_case(case:dict, fx:Path, hook:Path, work:Path)->dict:
    "Build the case's folder, run it, classify it; its record."
    t = Path(tempfile.mkdtemp(prefix=case["id"].replace("/", "_") + "-", dir=work))
    for op in case.get("setup", ()): apply(op, t, fx)
    argv = [a.format(t=t, fx=fx, root=ROOT) for a in case["argv"]]
    before = snapshot(t)
    marker = t/".model_built"
    env = {**os.environ, "PYTHONPATH": f"{hook}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "SPBIAS_AUDIT_MARKER": str(marker), **{k: v.format(t=t, fx=fx) for k, v in case.get("env", {}).items()}}
    cmd = ["nice", "-n", "10", SPBIAS, *argv]
    if case.get("head"):  # the reader goes away after n lines: `spbias ... | head -n N`
        import shlex
        cmd = ["bash", "-c", f"{shlex.join(cmd)} | head -n {case['head']} >/dev/null; exit ${{PIPESTATUS[0]}}"]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=t, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try: out, err = p.communicate(timeout=case.get("timeout", 120)); rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL); out, err = p.communicate(); rc = None
    secs = time.perf_counter() - t0
    after = snapshot(t)
    outcome = classify(case, rc, err, secs, marker.exists(), before, after)
    lines = message_lines(err)
    rec = dict(id=case["id"], command=case["command"], argv=" ".join(case["argv"])[:300], expected=case["expected"],
               outcome=outcome, exit_code=rc, stderr_first=(lines[0] if lines else "")[:400],
               stderr_lines=len(lines), model_built=marker.exists(), seconds=round(secs, 1))
    if outcome in ("clean", "ok", "warned"): shutil.rmtree(t, ignore_errors=True)
    else: rec["folder"] = str(t)
    return rec


def summary(records:list[dict])->str:
    "Outcome counts per command, and the total."
    cmds = sorted({r["command"] for r in records})
    kinds = sorted({r["outcome"] for r in records})
    rows = [["command", "cases", *kinds]]
    for c in cmds + ["ALL"]:
        rs = [r for r in records if c in ("ALL", r["command"])]
        n = Counter(r["outcome"] for r in rs)
        rows.append([c, str(len(rs)), *[str(n.get(k, 0)) for k in kinds]])
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(x.rjust(w[i]) if i else x.ljust(w[i]) for i, x in enumerate(r)) for r in rows)


def compare(before:list[dict], after:list[dict])->str:
    "Outcome counts before and after over the cases both hold, and each case whose outcome changed."
    b, a = {r["id"]: r["outcome"] for r in before}, {r["id"]: r["outcome"] for r in after}
    ids = [k for k in a if k in b]
    kinds = sorted({b[k] for k in ids} | {a[k] for k in ids})
    rows = [f"{'outcome':<10}{'before':>8}{'after':>8}"]
    rows += [f"{k:<10}{sum(b[i] == k for i in ids):>8}{sum(a[i] == k for i in ids):>8}" for k in kinds]
    rows += [f"{'cases':<10}{len(ids):>8}{len(ids):>8}", ""]
    rows += [f"{b[i]:>9} -> {a[i]:<9} {i}" for i in ids if a[i] != b[i]]
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rerun", action="store_true", help="run cases already in the results file again")
    ap.add_argument("--only", default="*", help="run only case ids matching these fnmatch patterns (comma-separated)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fixtures", default=os.path.join(tempfile.gettempdir(), "spbias-audit-fixtures"))
    ap.add_argument("--out", default=str(RESULTS))
    ap.add_argument("--before", help="an earlier results file: print the outcomes before and after (--out) and stop")
    a = ap.parse_args(argv)
    if a.before:
        print(compare(json.loads(Path(a.before).read_text()), json.loads(Path(a.out).read_text()))); return
    from audit_cases import CASES
    out = Path(a.out)
    done = {r["id"]: r for r in json.loads(out.read_text())} if out.exists() else {}
    pats = a.only.split(",")
    todo = [c for c in CASES if any(fnmatch.fnmatch(c["id"], q) for q in pats) and (a.rerun or c["id"] not in done)]
    print(f"{len(CASES)} cases, {len(todo)} to run", flush=True)
    fx = build_fixtures(Path(a.fixtures))
    hook = fx/"hook"; hook.mkdir(exist_ok=True); (hook/"sitecustomize.py").write_text(HOOK)
    work = Path(tempfile.mkdtemp(prefix="spbias-audit-"))
    lock = threading.Lock()
    def save():
        known = {c["id"] for c in CASES}
        recs = [done[c["id"]] for c in CASES if c["id"] in done] + [r for k, r in done.items() if k not in known]
        tmp = out.with_suffix(".tmp"); tmp.write_text(json.dumps(recs, indent=1)); tmp.replace(out)
    from tqdm import tqdm
    with cf.ThreadPoolExecutor(a.workers) as ex, tqdm(total=len(todo), desc="audit") as bar:
        futs = {ex.submit(run_case, c, fx, hook, work): c for c in todo}
        for f in cf.as_completed(futs):
            c = futs[f]
            try: r = f.result()
            except Exception as e: r = dict(id=c["id"], command=c["command"], argv=" ".join(c["argv"])[:300],
                                            expected=c["expected"], outcome="audit-error", exit_code=None,
                                            stderr_first=f"{type(e).__name__}: {e}"[:400], seconds=0)
            with lock:
                done[r["id"]] = r; save()
            bar.update(); bar.set_postfix_str(f"{r['id']}: {r['outcome']}")
    recs = [done[c["id"]] for c in CASES if c["id"] in done]
    print(summary(recs))
    bad = [r for r in recs if r["outcome"] not in ("clean", "ok", "warned")]
    for r in bad: print(f"{r['outcome']:>9}  {r['id']}: {r['stderr_first'][:200]}")


if __name__ == "__main__": main()
