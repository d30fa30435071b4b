"No SemEval-2018 sentence (train, dev, test, raw) in any committed file under the given folders."
import gzip, json, sys
from pathlib import Path
texts = set()
for f in Path("/work/shared/data/semeval2018_voc").rglob("*"):
    if f.is_file() and f.suffix == ".jsonl":
        for line in f.read_text(encoding="utf-8").splitlines():
            t = json.loads(line).get("text", ""); t = t.strip()
            if len(t) >= 20: texts.add(t)
raw = [p for p in Path("/work/shared/data/semeval2018_voc/raw").rglob("*") if p.is_file()]
for p in raw:   # the raw files: tab-separated, the tweet in the second field
    for line in p.read_text(encoding="utf-8", errors="replace").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) > 1 and len(parts[1].strip()) >= 20: texts.add(parts[1].strip())
print(len(texts), "SemEval sentences (20+ characters)")
hits = 0
for folder in sys.argv[1:]:
    for f in sorted(Path(folder).rglob("*")):
        if not f.is_file(): continue
        data = gzip.open(f).read() if f.suffix == ".gz" else f.read_bytes()
        body = data.decode("utf-8", errors="replace")
        cells = set(c.strip() for line in body.splitlines() for c in line.split("\t"))
        found = [t for t in texts if t in cells] or [t for t in texts if len(t) >= 40 and t in body]
        hits += len(found)
        print(f, "SemEval sentences in it:", len(found))
print("total", hits); sys.exit(1 if hits else 0)
