"""The lab controller the page drives (through the Web Worker): commands in, events out.

- :mod:`lab.controller.controller`: :class:`LabController`, the command surface over any compiled
  graph and its :class:`~lab.controller.profile.GraphProfile`: plain state
  (:mod:`lab.controller.state`), one command table (:mod:`lab.controller.command_table`: each
  command a function of the controller, in the session, run, time-travel, observation and thread
  command modules) and the run driver;
- :mod:`lab.controller.run_driver`: runs started, paused at a gate, killed at an armed seam;
- :mod:`lab.controller.seam_events`: each seam as journal records and page events;
- :mod:`lab.controller.session`: the session, and the error a refused command answers with;
- :mod:`lab.controller.view`: ``view()``, everything the page draws, from the rules in
  :mod:`~lab.controller.facts`, :mod:`~lab.controller.node_states`, :mod:`~lab.controller.actions`,
  :mod:`~lab.controller.status`, :mod:`~lab.controller.ledger_rules`,
  :mod:`~lab.controller.seam_catalog`, :mod:`~lab.controller.activity` (sentences:
  :mod:`~lab.controller.messages`);
- :mod:`lab.controller.frames`: checkpoints as plain frames, diffs, the branch tree;
- :mod:`lab.controller.journal`: what the lab observed, kept outside the process (execution counts);
- :mod:`lab.controller.process`: one process's lifetime, and the fence that a crash closes (the
  outside world it calls is :mod:`lab.world`'s).
"""

from lab.controller.controller import COMMANDS, DURABILITIES, SEAMS, LabController
from lab.controller.journal import Journal, MemoryJournal
from lab.controller.session import LabError

__all__ = [
    "COMMANDS",
    "DURABILITIES",
    "SEAMS",
    "Journal",
    "LabController",
    "LabError",
    "MemoryJournal",
]
