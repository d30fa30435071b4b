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
    sys.exit(0 if (root/"README.md").read_text() == text else "README.md is out of date: run 'make export'")
(root/"README.md").write_text(text)
