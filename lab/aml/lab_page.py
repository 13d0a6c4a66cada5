"""The lab page's graph: what the worker of the lab page (and of its lessons and embeds) opens.

No LangGraph concept: a LangGraph server opens the graph its ``langgraph.json`` names; the lab's worker
opens the module its page names (``LabSession({graph: "lab.aml.lab_page"})``, ``static/lab-session.mjs``;
``lab.browser.lab_rpc.open_lab`` imports it by that name). The lab page runs the AML investigation
with the guided lessons' commands, its nodes working :data:`DELAY` seconds each. A page that names
no graph (``/play``) never imports this package.
"""

from lab.aml.graph import DEFAULT_DELAY
from lab.aml.profile import AML_PROFILE
from lab.lessons.commands import LESSON_COMMANDS

PROFILE = AML_PROFILE
COMMANDS = LESSON_COMMANDS  # the lab page runs the guided lessons
DELAY = DEFAULT_DELAY
