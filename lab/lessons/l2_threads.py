"""Lesson 2, threads are cursors: a ``thread_id`` names one line of checkpoints in the saver; another
id is another thread, going back to an id resumes where it stood, and the lab refuses ids it cannot
store (not text, empty, already taken by a new case, over 255 characters) with a clear message."""

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
            'graph.invoke({"case_id": "S-1001"}, config)  # stops at interrupt()',
        ),
        Step(
            id="second-thread",
            prepare=(start_case("fixed", "sync", case_id="S-1003"),),
            action=do("run"),
            expects={"phase": "done", "outcome": "Closed: no"},
            code='other = {"configurable": {"thread_id": "case-2"}}\n'
            'graph.invoke({"case_id": "S-1003"}, other)  # a second cursor; case-1 is untouched',
        ),
        Step(
            id="go-back",
            action=do("open", refs={"thread_id": "previous_thread"}),
            predict=Predict("phase", ("new", "waiting", "done")),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}},
            code="graph.get_state(config).next  # ('human_review',): the thread waits where it stopped",
        ),
        Step(
            id="numeric-id",
            action=do("start", case_id="S-1001", thread_id=42),
            predict=Predict("refused", (True, False)),
            expects={"refused": True, "sent_thread_id": "int", "phase": "waiting"},
            code='{"configurable": {"thread_id": 42}}  # the lab refuses a number: thread ids are text',
        ),
        Step(
            id="reused-id",
            action=do("start", refs={"thread_id": "current_thread"}, case_id="S-1002"),
            predict=Predict("refused", (True, False)),
            expects={"refused": True, "sent_thread_id": "this thread", "phase": "waiting"},
            code="# the same thread_id again continues that thread: its checkpoints are still there\n"
            'graph.invoke({"case_id": "S-1002"}, config)  # would run on top of case-1\'s state',
        ),
        Step(
            id="long-id",
            action=do("start", case_id="S-1001", thread_id="t" * 256),
            expects={"refused": True, "sent_thread_id": "256 characters", "phase": "waiting"},
            code='{"configurable": {"thread_id": "t" * 256}}  # InMemorySaver takes it; Postgres breaks',
        ),
        Step(
            id="empty-id",
            action=do("start", case_id="S-1001", thread_id=""),
            expects={"refused": True, "sent_thread_id": "0 characters", "phase": "waiting"},
            code='{"configurable": {"thread_id": ""}}  # refused: an empty id names no thread',
        ),
    ),
)
