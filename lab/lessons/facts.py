"""Facts a lesson step checks, each a small named function over the controller's ``view()``.

This is the goal check of a Learn Git Branching level, made for LangGraph: a step is done when its
facts hold on the real state (checkpoints, node states, the ledger), never on what the page shows.
Every fact reads plain data: ``view`` (what :mod:`lab.controller.view` builds) and ``last`` (the
controller's answer to the last command the learner sent, with its name and arguments: for the
lesson about refused thread ids).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

View = dict[str, Any]
Fact = Callable[[View, dict[str, Any] | None], Any]


def _nodes(view: View) -> list[dict[str, Any]]:
    return [node for node in view["graph"]["nodes"] if node["kind"] == "node"]


def _head(view: View) -> dict[str, Any] | None:
    head = view["tree"]["head"]
    return next((frame for frame in view["frames"] if frame["checkpoint_id"] == head), None)


def _thread_rows(view: View, kind: str) -> list[dict[str, Any]]:
    thread = view["session"]["thread_id"] if view["session"] else None
    return [row for row in view["ledger"]["entries"] if row["thread_id"] == thread and row["kind"] == kind]


def phase(view: View, last: Any) -> str:
    """What the lab is doing: ``new``, ``paused``, ``waiting``, ``crashed``, ``done``, ..."""
    return view["status"]["phase"]


def checkpoints(view: View, last: Any) -> int:
    """How many checkpoints the thread has (every branch)."""
    return len(view["frames"])


def first_checkpoint(view: View, last: Any) -> str | None:
    """The oldest checkpoint as ``"<step> <source>"``: LangGraph's first is ``-1 input``."""
    frames = view["frames"]
    return f"{frames[0]['step']} {frames[0]['source']}" if frames else None


def next_nodes(view: View, last: Any) -> list[str]:
    """``StateSnapshot.next`` of the head checkpoint: the nodes the next step runs."""
    head = _head(view)
    return list(head["next"]) if head else []


def head_step(view: View, last: Any) -> int | None:
    """The step number of the head checkpoint."""
    head = _head(view)
    return head["step"] if head else None


def saved_writes_on_head(view: View, last: Any) -> list[str]:
    """Nodes whose writes are saved as pending writes on the head checkpoint (the checkpoint the
    interrupted step started from), without the runtime's own ``__start__``."""
    head = _head(view)
    writers = {write[0] for write in head["pending_writes"]} if head else set()
    return sorted(writer for writer in writers if not writer.startswith("__"))


def node_states(view: View, last: Any) -> dict[str, str]:
    """Every node that is not idle, with the state the graph draws (crashed, saved, interrupted...)."""
    return {node["id"]: node["state"] for node in _nodes(view) if node["state"] != "idle"}


def ran_twice(view: View, last: Any) -> list[str]:
    """Nodes whose function was entered more than once on this thread."""
    return sorted(node["id"] for node in _nodes(view) if node["counts"]["started"] > 1)


def executions(view: View, last: Any) -> int:
    """How many times a node function was entered on this thread, all nodes together."""
    return sum(node["counts"]["started"] for node in _nodes(view))


def armed_crash(view: View, last: Any) -> str | None:
    """The armed crash as ``"<seam>"`` or ``"<seam> of <node>"``."""
    armed = view["armed"]
    if not armed:
        return None
    return f"{armed['seam']} of {armed['node']}" if armed.get("node") else armed["seam"]


def charged(view: View, last: Any) -> str:
    """What this thread paid, in dollars with two decimals (a replayed request costs nothing)."""
    cents = sum(row["amount_cents"] for row in _thread_rows(view, "charge") if not row["replayed"])
    return f"{cents / 100:.2f}"


def paid_requests(view: View, last: Any) -> int:
    """Paid-API requests of this thread that moved money."""
    return sum(not row["replayed"] for row in _thread_rows(view, "charge"))


def replayed_requests(view: View, last: Any) -> int:
    """Paid-API requests of this thread answered with the original receipt (the key was seen)."""
    return sum(row["replayed"] for row in _thread_rows(view, "charge"))


def sars_filed(view: View, last: Any) -> int:
    """SARs this thread filed (a replayed filing is not a new one)."""
    return sum(not row["replayed"] for row in _thread_rows(view, "sar"))


def double_causes(view: View, last: Any) -> list[str]:
    """Why this thread paid or filed an operation more than once (``interrupt``, ``replay``, ...)."""
    thread = view["session"]["thread_id"] if view["session"] else None
    causes = {
        cause for dup in view["ledger"]["duplicates"] if dup["thread_id"] == thread for cause in dup["causes"]
    }
    return sorted(causes)


def branches(view: View, last: Any) -> int:
    """Branches in the thread's checkpoint tree."""
    return len(view["tree"]["branches"])


def outcome(view: View, last: Any) -> str | None:
    """The case's ``outcome`` on the head checkpoint, cut to its first two words."""
    head = _head(view)
    value = head["values"].get("outcome") if head else None
    return " ".join(value.split()[:2]) if value else None


def storage(view: View, last: Any) -> str | None:
    """How the thread's graph stores its lists: ``full`` (LangGraph's default) or ``delta``."""
    return view["session"]["storage"] if view["session"] else None


def log_lines(view: View, last: Any) -> int:
    """Length of ``log`` (``Annotated[list, add]``: an update appends) on the head checkpoint."""
    head = _head(view)
    return len(head["values"].get("log", [])) if head else 0


def findings(view: View, last: Any) -> int:
    """Length of ``findings`` (a plain key: an update replaces it) on the head checkpoint."""
    head = _head(view)
    return len(head["values"].get("findings", [])) if head else 0


def _customer_name(values: dict[str, Any]) -> str | None:
    customer = values.get("customer")
    return customer.get("name") if isinstance(customer, dict) else None


def customer_copies(view: View, last: Any) -> int:
    """Checkpoints of this thread (every branch) whose values hold the customer's name: what a
    saver, a replay and an export carry."""
    return sum(_customer_name(frame["values"]) is not None for frame in view["frames"])


def customer_on_head(view: View, last: Any) -> str | None:
    """The customer's name in the head checkpoint's values: what anyone who opens the thread reads."""
    head = _head(view)
    return _customer_name(head["values"]) if head else None


def _subgraphs(view: View) -> list[dict[str, Any]]:
    return [namespace for namespace in view["namespaces"] if namespace["graph"] is not None]


def namespaces(view: View, last: Any) -> int:
    """How many namespaces the thread's checkpoints are saved in: the root's, and one per subgraph run."""
    return len(view["namespaces"]) if view["session"] else 0


def subgraph_next(view: View, last: Any) -> list[str] | None:
    """``next`` of the newest checkpoint in the first subgraph's namespace (what
    ``get_state(config, subgraphs=True)`` shows inside); ``None`` when no subgraph saved one."""
    subgraphs = _subgraphs(view)
    return list(subgraphs[0]["frames"][-1]["next"]) if subgraphs else None


def subgraph_parent_runs(view: View, last: Any) -> int:
    """How often the function of the node that ran the first subgraph was entered on this thread."""
    subgraphs = _subgraphs(view)
    parent = subgraphs[0]["graph"].split("|")[0] if subgraphs else None
    return next((node["counts"]["started"] for node in _nodes(view) if node["id"] == parent), 0)


def subgraph_inputs(view: View, last: Any) -> int:
    """Input checkpoints (``source="input"``, step -1) in the first subgraph's namespace: how often
    the subgraph took its input rather than continuing from its own checkpoint."""
    subgraphs = _subgraphs(view)
    return sum(frame["source"] == "input" for frame in subgraphs[0]["frames"]) if subgraphs else 0


def durability(view: View, last: Any) -> str | None:
    """The thread's durability mode."""
    return view["session"]["durability"] if view["session"] else None


def refused(view: View, last: Any) -> bool:
    """Whether the lab refused the last command the learner sent (with a message, never a traceback)."""
    return last is not None and not last["ok"]


def sent_thread_id(view: View, last: Any) -> str | None:
    """The thread id the last command sent: its type if not text, ``"this thread"`` if it names
    the thread the lab is on, else its length (``"0 characters"``, ``"256 characters"``)."""
    value = last["args"].get("thread_id") if last else None
    if value is None:
        return None
    if not isinstance(value, str):
        return type(value).__name__
    if view["session"] and value == view["session"]["thread_id"]:
        return "this thread"
    return f"{len(value)} characters"


def thread_id(view: View, last: Any) -> str | None:
    """The id of the thread the lab is on (a number sent as ``thread_id`` is kept as its text)."""
    return view["session"]["thread_id"] if view["session"] else None


FACTS: dict[str, Fact] = {
    fact.__name__: fact
    for fact in (
        phase,
        checkpoints,
        first_checkpoint,
        next_nodes,
        head_step,
        saved_writes_on_head,
        node_states,
        ran_twice,
        executions,
        armed_crash,
        charged,
        paid_requests,
        replayed_requests,
        sars_filed,
        double_causes,
        branches,
        outcome,
        storage,
        log_lines,
        findings,
        customer_copies,
        customer_on_head,
        namespaces,
        subgraph_next,
        subgraph_parent_runs,
        subgraph_inputs,
        durability,
        refused,
        sent_thread_id,
        thread_id,
    )
}
"""Every fact a lesson may expect, by name."""
