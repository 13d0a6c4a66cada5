"""The lessons' seeds for fast deep links, into ``dist/learn/data/seeds/<lesson>/<step>.json``.

Each proven seed (:func:`site_build.seed_recorder.lesson_seeds`: the threads a step opens on, as thread
files) is one JSON file, ``{threads: [base64...], current}``, fetched by the lesson runner only when
a deep link opens that step (``static/lesson/runner.mjs``). Recording walks every lesson on CPython
several times (about 15 s), so the seeds are cached under ``.cache/lesson-seeds-<hash>.json``,
keyed by the lab's Python sources and the recorder's: a build that changed neither reuses them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from site_build.cache import CACHE, ROOT, cached

LAB = ROOT / "lab"
RECORDER = Path(__file__).with_name("seed_recorder.py")
SEEDS = "learn/data/seeds"  # the folder of dist/ the seeds go to


def lab_digest() -> str:
    """A hash of every Python source of ``lab/`` and of the recorder (what a recording depends on)."""
    digest = hashlib.sha256()
    for path in [*sorted(LAB.rglob("*.py")), RECORDER]:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def recorded_seeds() -> dict[str, dict[str, dict[str, object]]]:
    """``{lesson: {step: seed}}`` for every lesson, recorded once per version of ``lab/``."""

    def record(tmp: Path) -> Path:
        from lab.lessons import LESSONS
        from site_build.seed_recorder import lesson_seeds

        seeds = {
            lesson.id: {step: seed.as_dict() for step, seed in asyncio.run(lesson_seeds(lesson)).items()}
            for lesson in LESSONS
        }
        (tmp / "seeds.json").write_text(json.dumps(seeds))
        return tmp / "seeds.json"

    return json.loads(cached(CACHE / f"lesson-seeds-{lab_digest()}.json", record).read_text())


def write_seed_files(site: Path) -> dict[str, dict[str, str]]:
    """Write every seed; answers ``{lesson: {step: the seed's URL path}}`` for the lessons' data."""
    paths: dict[str, dict[str, str]] = {}
    for lesson_id, seeds in recorded_seeds().items():
        folder = site / SEEDS / lesson_id
        folder.mkdir(parents=True, exist_ok=True)
        paths[lesson_id] = {}
        for step_id, seed in seeds.items():
            (folder / f"{step_id}.json").write_text(json.dumps(seed, separators=(",", ":")))
            paths[lesson_id][step_id] = f"/{SEEDS}/{lesson_id}/{step_id}.json"
    return paths
