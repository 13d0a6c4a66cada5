"""Lesson 7, editing the past: ``update_state(config, values, as_node=...)`` passes each value
through its channel's reducer (an ``Annotated[list, add]`` key appends, a plain key is replaced)
and computes ``next`` as if ``as_node`` had just returned those values."""

from lab.lessons.model import Lesson, Predict, Step, do, start_case

LESSON = Lesson(
    id="edit-past",
    panels=("graph", "status", "controls", "frames", "fork"),
    steps=(
        Step(
            id="to-review",
            prepare=(start_case("fixed", "sync"),),
            action=do("run"),
            expects={"phase": "waiting", "log_lines": 5, "findings": 1},
            code="class CaseState(TypedDict):\n"
            "    findings: list[str]                    # plain: last value wins\n"
            "    log: Annotated[list[str], operator.add]  # reducer: appends",
        ),
        Step(
            id="append",
            action=do(
                "fork",
                refs={"checkpoint_id": "review_frame"},
                values={"log": ["officer: checked the branch footage"]},
                as_node="draft_sar",
            ),
            predict=Predict("log_lines", (1, 5, 6)),
            expects={"log_lines": 6, "next_nodes": ["human_review"]},
            code='graph.update_state(config, {"log": ["officer: checked"]}, as_node="draft_sar")\n'
            'len(graph.get_state(config).values["log"])  # 6\n'
            "graph.get_state(config).next  # ('human_review',)",
        ),
        Step(
            id="replace",
            action=do(
                "fork",
                refs={"checkpoint_id": "review_frame"},
                values={
                    "findings": [
                        "officer: deposits match the shop's takings",
                        "officer: branches are on her route",
                    ]
                },
                as_node="draft_sar",
            ),
            predict=Predict("findings", (2, 3)),
            expects={"findings": 2, "log_lines": 6},
            code='two = ["officer: deposits match the takings", "officer: on her route"]\n'
            'graph.update_state(config, {"findings": two}, as_node="draft_sar")\n'
            "values = graph.get_state(config).values\n"
            'len(values["findings"]), len(values["log"])  # (2, 6)',
        ),
        Step(
            id="as-node",
            action=do(
                "fork",
                refs={"checkpoint_id": "classify_frame"},
                values={"typology": "none", "risk": 5},
                as_node="classify_typology",
            ),
            predict=Predict(
                "next_nodes", (["close_case"], ["classify_typology", "close_case"], ["draft_sar"])
            ),
            expects={"next_nodes": ["classify_typology", "close_case"]},
            code="history = graph.get_state_history(config)\n"
            'before = next(s for s in history if s.next == ("classify_typology",))\n'
            'edit = graph.update_state(before.config, {"typology": "none"}, as_node="classify_typology")\n'
            "graph.get_state(edit).next  # ('classify_typology', 'close_case')",
        ),
        Step(
            id="run",
            action=do("run"),
            predict=Predict("phase", ("done", "waiting")),
            expects={"phase": "waiting", "outcome": "Closed: no", "next_nodes": ["human_review"]},
            code="graph.invoke(None, edit)  # close_case closes the case, and classify_typology,\n"
            "# run again, routes to draft_sar: the case is closed AND waits for review\n"
            "graph.get_state(config).next  # ('human_review',)",
        ),
    ),
)
