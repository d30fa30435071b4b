"""Write README.md from nbs/index.ipynb without quarto (nbdev_readme needs it; the docs site uses it)."""
import json, re, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
nb = json.loads((root/"nbs"/"index.ipynb").read_text())
out = ["<!-- WARNING: generated from nbs/index.ipynb by scripts/readme.py; edit the notebook. -->", ""]
for cell in nb["cells"]:
    src = "".join(cell["source"])
    if cell["cell_type"] == "markdown":
        out.append(re.sub(r"^> ", "> ", src)); out.append("")
    elif cell["cell_type"] == "code" and not src.lstrip().startswith("#|"):
        out += ["```python", src, "```", ""]
text = "\n".join(out).rstrip() + "\n"
if "--check" in sys.argv:
    if (root/"README.md").read_text() != text: sys.exit("README.md is out of date: run 'make export'")
else: (root/"README.md").write_text(text)

# the package docstring: the same module map (`help(spbias)`), from the index's "How the code is laid out"
layout = next("".join(c["source"]) for c in nb["cells"] if "".join(c["source"]).startswith("## How the code is laid out"))
body = layout.split("\n", 1)[1].strip().replace("**", "")
body = re.sub(r" The package docstring\n?\(`help\(spbias\)`\) holds the same list, written from this section by `scripts/readme.py`\.", "", body)
init = root/"spbias"/"__init__.py"
code = init.read_text()
version = re.search(r'^__version__\s*=.*$', code, re.M).group(0)
doc = "Measure social bias in large language models by soft-prompt tuning, in JAX/Flax.\n\n" + body + "\n"
new = '"""' + doc.replace("\\", "\\\\").replace('"""', "'''") + '"""\n' + version + "\n"
if "--check" in sys.argv:
    sys.exit(0 if code == new else "spbias/__init__.py's docstring is out of date: run 'make export'")
init.write_text(new)
