"""The Functional API: a workflow is a plain function (@entrypoint) that calls tasks (@task) and may
ask with interrupt(). On resume the function runs again from its first line; the task that already
finished is not run again: its saved result comes back from the checkpoint. (LangGraph's docs, "Use the
functional API": review a draft.)"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt

drafts = []


@task
def write_essay(topic: str) -> str:
    drafts.append(topic)  # counts the drafts written: one, however often the workflow re-runs
    return f"An essay about {topic}"


@entrypoint(checkpointer=InMemorySaver())
def graph(topic: str) -> dict:
    essay = write_essay(topic).result()
    approved = interrupt({"question": "Publish this essay?", "essay": essay})
    return {"essay": essay, "published": bool(approved)}


if __name__ == "__main__":
    config = {"configurable": {"thread_id": "essay-1"}}
    asked = graph.invoke("cats", config)
    print(asked["__interrupt__"][0].value)
    done = graph.invoke(Command(resume=True), config)
    print(done, drafts)
    assert done == {"essay": "An essay about cats", "published": True}
    assert drafts == ["cats"]  # the resumed run got the draft back from the checkpoint
