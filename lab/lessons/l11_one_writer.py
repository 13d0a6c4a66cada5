"""Lesson 11, one writer per thread: LangGraph assumes it and does not enforce it. Two runs on one
``thread_id`` at once (two tabs, two workers) each start from the checkpoint they read: both resume
the same interrupt, both file, and the thread forks under one id, its head showing one run. The
entry point must serialize a thread's runs (a lock or a queue per ``thread_id``). The lab's
guard is the aside: a Web Lock per thread, so a second tab is read-only until it takes over
(``set_writer``: the page reports who holds the lock)."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="one-writer",
    panels=("graph", "status", "controls", "ledger"),
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "node_states": {"human_review": "interrupted"}},
            code='config = {"configurable": {"thread_id": "case-1"}}  # both tabs send this id\n'
            'waiting = graph.invoke({"case_id": "S-1001"}, config)["__interrupt__"]\n'
            "waiting[0].value  # {'question': 'File a SAR?'}",
        ),
        Step(
            id="two-tabs",
            action=do("set_writer", writer="elsewhere"),
            expects={"phase": "read_only"},
            code="from concurrent.futures import ThreadPoolExecutor\n"
            'approve = Command(resume={"approved": True})\n'
            "with ThreadPoolExecutor() as tabs:  # two tabs approve the same thread at once\n"
            "    runs = [tabs.submit(graph.invoke, approve, config) for _ in range(2)]\n"
            "[run.result()[\"outcome\"] for run in runs]  # ['Filed: SAR', 'Filed: SAR']\n"
            "len(sars)  # 2: both resumed the same interrupt\n"
            "parents = [s.parent_config for s in graph.get_state_history(config) if s.parent_config]\n"
            'len(parents) - len({p["configurable"]["checkpoint_id"] for p in parents})  # 1: a fork',
        ),
        Step(
            id="refused",
            action=do("answer", approve=True),
            predict=Predict("sars_filed", (0, 1, 2)),
            expects={"refused": True, "phase": "read_only", "sars_filed": 0},
            code="# LangGraph has no such guard: a second invoke on the thread runs, as above",
        ),
        Step(
            id="take-over",
            action=do("set_writer", writer="here"),
            expects={"phase": "waiting"},
            code="import threading\n"
            "from collections import defaultdict\n"
            "locks = defaultdict(threading.Lock)  # one per thread_id, at your entry point\n",
        ),
        Step(
            id="approve",
            action=do("answer", approve=True),
            predict=Predict("sars_filed", (1, 2)),
            expects={"phase": "done", "sars_filed": 1},
            code="def handle(tab_request, config):  # every tab's request comes through here\n"
            '    with locks[config["configurable"]["thread_id"]]:\n'
            "        if graph.get_state(config).next:  # still waiting? a later tab finds it done\n"
            "            return graph.invoke(tab_request, config)\n"
            "with ThreadPoolExecutor() as tabs:\n"
            "    runs = [tabs.submit(handle, approve, config) for _ in range(2)]\n"
            "len(sars)  # 1",
        ),
    ),
)
