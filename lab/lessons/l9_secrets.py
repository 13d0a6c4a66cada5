"""Lesson 9, state is what the snapshot holds: every key of the state is serialized into every
checkpoint from the step that wrote it on, on every branch a replay adds, and into whatever exports
the thread; a key passed in the input but absent from the schema is still stored, in the input
checkpoint's ``__start__`` channel. A ``thread_id`` is an address, not a key: LangGraph checks no
owner, so whoever sends the id reads the thread. A value in ``config["configurable"]`` is copied into
every checkpoint's metadata; only the runtime context (``context=``) is not stored. Here the "secret"
is the case's customer name, which ``intake`` writes into the state."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="secrets",
    panels=("graph", "status", "controls", "frames", "threads"),
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            predict=Predict("customer_copies", (1, 4, 6)),
            expects={"phase": "waiting", "checkpoints": 6, "customer_copies": 4},
            code='graph.invoke({"case_id": "S-1001"}, config)  # intake writes state["customer"]\n'
            "history = list(graph.get_state_history(config))\n"
            "len(history)  # 6\n"
            'sum("Dana Whitfield" in str(s.values) for s in history)  # 4',
        ),
        Step(
            id="replay",
            action=do("replay", refs={"checkpoint_id": "review_frame"}),
            predict=Predict("customer_copies", (4, 5)),
            expects={"phase": "waiting", "customer_copies": 5},
            code='old = next(s for s in graph.get_state_history(config) if s.next == ("human_review",))\n'
            'graph.invoke(None, old.config)  # a replay writes a copy of old (source "fork")\n'
            "history = list(graph.get_state_history(config))\n"
            'sum("Dana Whitfield" in str(s.values) for s in history)  # 5',
        ),
        Step(
            id="input-key",
            prepare=(start_case("fixed", "sync", case_id="S-1003"),),
            action=do("run"),
            expects={"phase": "done", "outcome": "Closed: no"},
            code='other = {"configurable": {"thread_id": "case-2"}}\n'
            'graph.invoke({"case_id": "S-1003", "api_key": "sk-live-42"}, other)  # not a state key\n'
            "first = list(graph.get_state_history(other))[-1]  # the input checkpoint, step -1\n"
            '"api_key" in first.values  # False\n'
            "stored = saver.get_tuple(first.config).checkpoint\n"
            'stored["channel_values"]["__start__"]["api_key"]  # \'sk-live-42\'\n'
            'keyed = {"configurable": {"thread_id": "case-3", "api_key": "sk-live-42"}}\n'
            'graph.invoke({"case_id": "S-1003"}, keyed)  # a configurable value is copied into metadata\n'
            'sum(s.metadata.get("api_key") == "sk-live-42" for s in graph.get_state_history(keyed))  # 6\n'
            'quiet = {"configurable": {"thread_id": "case-4"}}\n'
            'graph.invoke({"case_id": "S-1003"}, quiet, context={"api_key": "sk-live-42"})  # the context\n'
            'any("sk-live-42" in str(s) for s in graph.get_state_history(quiet))  # False: not stored',
        ),
        Step(
            id="address",
            action=do("open", refs={"thread_id": "previous_thread"}),
            predict=Predict("customer_on_head", ("Dana Whitfield", None)),
            expects={"phase": "waiting", "customer_on_head": "Dana Whitfield"},
            code='anyone = {"configurable": {"thread_id": "case-1"}}  # no owner, no password: an address\n'
            'graph.get_state(anyone).values["customer"]["name"]  # \'Dana Whitfield\'',
        ),
    ),
)
