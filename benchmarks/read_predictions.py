"""Reading a predictions file once: the old reader (bytes read and decoded for the checks, then the file read again by
pandas) against the new one (bytes read once, decoded once, checked, and pandas parsing that same text).

Generates a predictions TSV of `--rows` rows (500,000 by default: 5 prompts × 100,000 sentences, every column
`spbias predict` writes) in a temporary folder, plain and gzipped, and times `load_predictions` on each, the old and
the new reading interleaved in one process (`--repeats` reads each, the median kept). The old reading is rebuilt
here (the package keeps only the new one). Results go to benchmarks/results/read_predictions.json.

    python benchmarks/read_predictions.py [--rows 500000] [--repeats 3] [--out FILE]
"""
from __future__ import annotations
import argparse, gzip, json, os, platform, statistics, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT/"benchmarks"/"results"/"read_predictions.json"


def write_predictions(path:Path, rows:int, prompts:int=5, seed:int=0):
    "A predictions TSV as `spbias predict` writes it: `rows` rows over `prompts` seeds of one run, answers = argmax."
    import numpy as np, pandas as pd
    from spbias.formats.prediction_format import BASE_COLUMNS
    rng = np.random.default_rng(seed)
    per = rows // prompts
    cats = {"grouped_age": ["young", "old", "adolescent"], "grouped_race": ["asian", "black", "white", "hispanic"],
            "grouped_gender": ["female", "male", "non-binary"]}
    pairs = [(c, g) for c, gs in cats.items() for g in gs]
    k = rng.integers(0, len(pairs), per)
    scores = rng.normal(size=(rows, 3)).round(4)
    df = pd.DataFrame({"y_true": rng.integers(0, 3, rows), "y_pred": scores.argmax(1),
                       "category": np.tile([pairs[i][0] for i in k], prompts),
                       "group": np.tile([pairs[i][1] for i in k], prompts),
                       "text": np.tile([f"Sentence {i} about the {pairs[j][1]} person, said plainly." for i, j in
                                        enumerate(k)], prompts),
                       "model": "smollm2-135m", "run_id": "a1b2c3d4e5f6", "dataset": "sst5",
                       "seed": np.repeat(1001 + np.arange(prompts), per),
                       "validation_accuracy": np.repeat((0.6 + 0.01 * np.arange(prompts)).round(4), per),
                       "test_accuracy": np.repeat((0.55 + 0.01 * np.arange(prompts)).round(4), per),
                       "score_negative": scores[:, 0], "score_neutral": scores[:, 1], "score_positive": scores[:, 2],
                       "template_id": np.tile([f"t{i % 400}" for i in range(per)], prompts)})
    assert list(df.columns[:8]) == BASE_COLUMNS
    df.to_csv(path, sep="\t", index=False)


def old_text_table(path:Path, text:dict):
    "The reader before this change: the bytes read and decoded for the checks, then the file read again by pandas."
    from spbias.formats import predictions as P
    data = gzip.decompress(path.read_bytes()) if path.suffix.lower() == ".gz" else path.read_bytes()
    P.check_utf8(data, path, "predictions file")
    P.check_text(data.decode("utf-8-sig"), str(path), "," if path.suffix.lower() == ".csv" else "\t")
    return P._parse(path, text)


def stringio_text_table(path:Path, text:dict):
    "The new reading with pandas parsing the decoded text (a StringIO) instead of the bytes: the alternative not taken."
    import io
    from spbias.formats import predictions as P
    data = gzip.decompress(path.read_bytes()) if path.suffix.lower() == ".gz" else path.read_bytes()
    decoded = data.decode("utf-8-sig"); del data
    P.check_text(decoded, str(path), "," if path.suffix.lower() == ".csv" else "\t")
    return P._parse(path, text, io.StringIO(decoded))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=500_000, help="rows of the generated predictions file")
    ap.add_argument("--repeats", type=int, default=3, help="reads of each file by each reader (the median is kept)")
    ap.add_argument("--out", default=str(RESULTS), help="JSON to write")
    a = ap.parse_args(argv)
    import pandas as pd
    from spbias.formats import predictions as P
    new_text_table = P._text_table
    readers = {"old": old_text_table, "new": new_text_table, "new_stringio": stringio_text_table}
    out = dict(benchmark="load_predictions on one file: old (bytes checked, then the file read again by pandas) vs new "
                         "(read and decoded once)",
               machine=dict(platform=platform.platform(), cpu_count=os.cpu_count(), python=platform.python_version(),
                            pandas=pd.__version__, load_average_at_start=os.getloadavg()),
               readers=dict(old=old_text_table.__doc__, new="spbias.formats.predictions._text_table: "
                            + new_text_table.__doc__, new_stringio=stringio_text_table.__doc__),
               settings=dict(rows=a.rows, prompts=5, columns="the 8 base columns, seed, validation and test accuracy, "
                             "3 scores, template_id", repeats=a.repeats,
                             timing="wall and process CPU time of load_predictions(file), the readers "
                                    "interleaved, after one untimed read each; median of the repeats (on a loaded "
                                    "machine the CPU time is the steadier); read stage: the reader alone (bytes to "
                                    "the parsed table, before the schema checks), CPU time"),
               results={})
    with tempfile.TemporaryDirectory() as d:
        tsv = Path(d, "predictions.tsv"); write_predictions(tsv, a.rows)
        gz = Path(d, "predictions.tsv.gz"); gz.write_bytes(gzip.compress(tsv.read_bytes(), 6))
        for f in (tsv, gz):
            times, cpu, stage = ({k: [] for k in readers} for _ in range(3))
            frames = {}
            from spbias.formats.prediction_format import BASE_COLUMNS, OPTIONAL_COLUMNS
            text = {c: str for c in BASE_COLUMNS + ["template_id"] + OPTIONAL_COLUMNS}   # as _read_one passes it
            for name, reader in readers.items():   # warm-up: imports, first-call costs
                P._text_table = reader
                try: P.load_predictions(f)
                finally: P._text_table = new_text_table
            for _ in range(a.repeats):
                for name, reader in readers.items():
                    P._text_table = reader
                    try:
                        t, c = time.perf_counter(), time.process_time(); frames[name] = P.load_predictions(f)
                        times[name].append(time.perf_counter() - t); cpu[name].append(time.process_time() - c)
                        c = time.process_time(); reader(f, text); stage[name].append(time.process_time() - c)
                    finally: P._text_table = new_text_table
            for k in readers: pd.testing.assert_frame_equal(frames["old"], frames[k])   # the same table every way
            row = {k: dict(median_s=round(statistics.median(v), 3), reads_s=[round(x, 3) for x in v],
                           median_cpu_s=round(statistics.median(cpu[k]), 3), cpu_s=[round(x, 3) for x in cpu[k]],
                           median_read_stage_cpu_s=round(statistics.median(stage[k]), 3))
                   for k, v in times.items()}
            row["file_mb"] = round(f.stat().st_size / 2**20, 1)
            row["new_vs_old"] = round(row["new"]["median_s"] / row["old"]["median_s"], 3)
            row["new_vs_old_cpu"] = round(row["new"]["median_cpu_s"] / row["old"]["median_cpu_s"], 3)
            row["new_vs_old_read_stage_cpu"] = round(row["new"]["median_read_stage_cpu_s"] /
                                                     row["old"]["median_read_stage_cpu_s"], 3)
            out["results"][f.name] = row
            print(f.name, json.dumps(row), flush=True)
    out["machine"]["load_average_at_end"] = os.getloadavg()
    from spbias.core import atomic_write_json
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(a.out, out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
