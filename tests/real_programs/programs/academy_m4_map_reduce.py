# Source: LangChain Academy, github.com/langchain-ai/langchain-academy, module-4/map-reduce.ipynb (commit fa15bec),
# its code cells in order.
# Changed: the %pip cell and the API-key cells (_set_env) dropped; display(Image(graph.get_graph().draw_mermaid_png())) printed as
# print(graph.get_graph().draw_mermaid()) (the diagram's text: no IPython, no network); a cell's last
# expression, which Jupyter displays, wrapped in print(...). ChatOpenAI replaced by LangChain's GenericFakeChatModel with fixed replies, as tool calls (a subclass whose bind_tools returns itself, so that with_structured_output parses them; the three parallel jokes alike, since which parallel call gets which reply is a race); Image(...draw_mermaid_png()) printed as the diagram's text.

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage


class FakeChatModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self

# Prompts we will use
subjects_prompt = """Generate a list of 3 sub-topics that are all related to this overall topic: {topic}."""
joke_prompt = """Generate a joke about {subject}"""
best_joke_prompt = """Below are a bunch of jokes about {topic}. Select the best one! Return the ID of the best one, starting 0 as the ID for the first joke. Jokes: \n\n  {jokes}"""

# LLM
joke = "Why don't mammals ever get lost? Because they always follow their instincts!"
model = FakeChatModel(messages=iter([
    AIMessage(content="", tool_calls=[{"name": "Subjects", "args": {"subjects": ["mammals", "reptiles", "birds"]}, "id": "call_1"}]),
    AIMessage(content="", tool_calls=[{"name": "Joke", "args": {"joke": joke}, "id": "call_2"}]),
    AIMessage(content="", tool_calls=[{"name": "Joke", "args": {"joke": joke}, "id": "call_3"}]),
    AIMessage(content="", tool_calls=[{"name": "Joke", "args": {"joke": joke}, "id": "call_4"}]),
    AIMessage(content="", tool_calls=[{"name": "BestJoke", "args": {"id": 1}, "id": "call_5"}]),
]))

import operator
from typing import Annotated
from typing_extensions import TypedDict
from pydantic import BaseModel

class Subjects(BaseModel):
    subjects: list[str]

class BestJoke(BaseModel):
    id: int
    
class OverallState(TypedDict):
    topic: str
    subjects: list
    jokes: Annotated[list, operator.add]
    best_selected_joke: str

def generate_topics(state: OverallState):
    prompt = subjects_prompt.format(topic=state["topic"])
    response = model.with_structured_output(Subjects).invoke(prompt)
    return {"subjects": response.subjects}

from langgraph.types import Send
def continue_to_jokes(state: OverallState):
    return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]

class JokeState(TypedDict):
    subject: str

class Joke(BaseModel):
    joke: str

def generate_joke(state: JokeState):
    prompt = joke_prompt.format(subject=state["subject"])
    response = model.with_structured_output(Joke).invoke(prompt)
    return {"jokes": [response.joke]}

def best_joke(state: OverallState):
    jokes = "\n\n".join(state["jokes"])
    prompt = best_joke_prompt.format(topic=state["topic"], jokes=jokes)
    response = model.with_structured_output(BestJoke).invoke(prompt)
    return {"best_selected_joke": state["jokes"][response.id]}

from langgraph.graph import END, StateGraph, START

# Construct the graph: here we put everything together to construct our graph
graph = StateGraph(OverallState)
graph.add_node("generate_topics", generate_topics)
graph.add_node("generate_joke", generate_joke)
graph.add_node("best_joke", best_joke)
graph.add_edge(START, "generate_topics")
graph.add_conditional_edges("generate_topics", continue_to_jokes, ["generate_joke"])
graph.add_edge("generate_joke", "best_joke")
graph.add_edge("best_joke", END)

# Compile the graph
app = graph.compile()
print(app.get_graph().draw_mermaid())

# Call the graph: here we call it to generate a list of jokes
for s in app.stream({"topic": "animals"}):
    print(s)
