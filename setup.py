"""Setup for spbias, driven by nbdev's settings.ini (no pkg_resources)."""
from configparser import ConfigParser
import setuptools

assert setuptools.__version__ >= "36.2"
config = ConfigParser(delimiters=["="])
config.read("settings.ini", encoding="utf-8")
cfg = config["DEFAULT"]

# settings.ini's licence → its SPDX expression (PEP 639): setuptools warns on the old License :: classifiers
licenses = {"apache2": "Apache-2.0"}
statuses = ["Planning", "Pre-Alpha", "Alpha", "Beta", "Production/Stable", "Mature", "Inactive"]
py_versions = "3.10 3.11 3.12 3.13".split()

# `pip install spbias`: the statistics on predictions and harness logs (gaps, table2, power, compare, robustness,
# templates, the harness readers), no JAX or torch; `spbias[tune]`: models, tuning, scoring, sweeps (JAX, transformers);
# `spbias[inspect]`: Inspect logs; dev: everything and the tests' tools; cuda/tpu: tune with JAX for that accelerator
requirements = cfg.get("requirements", "").split()
tune = cfg.get("tune_requirements", "").split()
# extras beyond nbdev's requirements/dev_requirements: one `<name>_requirements` line in settings.ini each
# (cuda: JAX for NVIDIA GPUs, tpu: JAX for TPU VMs and gcsfs for gs:// sweeps, gcs/s3: sweeps to buckets)
extras = {k[:-len("_requirements")]: cfg[k].split() for k in cfg
          if k.endswith("_requirements") and k not in ("requirements", "pip_requirements", "conda_requirements")}
for name in ("dev", "cuda", "tpu"): extras[name] = tune + [r for r in extras.get(name, []) if r not in tune]
min_python = cfg["min_python"]
lic = licenses[cfg["license"].lower()]

setuptools.setup(
    name=cfg["lib_name"],
    license=lic,
    license_files=["LICENSE"],
    classifiers=[
        "Development Status :: " + statuses[int(cfg["status"])],
        "Intended Audience :: " + cfg["audience"].title(),
        "Natural Language :: " + cfg["language"].title(),
    ] + ["Programming Language :: Python :: " + o for o in py_versions[py_versions.index(min_python):]],
    url=cfg["git_url"],
    packages=setuptools.find_packages(include=["spbias", "spbias.*"]),
    include_package_data=True,
    package_data={"spbias": ["data/**/*", "cli_help.json"]},   # cli_help.json: spbias CMD --help without importing CMD (spbias.cli)
    install_requires=requirements,
    extras_require=extras,
    dependency_links=cfg.get("dep_links", "").split(),
    python_requires=">=" + cfg["min_python"],
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    zip_safe=False,
    entry_points={
        "console_scripts": cfg.get("console_scripts", "").split(),
        "nbdev": [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d'],
    },
    version=cfg["version"],
    description=cfg["description"],
    keywords=cfg["keywords"],
    author=cfg["author"],
    author_email=cfg["author_email"],
)
