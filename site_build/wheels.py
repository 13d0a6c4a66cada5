"""Our own ``lab`` wheel, zipped without pip, and how the site serves wheels: under content-hashed
folders (``/wheels/<hash>/`` for the worker, ``/python/<hash>/`` for ``pip install``)."""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import tomllib
import zipfile
from pathlib import Path

from site_build.cache import ROOT

LAB_PACKAGE = ROOT / "lab"
WORKER_WHEELS = "wheels"
"""The folder of the wheels the worker loads at boot, each with its bytecode (``bytecode.py``)."""
PIP_WHEELS = "python"
"""The folder of the wheels for ``pip install``: served, never precached (the browser never loads them)."""


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def fixed_time_entry(name: str) -> zipfile.ZipInfo:
    """A zip entry with a fixed timestamp and mode, so the same bytes always give the same archive."""
    entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    entry.external_attr = 0o644 << 16
    return entry


def build_lab_wheel(out_dir: Path) -> Path:
    """Zip ``lab/**.py`` into a pure-Python wheel, without pip (a wheel is a zip with three metadata files).

    The name and version come from pyproject.toml. The zip is deterministic (sorted entries, fixed
    timestamps), so the same sources give the same bytes and thus the same content-hashed URL.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dist_name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    version = project["version"]
    info = f"{dist_name}-{version}.dist-info"

    sources = sorted(
        path
        for path in LAB_PACKAGE.rglob("*.py")
        if "__pycache__" not in path.parts and not path.name.startswith(".")
    )
    files = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in sources}
    requires = "".join(f"Requires-Dist: {dep}\n" for dep in project.get("dependencies", []))
    for extra, deps in project.get("optional-dependencies", {}).items():
        requires += f"Provides-Extra: {extra}\n"
        requires += "".join(f'Requires-Dist: {dep}; extra == "{extra}"\n' for dep in deps)
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
        f"Summary: {project.get('description', '')}\n{requires}"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: checkpoint-lab build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files.items())
    files[f"{info}/RECORD"] = f"{record}{info}/RECORD,,\n".encode()

    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(fixed_time_entry(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return wheel


def add_hashed(wheel: Path, site: Path, folder: str = WORKER_WHEELS, name: str | None = None) -> str:
    """Copy a wheel to ``<folder>/<sha256 prefix>/<name>`` (its own name unless given) and return that
    path, relative to the site root.

    The hash goes in the folder, not the file name, so the file keeps its standard wheel name (which
    Pyodide reads) while any change to its bytes gives a new URL that no cache has seen.
    """
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()[:16]
    name = name or wheel.name
    target = site / folder / digest / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(wheel, target)
    return f"./{folder}/{digest}/{name}"
