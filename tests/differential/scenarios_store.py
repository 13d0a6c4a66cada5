"""The long-term memory store (issue 34), on LangGraph and on the lab: ``InMemoryStore``'s API, and a
graph given one with ``compile(store=...)`` / ``@entrypoint(store=...)`` whose nodes and tasks reach it
as a ``store`` parameter, ``runtime.store`` and ``get_store()``, what one thread stores read by another.

An item is recorded as what a program would print of it, but for its times (they are the clock's):
those are recorded as their type and time zone, and whether ``updated_at`` is not before ``created_at``.
"""

from typing import Any, TypedDict

from .scenarios import scenario
from .trace import Trace, thread


def shown(item: Any) -> Any:
    """An item (or ``None``) as a trace holds it: its ``dict()`` with the times by kind."""
    if item is None:
        return None
    fields = item.dict()
    for key in ("created_at", "updated_at"):
        moment = getattr(item, key)
        fields[key] = f"{type(moment).__name__} {moment.tzinfo}"
    fields["in order"] = item.created_at <= item.updated_at
    fields["type"] = type(item).__name__
    return fields


def shown_all(items: list) -> list:
    return [shown(item) for item in items]


@scenario
def store_api(t: Trace) -> None:
    """``put`` (a replace), ``get``, ``search`` (prefix, filter with and without operators, limit and
    offset, ``query`` without embeddings), ``delete``, ``list_namespaces`` (prefix, suffix with ``*``,
    ``max_depth``, limit/offset) and the namespaces ``put`` refuses."""
    store = t.fl.InMemoryStore()
    t.call("put", store.put, ("u1", "memories"), "m1", {"food": "pizza", "stars": 3})
    t.call("put", store.put, ("u1", "memories"), "m2", {"food": "sushi", "stars": 5, "tags": ["a", "b"]})
    t.call("put", store.put, ("u1", "profile"), "p", {"name": "Ada", "address": {"city": "Paris"}})
    t.call("put", store.put, ("u2", "memories"), "m1", {"food": "soup", "stars": 1})
    t.call("put again", store.put, ("u1", "memories"), "m1", {"food": "pasta", "stars": 4})
    t.call("get", lambda: shown(store.get(("u1", "memories"), "m1")))
    t.call("get a missing key", lambda: shown(store.get(("u1", "memories"), "nope")))
    t.call("search", lambda: shown_all(store.search(("u1",))))
    t.call("search all", lambda: shown_all(store.search(())))
    t.call("filter", lambda: shown_all(store.search(("u1",), filter={"food": "sushi"})))
    t.call("filter $gt", lambda: [i.key for i in store.search((), filter={"stars": {"$gt": 3}})])
    t.call("filter $ne", lambda: [i.key for i in store.search((), filter={"stars": {"$ne": 4}})])
    t.call("filter nested", lambda: [i.key for i in store.search((), filter={"address": {"city": "Paris"}})])
    t.call("filter list", lambda: [i.key for i in store.search((), filter={"tags": ["a", "b"]})])
    t.call("filter operator", lambda: store.search((), filter={"stars": {"$in": [1]}}))
    t.call("limit offset", lambda: [i.key for i in store.search((), limit=2, offset=1)])
    t.call("query", lambda: [(i.key, i.score) for i in store.search(("u1",), query="food")])
    t.call("delete", store.delete, ("u1", "memories"), "m2")
    t.call("after delete", lambda: [i.key for i in store.search(("u1", "memories"))])
    t.call("get in a new namespace", lambda: shown(store.get(("u3", "x"), "k")))
    t.call("list_namespaces", store.list_namespaces)
    t.call("prefix", store.list_namespaces, prefix=("u1",))
    t.call("suffix", store.list_namespaces, suffix=("*", "memories"))
    t.call("max_depth", store.list_namespaces, max_depth=1)
    t.call("limit offset", store.list_namespaces, limit=2, offset=1)
    for bad in [(), ("langgraph", "x"), ("a.b",), ("",), ("a", 1)]:
        t.call(f"put in {bad!r}", store.put, bad, "k", {"v": 1})
    t.call("ttl", store.put, ("u1",), "k", {"v": 1}, ttl=5)
    t.call("get with a dot", store.get, ("a.b",), "k")


class Chat(TypedDict):
    user: str
    said: str
    recalled: list


def remember(state: Chat, store) -> dict:  # unannotated: LangGraph fills it
    """A node given the store by parameter: it stores what the user said, under the user."""
    store.put(
        (state["user"], "memories"),
        f"m{len(store.search((state['user'], 'memories')))}",
        {"said": state["said"]},
    )
    return {}


@scenario
def store_across_threads(t: Trace) -> None:
    """One store, two threads of one user (and one of another): the second thread recalls what the
    first stored; nodes reach the store by parameter, by ``runtime.store`` and by ``get_store()``;
    a subgraph's node reaches its parent's store."""
    fl = t.fl

    def recall(state: Chat, runtime: Any) -> dict:
        found = runtime.store.search((state["user"], "memories"))
        return {"recalled": [item.value["said"] for item in found]}

    def count(state: Chat) -> dict:
        namespaces = fl.get_store().list_namespaces()
        return {"recalled": [*state["recalled"], f"{len(namespaces)} namespaces"]}

    inner = fl.StateGraph(Chat)
    inner.add_node("count", count)
    inner.add_edge(fl.START, "count")
    builder = fl.StateGraph(Chat)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_node("inner", inner.compile())
    builder.add_edge(fl.START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", "inner")
    store = fl.InMemoryStore()
    app = t.compile(builder, store=store)
    t.invoke(app, {"user": "ada", "said": "I like pizza", "recalled": []}, thread("one"))
    t.invoke(app, {"user": "ada", "said": "I am in Paris", "recalled": []}, thread("two"))
    t.invoke(app, {"user": "bob", "said": "hi", "recalled": []}, thread("three"))
    t.call("the store", lambda: shown_all(store.search(())))
    t.call("without a store", lambda: t.compile(builder).invoke({"user": "x", "said": "", "recalled": []}))

    def typed_otherwise(state: Chat, store: int) -> dict:
        return {"said": repr(store)}

    odd = fl.StateGraph(Chat)
    odd.add_node("typed_otherwise", typed_otherwise)
    odd.add_edge(fl.START, "typed_otherwise")
    t.call("store: int is not filled", t.compile(odd, store=store).invoke, {"user": "x"}, thread("odd"))


@scenario
def store_in_entrypoint(t: Trace) -> None:
    """``@entrypoint(store=...)``: the entrypoint and a task it calls get the store by parameter (a
    call passing ``store=`` itself overrides it); without one they get ``None``."""
    fl = t.fl
    store = fl.InMemoryStore()

    @fl.task
    def note(text: str, store) -> str:
        if store is None:
            return "no store"
        store.put(("notes",), text, {"text": text})
        return f"noted {text}"

    def flow(text: str, store) -> list:
        return [note(text).result(), note("given", store=None).result(), [i.key for i in store.search(())]]

    app = fl.entrypoint(checkpointer=t.saver, store=store)(flow)
    t.adopt(app, ())
    t.invoke(app, "first", thread("a"))
    t.invoke(app, "second", thread("b"))

    def bare(text: str, store) -> Any:
        return [store, note(text).result()]

    t.call("without a store", fl.entrypoint()(bare).invoke, "x")
