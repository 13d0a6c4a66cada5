"""Lesson 2, threads are cursors: a ``thread_id`` names one line of checkpoints in the saver; another
id is another thread, and going back to an id resumes where it stood. LangGraph's savers key a thread
by the text of its id: ``42`` and ``"42"`` are one thread, ``""`` is a thread like any other, a new
input on a used id runs on top of that thread's state, and neither ``InMemorySaver`` nor
``PostgresSaver`` (``thread_id TEXT``) limits the length. The lab's own guards (a used id for a new
case, over 255 characters: docs/LANGGRAPH.md, "Where lab deliberately differs") are shown as asides."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="threads",
    panels=("graph", "status", "controls", "threads"),
    steps=(
        Step(
            id="first-thread",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}},
            code='config = {"configurable": {"thread_id": "case-1"}}\n'
            'waiting = graph.invoke({"case_id": "S-1001"}, config)["__interrupt__"]\n'
            "waiting[0].value  # {'question': 'File a SAR?'}",
        ),
        Step(
            id="second-thread",
            prepare=(start_case("fixed", "sync", case_id="S-1003"),),
            action=do("run"),
            expects={"phase": "done", "outcome": "Closed: no"},
            code='other = {"configurable": {"thread_id": "case-2"}}  # a second cursor\n'
            'graph.invoke({"case_id": "S-1003"}, other)["outcome"]  # \'Closed: no suspicious typology\'',
        ),
        Step(
            id="go-back",
            action=do("open", refs={"thread_id": "previous_thread"}),
            predict=Predict("phase", ("new", "waiting", "done")),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}},
            code="graph.get_state(config).next  # ('human_review',): case-1 waits where it stopped",
        ),
        Step(
            id="reused-id",
            action=do("start", refs={"thread_id": "current_thread"}, case_id="S-1002"),
            expects={"refused": True, "sent_thread_id": "this thread", "phase": "waiting"},
            code='graph.invoke({"case_id": "S-1002"}, config)  # the same id: it runs on top of case-1\n'
            'log = graph.get_state(config).values["log"]  # Annotated[list, add]: the lines pile up\n'
            "[line for line in log if line.startswith(\"intake\")]  # ['intake S-1001', 'intake S-1002']",
        ),
        Step(
            id="long-id",
            action=do("start", case_id="S-1001", thread_id="t" * 256),
            expects={"refused": True, "sent_thread_id": "256 characters", "phase": "waiting"},
            code='long = {"configurable": {"thread_id": "t" * 256}}\n'
            'graph.invoke({"case_id": "S-1003"}, long)["outcome"]  # \'Closed: no suspicious typology\'',
        ),
        Step(
            id="empty-id",
            action=do("start", case_id="S-1001", thread_id=""),
            predict=Predict("refused", (True, False)),
            expects={"refused": False, "thread_id": "", "phase": "new"},
            code='empty = {"configurable": {"thread_id": ""}}\n'
            'graph.invoke({"case_id": "S-1003"}, empty)["outcome"]  # \'Closed: no suspicious typology\'',
        ),
        Step(
            id="numeric-id",
            action=do("start", case_id="S-1001", thread_id=42),
            predict=Predict("refused", (True, False)),
            expects={"refused": False, "sent_thread_id": "int", "thread_id": "42", "phase": "new"},
            code='graph.invoke({"case_id": "S-1001"}, {"configurable": {"thread_id": "42"}})\n'
            'graph.get_state({"configurable": {"thread_id": 42}}).next  # (\'human_review\',)',
        ),
    ),
)
