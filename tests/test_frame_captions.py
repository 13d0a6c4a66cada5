"""The scrubber's spoken captions (``lab/controller/frame_captions.py``): each frame of ``view()`` says
what made it, checked on the AML story (a run to the interrupt, a replay, a fork)."""

from __future__ import annotations

from typing import Any


def captions(view: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [(f["step"], f["source"], f["caption"]["text"]) for f in view["frames"]]


async def test_a_run_reads_as_the_nodes_each_step_ran(lab):
    await lab.do("start", case_id="S-1001", variant="misplaced", durability="sync")
    await lab.do("run")
    assert captions(await lab.view()) == [
        (-1, "input", "the input"),
        (0, "loop", "after __start__"),
        (1, "loop", "after intake"),
        (2, "loop", "after fetch_transactions, screen_sanctions"),
        (3, "loop", "after classify_typology"),
        (4, "loop", "after draft_sar"),
    ]


async def test_a_replay_and_a_fork_say_so(lab):
    await lab.do("start", case_id="S-1001", variant="fixed", durability="sync")
    await lab.do("run")
    classified = await lab.frame_where(step=3)
    await lab.do("replay", checkpoint_id=classified["checkpoint_id"], until="end")
    await lab.do("fork", checkpoint_id=classified["checkpoint_id"], values={"typology": "none"})
    assert captions(await lab.view())[-3:] == [
        (4, "fork", "a copy to replay from"),  # the replay's copy of the step-3 frame
        (5, "loop", "after draft_sar"),  # the replayed step: the copy's next
        (4, "update", "after update_state"),
    ]


async def test_a_caption_is_a_message_the_page_translates(lab):
    await lab.do("start", case_id="S-1001", variant="misplaced", durability="sync")
    await lab.do("run")
    caption = (await lab.view())["frames"][1]["caption"]
    assert caption == {"code": "frame.after", "params": {"nodes": "__start__"}, "text": "after __start__"}
