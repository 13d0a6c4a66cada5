"""Lesson 10, the storage bill: by default LangGraph stores an ``Annotated[list, operator.add]`` key
(a ``BinaryOperatorAggregate`` channel) whole: ``InMemorySaver`` at every checkpoint where it changed,
``SqliteSaver`` in every checkpoint's row, changed or not; so a thread's
bytes grow with the square of its length, and so does the lab. ``DeltaChannel`` (beta, opt-in)
stores a sentinel and rebuilds the list from the writes: the lesson's second thread switches it on
(``start(storage="delta")``: the AML graph with ``log`` and ``charges`` annotated
``DeltaChannel(append)``), and the storage panel beside the steps bills each thread both ways.
``prune(thread_ids, strategy="keep_latest")`` is on ``BaseCheckpointSaver``, but in LangGraph 1.2
neither ``InMemorySaver`` nor ``SqliteSaver`` implements it (it raises ``NotImplementedError``);
``delete_thread`` removes a whole thread. The lab's Prune, which keeps the newest checkpoint of a
thread, is the aside (docs/LANGGRAPH.md, "Where lab deliberately differs")."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="storage",
    panels=("graph", "status", "controls", "storage", "frames"),
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            predict=Predict("log_lines", (5, 15)),
            expects={"phase": "waiting", "checkpoints": 6, "log_lines": 5, "storage": "full"},
            code="history = list(graph.get_state_history(config))\n"
            '[len(s.values["log"]) for s in history]  # [5, 4, 3, 1, 0, 0]\n'
            'stored = [v for k, v in saver.blobs.items() if k[0] == "case-1" and k[2] == "log"]\n'
            "sum(len(saver.serde.loads_typed(v)) for v in stored)  # 13: the whole list at each change",
        ),
        Step(
            id="deltas",
            prepare=(start_case("fixed", "sync", case_id="S-1003", storage="delta"),),
            action=do("run"),
            expects={"phase": "done", "outcome": "Closed: no", "storage": "delta"},
            code="def append(log, batches):  # a DeltaChannel's reducer gets a batch of writes\n"
            "    return log + [line for lines in batches for line in lines]\n"
            "class DeltaState(CaseState):  # opt-in, beta: langgraph.channels.delta\n"
            "    log: Annotated[list[str], DeltaChannel(append)]\n"
            'deltas = {"configurable": {"thread_id": "case-2"}}\n'
            'graph.invoke({"case_id": "S-1003"}, deltas)["log"][0]  # \'intake S-1003\'\n'
            'stored = [v for k, v in saver.blobs.items() if k[0] == "case-2" and k[2] == "log"]\n'
            "{kind for kind, _ in stored}  # {'empty'}: a sentinel; the list is rebuilt from the writes",
        ),
        Step(
            id="back",
            action=do("open", refs={"thread_id": "previous_thread"}),
            expects={"phase": "waiting", "checkpoints": 6, "log_lines": 5},
            code="graph.get_state(config).next  # ('human_review',)",
        ),
        Step(
            id="prune",
            action=do("prune"),
            predict=Predict("checkpoints", (1, 2, 6)),
            expects={"phase": "waiting", "checkpoints": 1, "log_lines": 5},
            code="try:\n"
            '    saver.prune(["case-1"], strategy="keep_latest")\n'
            "    pruned = True\n"
            "except NotImplementedError:  # InMemorySaver and SqliteSaver 1.2 leave it to the base class\n"
            "    pruned = False\n"
            "pruned  # False\n"
            'saver.delete_thread("case-2")  # what they do implement: the whole thread goes\n'
            "list(graph.get_state_history(deltas))  # []",
        ),
        Step(
            id="continue",
            action=do("answer", approve=True),
            predict=Predict("phase", ("done", "new")),
            expects={"phase": "done", "sars_filed": 1, "log_lines": 7},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
    ),
)
