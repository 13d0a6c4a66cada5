"""Lesson 6, replay vs update_state: invoking from an old checkpoint's config *replays*: LangGraph 1.2
first writes a copy of that checkpoint as a new branch (``source="fork"``), then the nodes after it
execute again, side effects included. ``update_state`` writes values as if a node had returned them,
as a new checkpoint beside the old ones (``source="update"``), without running that node; the run
continues from there. Both leave the old history as another branch. (The lab's control for
``update_state`` is named "Fork".)"""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="replay-fork",
    panels=("graph", "status", "controls", "frames", "branches", "ledger"),
    steps=(
        Step(
            id="finished",
            prepare=(start_case("misplaced", "sync"), do("run")),
            action=do("answer", approve=True),
            expects={"phase": "done", "sars_filed": 1, "branches": 1, "charged": "26.50"},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
        Step(
            id="replay",
            action=do("replay", refs={"checkpoint_id": "review_frame"}),
            predict=Predict("charged", ("26.50", "38.50")),
            expects={
                "phase": "waiting",
                "charged": "38.50",
                "branches": 2,
                "double_causes": ["interrupt", "replay"],
            },
            code='old = next(s for s in graph.get_state_history(config) if s.next == ("human_review",))\n'
            "graph.invoke(None, old.config)  # replays human_review: it buys the export again\n"
            "graph.get_state(config).metadata[\"source\"]  # 'fork': a copy of old, a new branch",
        ),
        Step(
            id="replay-approve",
            action=do("answer", approve=True),
            predict=Predict("sars_filed", (1, 2)),
            expects={"sars_filed": 2, "phase": "done"},
            code='graph.invoke(Command(resume={"approved": True}), config)["outcome"]  # \'Filed: SAR\'',
        ),
        Step(
            id="fork",
            action=do(
                "fork",
                refs={"checkpoint_id": "review_frame"},
                values={"review": {"approved": False, "export": None}},
                as_node="human_review",
            ),
            predict=Predict("next_nodes", (["human_review"], ["close_case"], ["file_sar"])),
            expects={"next_nodes": ["close_case"], "branches": 3, "charged": "50.50"},
            code='rejected = {"review": {"approved": False}}\n'
            'edit = graph.update_state(old.config, rejected, as_node="human_review")\n'
            "graph.get_state(edit).metadata[\"source\"]  # 'update': as if human_review returned it\n"
            "graph.get_state(edit).next  # ('close_case',)",
        ),
        Step(
            id="fork-run",
            action=do("run"),
            predict=Predict("charged", ("50.50", "62.50")),
            expects={"outcome": "Closed: the", "charged": "50.50", "branches": 3, "phase": "done"},
            code="graph.invoke(None, edit)[\"outcome\"]  # 'Closed: the officer rejected the SAR'",
        ),
    ),
)
