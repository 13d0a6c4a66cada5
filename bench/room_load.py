"""The class room under load (issue 38): ``--learners`` simulated learners (200 by default) join one room
and vote at once against ``wrangler pages dev`` with a fresh local D1 (loopback only; the room API of
``functions/api/rooms``), while the teacher reads the tally back to back.

Each learner joins, votes on step 0, then changes their vote (the last one counts). Reported:

- whether every vote was counted exactly once: the final tally equals each learner's last choice,
  counted once per learner (nothing lost, nothing doubled);
- a vote's round trip (request sent to its answer), median and p95;
- vote to tally: from a vote's request being sent to the end of the first tally read that began after
  the vote was answered (a D1 write is answered once committed, so that read includes it): what a
  teacher reading the tally back to back waits to see a vote, median and p95.

Run ``python bench/room_load.py [--learners 200]``: it serves an empty folder (the API needs no build).
Bounded: one room, ``--learners`` threads, each with two votes, then it stops.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import WranglerSite  # noqa: E402
from room_client import Room, new_learner  # noqa: E402

SHAPE = [3, 2]


class TallyReader(threading.Thread):
    """The teacher: reads the tally back to back, keeping each read's start and end time."""

    def __init__(self, room: Room) -> None:
        super().__init__(daemon=True)
        self.room = room
        self.reads: list[tuple[float, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            self.room.tally()
            self.reads.append((start, time.monotonic()))


def learner(room: Room, index: int, start: threading.Barrier) -> list[tuple[float, float]]:
    """Join, then vote twice on step 0 (choice ``index % 3``, then ``(index + 1) % 3``); each vote's
    (sent, answered) times."""
    me = new_learner()
    assert room.join(me).status == 200
    start.wait()
    times = []
    for choice in (index % 3, (index + 1) % 3):
        sent = time.monotonic()
        answer = room.vote(me, 0, choice)
        assert answer.status == 200, answer
        times.append((sent, time.monotonic()))
    return times


def seen_at(reads: list[tuple[float, float]], answered: float) -> float:
    """The end of the first tally read that began after ``answered``."""
    return next(end for start, end in reads if start >= answered)


def spread(seconds: list[float]) -> str:
    """Median and p95, in milliseconds."""
    p95 = statistics.quantiles(seconds, n=20)[-1]
    return f"median {statistics.median(seconds) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"


def run(learners: int) -> None:
    with tempfile.TemporaryDirectory(prefix="room-load-") as scratch:
        site = Path(scratch) / "site"
        site.mkdir()
        (site / "index.html").write_text("<!doctype html><title>room load</title>")
        with WranglerSite(site, Path(scratch), {"ROOM_CREATIONS_PER_HOUR": "5"}) as server:
            room = Room.open(server.url, SHAPE)
            reader = TallyReader(room)
            start = threading.Barrier(learners + 1)
            with ThreadPoolExecutor(max_workers=learners) as pool:
                futures = [pool.submit(learner, room, i, start) for i in range(learners)]
                start.wait()  # every learner has joined: all vote at once
                reader.start()
                votes = [vote for future in futures for vote in future.result()]
            last_answer = max(answered for _, answered in votes)
            while not reader.reads or reader.reads[-1][0] < last_answer:
                time.sleep(0.01)
            reader.stop.set()
            reader.join()
            final = room.tally()
    expected = [0, 0, 0]
    for index in range(learners):
        expected[(index + 1) % 3] += 1
    counted = final["votes"][0]
    round_trips = [answered - sent for sent, answered in votes]
    to_tally = [seen_at(reader.reads, answered) - sent for sent, answered in votes]
    verdict = "every vote counted once" if counted == expected else "WRONG"
    print(f"{learners} learners, {len(votes)} votes (two each, the last counts), {len(reader.reads)} reads")
    print(f"tally {counted}, expected {expected}: {verdict}; learners in the room: {final['learners']}")
    print(f"vote round trip: {spread(round_trips)}")
    print(f"vote to tally:   {spread(to_tally)}")
    if counted != expected or final["learners"] != learners:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=200)
    run(parser.parse_args().learners)


if __name__ == "__main__":
    main()
