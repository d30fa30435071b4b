"""Seconds `spbias CMD --help` takes, for every command, and which heavy libraries it imports (issue 53: at most 0.3 s).

Each measurement is one fresh Python process that runs the console script's code (`spbias.cli.main`) with
`CMD --help`, timed from outside (interpreter start-up included, as a user waits for it). For every command (the keys
of the stored help, `spbias/cli_help.json`: `gaps`, `apes predict`, `harness read`, ...):

- stored: `spbias CMD --help` as installed: the help `scripts/readme.py` stored, printed without importing the command's
  module;
- live (with --live): the parser built by the command's own module (the stored file hidden), as before issue 53;
- heavy: which of jax, flax, torch, transformers, pandas, scipy the stored path left in `sys.modules` (one more
  process per command: the import list, not a timing).

The median of --runs runs per command and mode is reported, every run kept. Timings depend on the machine's load: the
load average (1, 5, 15 min) and the CPU count are recorded before and after; only numbers from an idle machine
(load below its CPU count) say what a user waits. This is a benchmark, not a test: nothing here fails on a time.
Results go to benchmarks/results/help_time.json (--out to write elsewhere).

    python benchmarks/help_time.py [--runs 7] [--live] [--out FILE]
"""
from __future__ import annotations
import argparse, json, os, platform, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT/"benchmarks"/"results"/"help_time.json"
HEAVY = ("jax", "flax", "torch", "transformers", "pandas", "scipy")
STORED = "import sys; from spbias.cli import main; sys.exit(main())"   # what the installed `spbias` script runs
LIVE = ("import sys, spbias.cli as c; from pathlib import Path; c.HELP_FILE = Path('no-stored-help.json'); "
        "sys.exit(c.main())")   # the same, the stored help hidden: each command builds its parser
IMPORTS = ("import sys, io, contextlib; from spbias.cli import main\n"
           "with contextlib.redirect_stdout(io.StringIO()): main(sys.argv[1:])\n"
           f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")


def once(code:str, argv:list[str])->float:
    "Wall seconds of one fresh process running `code` with `argv`; its exit code must be 0."
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    s = time.perf_counter() - t0
    if r.returncode or not r.stdout.startswith("usage: spbias"):
        raise SystemExit(f"spbias {' '.join(argv)} failed ({r.returncode}): {(r.stdout + r.stderr)[-2000:]}")
    return s


def heavy_imports(argv:list[str])->list[str]:
    "The heavy libraries `spbias argv` leaves imported."
    r = subprocess.run([sys.executable, "-c", IMPORTS, *argv], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
    return [m for m in r.stdout.strip().split(",") if m]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="runs per command and mode (the median is reported)")
    ap.add_argument("--live", action="store_true", help="also time the live parsers (the stored help hidden)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="the JSON to write")
    a = ap.parse_args(argv)
    stored = json.loads((ROOT/"spbias"/"cli_help.json").read_text())
    commands = [[]] + [k.split() for k in sorted(stored["help"])]   # [] : `spbias --help`
    load_before = os.getloadavg()
    rows = {}
    for cmd in commands:
        name = " ".join(cmd) or "(none)"
        runs = [once(STORED, [*cmd, "--help"]) for _ in range(a.runs)]
        row = dict(stored_median_s=round(statistics.median(runs), 3), stored_runs_s=[round(x, 3) for x in runs],
                   heavy_imported=heavy_imports([*cmd, "--help"]))
        if a.live and cmd:
            live = [once(LIVE, [*cmd, "--help"]) for _ in range(a.runs)]
            row |= dict(live_median_s=round(statistics.median(live), 3), live_runs_s=[round(x, 3) for x in live])
        rows[name] = row
        print(f"{name:16s} stored {row['stored_median_s']:.3f} s" + (f", live {row['live_median_s']:.3f} s" if "live_median_s" in row else "")
              + f", heavy imported: {', '.join(row['heavy_imported']) or 'none'}", flush=True)
    medians = [r["stored_median_s"] for r in rows.values()]
    out = dict(what="seconds of `spbias CMD --help` in a fresh process (interpreter start included), median of runs",
               caveat="timings from a shared machine: compare the load average with cpu_count; only an idle machine's "
                      "numbers say what a user waits",
               runs=a.runs, cpu_count=os.cpu_count(), load_avg_before=[round(x, 2) for x in load_before],
               load_avg_after=[round(x, 2) for x in os.getloadavg()], python=platform.python_version(),
               spbias_version=stored["version"], limit_s=0.3,
               stored_median_of_medians_s=round(statistics.median(medians), 3), stored_max_median_s=max(medians),
               commands=rows)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {a.out}: median {out['stored_median_of_medians_s']} s, slowest command's median {out['stored_max_median_s']} s "
          f"(load {out['load_avg_before']} on {out['cpu_count']} CPUs)")


if __name__ == "__main__":
    main()
