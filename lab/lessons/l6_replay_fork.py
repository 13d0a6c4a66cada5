"""Lesson 6, replay vs fork: invoking from an old checkpoint's config *replays*: the nodes after it
execute again, side effects included; ``update_state`` *forks*: it writes values as if a node had
returned them, as a new checkpoint beside the old ones, and the run continues from there."""

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
            code='graph.invoke(Command(resume={"approved": True}), config)',
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
            code="old = next(s for s in graph.get_state_history(config) if s.next == ('human_review',))\n"
            "graph.invoke(None, old.config)  # replays human_review: it buys the export again",
        ),
        Step(
            id="replay-approve",
            action=do("answer", approve=True),
            predict=Predict("sars_filed", (1, 2)),
            expects={"sars_filed": 2, "phase": "done"},
            code='graph.invoke(Command(resume={"approved": True}), config)  # file_sar runs again too',
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
            code='fork = graph.update_state(old.config, {"review": {"approved": False}},\n'
            '                            as_node="human_review")',
        ),
        Step(
            id="fork-run",
            action=do("run"),
            predict=Predict("charged", ("50.50", "62.50")),
            expects={"outcome": "Closed: the", "charged": "50.50", "branches": 3, "phase": "done"},
            code="graph.invoke(None, fork)  # close_case runs; nothing is bought",
        ),
    ),
)
