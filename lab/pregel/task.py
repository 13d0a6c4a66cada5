"""A running task and the ``interrupt()`` bookkeeping it carries (LangGraph's scratchpad).

A task is one node scheduled in one super-step. While its node runs, ``current_task()``
returns it, so that ``interrupt()`` (in ``lab.types``) can find the answers recorded for it:

1. answers already given to this task (its ``__resume__`` write), by call order;
2. otherwise a fresh answer addressed to nobody in particular (the NULL task's ``__resume__``),
   which the first task to ask consumes;
3. otherwise there is ``NO_ANSWER``: the task pauses with an ``Interrupt`` whose id
   (``question_id``) is derived from the task and the number of answers it already has.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Any

from lab.checkpoint.base import RESUME
from lab.pregel.ids import interrupt_id

NO_ANSWER = object()
"""What ``Task.take_answer`` returns when the question has no answer yet."""

_current: ContextVar[Task] = ContextVar("lab_current_task")


def current_task() -> Task:
    try:
        return _current.get()
    except LookupError:
        raise RuntimeError("interrupt() can only be called from inside a running graph node") from None


def task_namespace(graph_namespace: str, node: str, task_id: str) -> str:
    """A task's namespace, and that of a graph it runs: ``"<node>:<task id>"`` under its own
    graph's namespace (``"outer:<id>|inner:<id>"``; see ``lab.pregel.subgraph``)."""
    own = f"{node}:{task_id}"
    return f"{graph_namespace}|{own}" if graph_namespace else own


def running_task() -> Task | None:
    """The task whose node is running here, if any (a graph run inside it is its subgraph)."""
    return _current.get(None)


@dataclass(slots=True)
class Task:
    id: str
    name: str
    triggers: tuple[str, ...]
    input: Any
    path: tuple[Any, ...] = ()
    answers: list[Any] = field(default_factory=list)
    take_fresh_answer: Callable[[], Any] = lambda: None
    writes: list[tuple[str, Any]] = field(default_factory=list)
    interrupts_asked: int = 0
    graph_namespace: str = ""
    """The namespace of the graph the task belongs to; ``""`` for the root graph."""
    lender: Any = None
    """While its node runs, its loop: it lends a graph run inside the node what that inherits."""
    loan: Any = None
    """What it lent, once a graph ran inside its node (``lab.pregel.subgraph.Loan``)."""
    calls: Any = None
    """Once its node called a ``@task``: those calls (``lab.pregel.task_calls.Calls``)."""
    cache_key: Any = None
    """A cached node's task: where the cache keeps its writes (``lab.pregel.node_cache``)."""

    @property
    def namespace(self) -> str:
        return task_namespace(self.graph_namespace, self.name, self.id)

    def take_answer(self, validate: Callable[[Any], Any] | None = None) -> Any:
        """The answer to this task's next ``interrupt()`` call (passed through ``validate``, which
        may raise before the answer is recorded), or ``NO_ANSWER``."""
        index = self.interrupts_asked
        self.interrupts_asked += 1
        if index < len(self.answers):
            answer = validate(self.answers[index]) if validate else self.answers[index]
            self._record_answers(self.answers[: index + 1])
            return answer
        fresh = self.take_fresh_answer()
        if fresh is not None:
            answer = validate(fresh) if validate else fresh
            self.answers.append(fresh)
            self._record_answers(list(self.answers))
            return answer
        return NO_ANSWER

    @property
    def question_id(self) -> str:
        """The id of the question this task is waiting on (keyed by the answers it has)."""
        return interrupt_id(self.namespace, len(self.answers))

    def _record_answers(self, answers: list[Any]) -> None:
        """Keep one ``__resume__`` write: the answers this task has consumed so far."""
        self.writes = [w for w in self.writes if w[0] != RESUME]
        self.writes.append((RESUME, answers))

    def activate(self) -> Token[Task]:
        """Make this the task ``interrupt()`` talks to (undo with ``deactivate``)."""
        return _current.set(self)

    @staticmethod
    def deactivate(token: Token[Task]) -> None:
        _current.reset(token)
