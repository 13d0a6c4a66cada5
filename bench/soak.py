"""A longer CPython crash soak than the test run's 2,000 trials (issue 10, item 4).

Not a test: run it by hand, e.g. ``python bench/soak.py --trials 20000 --first 2000`` (seeds
2000..21999, so it adds to what ``tests/test_soak.py`` covers). It prints trials, crashes and
violations per variant and durability, and the seeds that failed; replay one alone with
``SOAK_SEED=N pytest tests/test_soak.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.crash_soak import DURABILITIES, SOAK_VARIANTS, plan, soak  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000)
    parser.add_argument("--first", type=int, default=2_000, help="the first seed")
    args = parser.parse_args()
    started, cpu = time.perf_counter(), time.process_time()
    report = asyncio.run(soak(range(args.first, args.first + args.trials)))
    failing = Counter((plan(seed).variant, plan(seed).durability) for seed in report.failures)
    print(f"{'variant':<10} {'durability':<10} {'trials':>7}  violations")
    for variant in SOAK_VARIANTS:
        for durability in DURABILITIES:
            failing = sum(
                1 for s in report.failures if (plan(s).variant, plan(s).durability) == (variant, durability)
            )
            print(f"{variant:<10} {durability:<10} {report.by_mode[variant, durability]:>7}  {failing}")
    print(
        f"{report.trials} trials, {report.crashes} crashes, {len(report.failures)} violating trials "
        f"in {time.perf_counter() - started:.0f} s ({time.process_time() - cpu:.0f} s CPU)"
    )
    for seed, problems in list(report.failures.items())[:10]:
        print(f"seed {seed}: {plan(seed)}\n  " + "\n  ".join(problems))
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
