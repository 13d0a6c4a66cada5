"""The lab controller the page drives (through the Web Worker): commands in, events out.

- :mod:`lab.controller.controller`: :class:`LabController`, its commands and events;
- :mod:`lab.controller.frames`: checkpoints as plain frames, diffs, the branch tree;
- :mod:`lab.controller.journal`: what the lab observed, kept outside the process (execution counts);
- :mod:`lab.controller.process`: one process's lifetime, and the fence that a crash closes;
- :mod:`lab.controller.world`: the in-memory paid API and SAR registry, and the ledger's flags.
"""

from lab.controller.controller import COMMANDS, DURABILITIES, SEAMS, LabController, LabError
from lab.controller.journal import Journal, MemoryJournal
from lab.controller.world import InMemoryWorld

__all__ = [
    "COMMANDS",
    "DURABILITIES",
    "SEAMS",
    "InMemoryWorld",
    "Journal",
    "LabController",
    "LabError",
    "MemoryJournal",
]
