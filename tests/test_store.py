"""``lab.store`` (LangGraph's ``langgraph.store``): the in-memory store next to LangGraph's own (the same
calls made on both give the same answers), and what the differential scenarios
(``tests/differential/scenarios_store.py``) do not show: ``batch``, the async twins, the reprs, which
annotations of a ``store`` parameter are filled, ``runtime.store`` in an async node, what is refused."""

import asyncio
from datetime import UTC, datetime
from typing import Any, Optional, TypedDict

import pytest
from langgraph.store import base as lg_base
from langgraph.store.memory import InMemoryStore as LangGraphStore

from lab.checkpoint.memory import InMemorySaver
from lab.config import get_store
from lab.func import entrypoint
from lab.graph import START, StateGraph
from lab.graph.unsupported import NotSupportedError
from lab.playground import load_program
from lab.playground.session import lab_graph
from lab.store import BaseStore, GetOp, InMemoryStore, Item, ListNamespacesOp, PutOp, SearchItem, SearchOp

WHEN = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)


def both() -> list[Any]:
    return [LangGraphStore(), InMemoryStore()]


def stored(store: Any) -> list[tuple]:
    """What a store holds, without the clock's times."""
    return [(item.namespace, item.key, item.value, item.score) for item in store.search((), limit=100)]


def test_item_and_search_item_print_as_langgraphs() -> None:
    fields = {
        "namespace": ("u", "m"),
        "key": "k",
        "value": {"a": [1]},
        "created_at": WHEN,
        "updated_at": WHEN,
    }
    assert repr(Item(**fields)) == repr(lg_base.Item(**fields))
    assert Item(**fields).dict() == lg_base.Item(**fields).dict()
    found = ("u", "m"), "k", {"a": 1}, WHEN, WHEN.isoformat()
    assert repr(SearchItem(*found)) == repr(lg_base.SearchItem(*found))
    assert SearchItem(*found).updated_at == WHEN, "an ISO string is read back as a datetime"
    assert SearchItem(*found) == Item(**fields | {"value": {"a": 1}}), "the score is not compared"
    assert hash(Item(**fields)) == hash(SearchItem(*found))


def test_a_batch_reads_before_it_writes_as_langgraphs() -> None:
    """Reads see the store as it was before the batch; of two puts of one item the last wins."""

    def run(store: Any, ops: Any) -> list:
        store.put(("n",), "k", {"v": 0})
        results = store.batch(ops(lg_base if isinstance(store, LangGraphStore) else None))
        return [[getattr(i, "value", i) for i in r] if isinstance(r, list) else r for r in results] + stored(
            store
        )

    def ops(module: Any) -> list:
        get, put, search, listing = (
            (module.GetOp, module.PutOp, module.SearchOp, module.ListNamespacesOp)
            if module
            else (GetOp, PutOp, SearchOp, ListNamespacesOp)
        )
        return [
            put(("n",), "k", {"v": 1}),
            search(("n",)),
            put(("n",), "k", {"v": 2}),
            put(("m",), "j", {"v": 3}),
            listing(),
            put(("n",), "k", None),
            put(("n",), "k", {"v": 4}),
        ]

    langgraph, lab = (run(store, ops) for store in both())
    assert lab == langgraph
    assert lab[1] == [{"v": 0}] and lab[4] == [("n",)]


def test_the_async_twins_answer_as_the_sync_methods() -> None:
    async def use(store: Any) -> list:
        await store.aput(("u", "m"), "a", {"x": 1})
        await store.aput(("u", "p"), "b", {"x": 2})
        await store.adelete(("u", "p"), "b")
        got = await store.aget(("u", "m"), "a")
        found = await store.asearch(("u",), filter={"x": {"$gte": 1}}, limit=5)
        return [got.value, [i.key for i in found], await store.alist_namespaces(prefix=("u",), max_depth=2)]

    langgraph, lab = (asyncio.run(use(store)) for store in both())
    assert lab == langgraph == [{"x": 1}, ["a"], [("u", "m"), ("u", "p")]]


def test_a_put_replaces_the_item_and_stamps_it_anew() -> None:
    store = InMemoryStore()
    store.put(("u",), "k", {"a": 1, "b": 2})
    first = store.get(("u",), "k")
    value = {"a": 3}
    store.put(("u",), "k", value)
    again = store.get(("u",), "k")
    value["a"] = 99
    assert again.value == {"a": 3}, "the store keeps a copy of what it was given"
    assert first.created_at <= again.created_at and again.created_at.tzinfo is UTC


def test_semantic_search_is_refused_by_name() -> None:
    with pytest.raises(NotSupportedError, match=r"InMemoryStore\(index=\.\.\.\)"):
        InMemoryStore(index={"dims": 2, "embed": lambda texts: [[0.0, 1.0] for _ in texts]})


class Seen(TypedDict):
    seen: list


def graph_with(node: Any, **compile: Any) -> Any:
    return StateGraph(Seen).add_node("node", node).add_edge(START, "node").compile(**compile)


def is_given(store: Any) -> str:
    return "store" if isinstance(store, BaseStore) else repr(store)


def plain(state: Seen, store) -> dict:
    return {"seen": [is_given(store)]}


def typed(state: Seen, store: BaseStore) -> dict:
    return {"seen": [is_given(store)]}


def optional(state: Seen, store: Optional[BaseStore]) -> dict:  # noqa: UP045  (LangGraph's spelling)
    return {"seen": [is_given(store)]}


def by_name(state: Seen, store: "BaseStore") -> dict:  # noqa: UP037  (a string annotation)
    return {"seen": [is_given(store)]}


@pytest.mark.parametrize("node", [plain, typed, optional, by_name])
def test_a_store_parameter_is_filled_unannotated_or_annotated_as_a_store(node: Any) -> None:
    assert graph_with(node, store=InMemoryStore()).invoke({"seen": []}) == {"seen": ["store"]}
    assert graph_with(node).invoke({"seen": []}) == {"seen": ["None"]}, "no store: None"


def test_a_store_parameter_annotated_otherwise_is_not_filled_as_in_langgraph() -> None:
    def other(state: Seen, store: dict) -> dict:
        return {"seen": [store]}

    with pytest.raises(TypeError, match="missing 1 required positional argument: 'store'"):
        graph_with(other, store=InMemoryStore()).invoke({"seen": []})


def test_an_async_node_reaches_the_store_through_its_runtime_and_get_store() -> None:
    store = InMemoryStore()

    async def node(state: Seen, runtime: Any) -> dict:
        await runtime.store.aput(("notes",), "n", {"text": "hi"})
        return {"seen": [get_store() is runtime.store is store]}

    assert asyncio.run(graph_with(node, store=store).ainvoke({"seen": []})) == {"seen": [True]}
    assert store.get(("notes",), "n").value == {"text": "hi"}


def test_get_store_outside_a_node_is_refused_as_in_langgraph() -> None:
    with pytest.raises(RuntimeError, match="outside of a runnable context"):
        get_store()


PROGRAM = """
from langgraph.graph import StateGraph, START
from langgraph.store.memory import InMemoryStore
from langgraph.store.base import BaseStore
from typing import TypedDict

class State(TypedDict):
    user: str

def remember(state: State, store: BaseStore) -> dict:
    store.put((state["user"], "memories"), "m", {"food": "pizza"})
    return {}

store = InMemoryStore()
graph = StateGraph(State).add_node("remember", remember).add_edge(START, "remember").compile(store=store)
graph.invoke({"user": "ada"})
"""


def test_a_playground_program_imports_the_store_and_the_page_runs_its_graph_with_it() -> None:
    """The page runs the program's graph compiled again with its own saver (``lab_graph``): the
    program's store goes with it."""
    program = load_program(PROGRAM)
    store = vars(program.module)["store"]
    assert isinstance(store, InMemoryStore)
    lab_graph(program.graph, InMemorySaver()).invoke({"user": "ada"}, {"configurable": {"thread_id": "t"}})
    assert store.get(("ada", "memories"), "m").value == {"food": "pizza"}


def test_the_page_runs_an_entrypoint_with_its_store() -> None:
    store = InMemoryStore()

    @entrypoint(store=store)
    def remember(food: str, store) -> str:
        store.put(("ada",), "food", {"food": food})
        return food

    lab_graph(remember, InMemorySaver()).invoke("soup", {"configurable": {"thread_id": "t"}})
    assert store.get(("ada",), "food").value == {"food": "soup"}
