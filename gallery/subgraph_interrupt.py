"""A subgraph that asks a question: on resume the parent's node that calls the subgraph re-runs from
its first line, and the subgraph resumes at its interrupt."""

from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

runs = {"review": 0, "ask": 0}


class Case(TypedDict):
    case_id: str
    decision: str


def ask(state: Case) -> dict:
    runs["ask"] += 1
    answer = interrupt({"question": f"File a report for {state['case_id']}?"})
    return {"decision": "file" if answer else "close"}


sub_builder = StateGraph(Case)
sub_builder.add_node("ask", ask)
sub_builder.add_edge(START, "ask")
sub_builder.add_edge("ask", END)
review_graph = sub_builder.compile()


async def review(state: Case) -> dict:
    runs["review"] += 1  # counts again on resume: the parent node re-runs
    return await review_graph.ainvoke(state)  # awaited: the browser's Python has no threads to block


builder = StateGraph(Case)
builder.add_node("review", review)
builder.add_edge(START, "review")
builder.add_edge("review", END)
graph = builder.compile(checkpointer=InMemorySaver())

if __name__ == "__main__":
    import asyncio

    async def main() -> None:  # a graph with an async node runs with ainvoke
        config = {"configurable": {"thread_id": "case-9"}}
        await graph.ainvoke({"case_id": "C-9", "decision": ""}, config)
        print((await graph.aget_state(config)).next)
        print(await graph.ainvoke(Command(resume=True), config))

    asyncio.run(main())
    print(runs)
    assert runs == {"review": 2, "ask": 2}
