"""The playground's Python side on CPython: a learner's LangGraph program loads on lab (``langgraph.*``
answered by ``lab`` only while it loads), its graph is found, every problem is reported at its line in
LangGraph's words, ``lab.world`` records what a node does to the outside world, and every gallery
program runs on real LangGraph (and, where lab has the features already, on lab with the same answers).
"""

from __future__ import annotations

import ast
import contextlib
import runpy
import sys
import types
import typing
from pathlib import Path

import pytest

import lab.graph
from gallery import FOLDER, GALLERY, gallery_listing
from lab.playground import (
    MAX_PROGRAM_BYTES,
    NotInLabError,
    ProgramError,
    describe_run_error,
    langgraph_resolves_to_lab,
    load_program,
)
from lab.world import MemoryWorld, charge, send_email, use_recorder
from tests.differential.flavours import load_flavour
from tests.differential.show import first_difference
from tests.differential.trace import Trace
from tests.langgraph_docs_examples import PERSISTENCE

HEADER = """\
from typing import TypedDict
from langgraph.graph import StateGraph, START, END
from langgraph.checkpoint.memory import InMemorySaver

class State(TypedDict):
    n: int
"""
HEADER_LINES = HEADER.count("\n")


def program(body: str) -> str:
    return HEADER + body


def one_node(function: str, name: str = "graph") -> str:
    """A program whose graph runs ``function`` (named ``work``) once."""
    return program(
        f"{function}\n"
        "builder = StateGraph(State)\n"
        "builder.add_node('work', work)\n"
        "builder.add_edge(START, 'work')\n"
        f"{name} = builder.compile(checkpointer=InMemorySaver())\n"
    )


def problem_of(source: str) -> dict:
    with pytest.raises(ProgramError) as refused:
        load_program(source)
    return refused.value.problem.as_dict()


def run_problem(source: str) -> dict:
    loaded = load_program(source)
    with pytest.raises(Exception) as failed:
        loaded.graph.invoke({"n": 0}, {"configurable": {"thread_id": "t"}})
    return describe_run_error(loaded, failed.value).as_dict()


# -- langgraph imports answered by lab, only while a program loads ------------------------------------


def test_langgraph_names_are_labs_own_objects_inside_the_context() -> None:
    with langgraph_resolves_to_lab():
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.graph import START, StateGraph
        from langgraph.types import interrupt

    from lab.checkpoint.memory import InMemorySaver as LabSaver
    from lab.types import interrupt as lab_interrupt

    assert (StateGraph, START, InMemorySaver, interrupt) == (
        lab.graph.StateGraph,
        lab.graph.START,
        LabSaver,
        lab_interrupt,
    )


def test_real_langgraph_modules_are_put_back_untouched() -> None:
    import langgraph.graph as real

    with langgraph_resolves_to_lab():
        import langgraph.graph as inside

        assert inside.StateGraph is lab.graph.StateGraph
    import langgraph.graph as after

    assert after is real and sys.modules["langgraph.graph"] is real
    assert after.StateGraph is not lab.graph.StateGraph
    assert not [
        finder for finder in sys.meta_path if type(finder).__module__ == "lab.playground.langgraph_imports"
    ]


def test_a_langgraph_module_lab_does_not_have_is_refused_by_name() -> None:
    with langgraph_resolves_to_lab(), pytest.raises(NotInLabError, match=r"langgraph\.checkpoint\.sqlite"):
        import langgraph.checkpoint.sqlite  # noqa: F401
    said = problem_of("import os\nfrom langgraph.checkpoint.sqlite import SqliteSaver\n")
    assert (said["kind"], said["line"], said["say"]["params"]["module"]) == (
        "not_in_lab",
        2,
        "langgraph.checkpoint.sqlite",
    )
    assert "langgraph.graph" in said["say"]["text"]


# -- problems at their line ------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["requests", "openai", "langchain_openai"])
def test_a_network_client_is_refused_by_name_even_where_installed(module: str) -> None:
    said = problem_of(program(f"import {module}\n"))
    assert (said["kind"], said["line"]) == ("network_module", HEADER_LINES + 1)
    assert said["say"]["params"]["module"] == module and module in said["say"]["text"]


def test_a_module_the_browser_lacks_is_named() -> None:
    said = problem_of(program("from not_a_module_anywhere.sub import thing\n"))
    assert (said["kind"], said["line"], said["say"]["params"]["module"]) == (
        "missing_module",
        HEADER_LINES + 1,
        "not_a_module_anywhere",
    )


def test_a_syntax_error_is_reported_at_its_line_and_column() -> None:
    said = problem_of(program("def work(state):\n    return {'n': (1 +}\n"))
    assert (said["kind"], said["line"], said["column"]) == ("syntax", HEADER_LINES + 2, 22)  # at the "}"
    assert said["say"]["text"].startswith("SyntaxError: ")


def test_an_exception_while_loading_is_reported_at_its_line() -> None:
    said = problem_of(program("limits = {}\nlimit = limits['daily']\n"))
    assert (said["kind"], said["line"], said["say"]["params"]["error"]) == (
        "load",
        HEADER_LINES + 2,
        "KeyError: 'daily'",
    )


def test_an_exception_in_a_node_names_the_node_and_the_helpers_line() -> None:
    said = run_problem(
        one_node(
            "def price(n):\n    return 10 / n\n\ndef work(state):\n    return {'n': price(state['n'])}\n"
        )
    )
    assert (said["kind"], said["line"]) == ("node", HEADER_LINES + 2)
    assert said["say"]["params"]["name"] == "work"
    assert (
        said["say"]["params"]["error"] == "ZeroDivisionError: division by zero"
    )  # LangGraph's note left out


def test_an_exception_in_a_router_names_the_router() -> None:
    said = run_problem(
        program(
            "def route(state):\n    return ['left', 'right'][state['n'] + 5]\n\n"
            "builder = StateGraph(State)\n"
            "builder.add_node('left', lambda state: {})\nbuilder.add_node('right', lambda state: {})\n"
            "builder.add_conditional_edges(START, route)\n"
            "graph = builder.compile(checkpointer=InMemorySaver())\n"
        )
    )
    assert (said["kind"], said["line"], said["say"]["params"]["name"]) == (
        "router",
        HEADER_LINES + 2,
        "route",
    )
    assert said["say"]["params"]["error"] == "IndexError: list index out of range"


def test_a_program_of_several_megabytes_is_refused_before_it_runs() -> None:
    said = problem_of("raise SystemExit('never run')\n" + "#" * (3 * 2**20))
    assert said["kind"] == "too_large" and said["say"]["params"]["limit"] == MAX_PROGRAM_BYTES
    assert str(MAX_PROGRAM_BYTES) in said["say"]["text"]


# -- finding the graph -------------------------------------------------------------------------------


def test_the_one_compiled_graph_is_found_whatever_its_name() -> None:
    loaded = load_program(one_node("def work(state):\n    return {'n': state['n'] + 1}\n", name="app"))
    assert loaded.graph_name == "app"
    assert loaded.graph.invoke({"n": 1}, {"configurable": {"thread_id": "t"}}) == {"n": 2}


def test_one_graph_under_two_names_is_one_graph() -> None:
    loaded = load_program(one_node("def work(state):\n    return {}\n", name="app") + "also = app\n")
    assert loaded.graph_name == "app"


def test_two_graphs_need_one_named_graph() -> None:
    two = one_node("def work(state):\n    return {}\n", name="first") + "second = builder.compile()\n"
    said = problem_of(two)
    assert (said["kind"], said["say"]["params"]["names"]) == ("several_graphs", "first, second")
    assert load_program(two + "graph = second\n").graph_name == "graph"


INNER_AND_OUTER = program(
    "def inc(state):\n    return {'n': state['n'] + 1}\n"
    "inner_builder = StateGraph(State)\n"
    "inner_builder.add_node('inc', inc)\n"
    "inner_builder.add_edge(START, 'inc')\n"
    "inner = inner_builder.compile()\n"
    "def call_inner(state):\n    return inner.invoke(state)\n"
    "outer_builder = StateGraph(State)\n"
    "outer_builder.add_node('call_inner', call_inner)\n"
    "outer_builder.add_edge(START, 'call_inner')\n"
    "outer = outer_builder.compile()\n"
)
"""Two graphs, none named ``graph``: ``outer``'s node invokes ``inner`` (the docs' three-level subgraphs)."""


def test_a_graph_a_node_invokes_does_not_count_so_the_outermost_is_the_graph() -> None:
    loaded = load_program(INNER_AND_OUTER)
    assert loaded.graph_name == "outer"
    assert loaded.graph.invoke({"n": 1}) == {"n": 2}


def test_of_several_graphs_none_named_graph_the_one_the_script_runs_is_picked() -> None:
    two = one_node("def work(state):\n    return {}\n", name="first") + "second = builder.compile()\n"
    script = "if __name__ == '__main__':\n    print(second.invoke({'n': 1}))\n"
    assert load_program(two + script).graph_name == "second"
    assert load_program(two + "second.invoke({'n': 1})\n").graph_name == "second"


def test_a_top_level_call_on_something_else_than_a_graph_runs_while_the_program_loads() -> None:
    """A notebook calls its chat model (``llm.invoke(...)``) before it builds a graph: that line runs
    as the program loads; the script starts at the first call on a graph. The parts run apart keep
    the program's ``from __future__`` imports (an annotation naming what is defined later)."""
    source = "from __future__ import annotations\n" + program(
        "class Echo:\n    def invoke(self, text):\n        return text.upper()\n"
        "llm = Echo()\n"
        "shout = llm.invoke('hi')\n"
        "def work(state: Later) -> dict:\n    return {'n': len(shout)}\n"
        "builder = StateGraph(State)\n"
        "builder.add_node('work', work)\n"
        "builder.add_edge(START, 'work')\n"
        "graph = builder.compile()\n"
        "print(graph.invoke({'n': 0}))\n"
    )
    loaded = load_program(source)
    assert loaded.module.shout == "HI"
    last = source.count("\n")
    assert (loaded.start, loaded.skipped) == (len(ast.parse(source).body) - 1, (last, last))
    assert loaded.graph.invoke({"n": 0}) == {"n": 2}


def test_no_graph_and_an_uncompiled_builder_are_told_apart() -> None:
    assert problem_of(program("x = 1\n"))["kind"] == "no_graph"
    said = problem_of(program("builder = StateGraph(State)\n"))
    assert (said["kind"], said["say"]["params"]["name"]) == ("not_compiled", "builder")


STORE_ONLY = """\
from langgraph.store.memory import InMemoryStore
store = InMemoryStore()
store.put(("1", "memories"), "m1", {"food": "pizza"})
print([item.value for item in store.search(("1", "memories"))])
print("done")
"""


def test_a_program_that_builds_no_graph_loads_graphless_as_plain_python_with_what_it_printed() -> None:
    loaded = load_program(STORE_ONLY, graphless=True)
    assert (loaded.graph_name, loaded.graph, loaded.script) == (None, None, None)
    assert loaded.printed == "[{'food': 'pizza'}]\ndone\n"
    assert problem_of(STORE_ONLY)["kind"] == "no_graph"  # refused where a graph is needed (a challenge)


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        (program("builder = StateGraph(State)\n"), "not_compiled"),  # a bad graph
        (
            one_node("def work(state):\n    return {}\n", name="one") + "two = builder.compile()\n",
            "several_graphs",
        ),
        ("x = 1\nif __name__ == '__main__':\n    print(x)\n", "no_graph"),  # a script needs a graph
    ],
)
def test_graphless_loading_still_refuses_a_bad_graph_several_graphs_and_a_script(
    source: str, kind: str
) -> None:
    with pytest.raises(ProgramError) as refused:
        load_program(source, graphless=True)
    assert refused.value.problem.kind == kind


def test_the_main_block_is_skipped_and_annotations_resolve_in_the_programs_module() -> None:
    source = (
        "from __future__ import annotations\nfrom dataclasses import dataclass\n"
        + one_node("def work(state):\n    return {'n': state['n'] * 2}\n")
        + "if __name__ == '__main__':\n    raise SystemExit('a terminal run, not the playground')\n"
    )
    loaded = load_program(source)
    assert (
        loaded.module.__name__ == "playground_program" and sys.modules["playground_program"] is loaded.module
    )
    assert loaded.graph.invoke({"n": 3}, {"configurable": {"thread_id": "t"}}) == {"n": 6}


# -- lab.world: the outside world a node may call -----------------------------------------------------


def test_a_charge_inside_a_node_records_its_call_site_and_a_known_key_replays() -> None:
    loaded = load_program(
        one_node(
            "from lab.world import charge\n\ndef work(state):\n"
            "    charge(12.5, 'export', idempotency_key='export-1')\n"
            "    charge(12.5, 'export', idempotency_key='export-1')\n    return {}\n"
        )
    )
    with use_recorder(MemoryWorld()) as ledger:
        loaded.graph.invoke({"n": 0}, {"configurable": {"thread_id": "order-7"}})
    first, second = ledger.rows
    assert (first["kind"], first["amount_cents"], first["purpose"], first["replayed"]) == (
        "charge",
        1250,
        "export",
        False,
    )
    assert (first["thread_id"], first["node"]) == ("order-7", "work") and first["task_id"]
    assert (second["id"], second["replayed"], second["amount_cents"]) == (first["id"], True, 0)


def test_world_calls_outside_a_node_have_no_call_site_and_the_recorder_is_restored() -> None:
    outer = MemoryWorld()
    with use_recorder(outer):
        with use_recorder(MemoryWorld()) as inner:
            receipt = send_email("ana@example.com", "Case closed")
        charge(1, "one query")
    assert receipt["kind"] == "email" and receipt["node"] is None and receipt["id"] == "em_0001"
    assert [row["purpose"] for row in inner.rows] == ["email to ana@example.com: Case closed"]
    assert [(row["kind"], row["amount_cents"]) for row in outer.rows] == [("charge", 100)]


# -- the gallery --------------------------------------------------------------------------------------

LAB_RUNS_TODAY = {entry.id for entry in GALLERY}
"""Every gallery program runs on lab with LangGraph's answers (five_minutes needs MessagesState,
subgraph_interrupt a subgraph invoked inside a node: both came with issue 23)."""


def test_the_gallery_lists_every_program_file_with_both_languages() -> None:
    files = {path.stem for path in Path(FOLDER).glob("*.py")} - {"__init__"}
    assert {entry.id for entry in GALLERY} == files
    for entry in gallery_listing():
        assert set(entry["title"]) == set(entry["about"]) == {"en", "zh"}
        assert "from langgraph" in entry["source"] and "__main__" in entry["source"]


def run_as_a_terminal_does(source: str, on: str, monkeypatch) -> dict:
    """Run a program as ``python <file>`` would (a gallery program's ``__main__`` part asserts what the
    runtime answered), on real LangGraph (``on="langgraph"``) or on lab; its globals."""
    main = types.ModuleType("__main__")  # a terminal run: its TypedDicts resolve in this module
    monkeypatch.setitem(sys.modules, "__main__", main)
    with langgraph_resolves_to_lab() if on == "lab" else contextlib.nullcontext():
        exec(compile(source, "program.py", "exec"), vars(main))
    return vars(main)


def frames(program: dict, on: str) -> dict:
    """Every frame the program left, normalised as the differential suite does (tests/differential/
    trace.py): each thread's checkpoint history, oldest first, with steps, next, values, sources,
    tasks, pending writes and interrupts, subgraph namespaces, ids as placeholders."""
    graph = program["graph"]
    threads = sorted({saved.config["configurable"]["thread_id"] for saved in graph.checkpointer.list(None)})
    assert threads, "the program ran no thread: nothing to compare"
    trace = Trace(load_flavour(on))
    trace.adopt(graph, threads)
    return trace.finish()


@pytest.mark.parametrize("entry", GALLERY, ids=lambda entry: entry.id)
def test_each_gallery_program_runs_to_its_end_on_real_langgraph(entry, capsys) -> None:
    import langgraph.graph

    assert langgraph.graph.StateGraph is not lab.graph.StateGraph  # the real one is the oracle here
    runpy.run_path(
        str(Path(FOLDER) / f"{entry.id}.py"), run_name="__main__"
    )  # its asserts: LangGraph's answers
    assert capsys.readouterr().out


@pytest.mark.parametrize("entry_id", sorted(LAB_RUNS_TODAY))
def test_gallery_programs_give_langgraphs_answers_and_frames_on_lab(entry_id: str, monkeypatch) -> None:
    source = (Path(FOLDER) / f"{entry_id}.py").read_text()
    loaded = load_program(source)
    assert loaded.graph_name == "graph"
    assert loaded.example, "the page starts a thread with the input of the program's own first invoke"
    assert_same_frames(source, monkeypatch)  # and the program's own asserts held on both


def assert_same_frames(source: str, monkeypatch) -> None:
    expected = frames(run_as_a_terminal_does(source, "langgraph", monkeypatch), "langgraph")
    actual = frames(run_as_a_terminal_does(source, "lab", monkeypatch), "lab")
    assert any(key.startswith("history[") and value["checkpoints"] for key, value in expected.items())
    assert actual == expected, f"lab's frames differ at {first_difference(expected, actual)}"


# -- a program pasted from LangGraph's docs -------------------------------------------------------------


def test_the_docs_persistence_example_leaves_langgraphs_frames_on_lab(monkeypatch) -> None:
    assert_same_frames(PERSISTENCE, monkeypatch)  # invoke, get_state, get_state_history, update_state


def test_the_docs_persistence_example_loads_where_langchain_core_and_typing_extensions_are_not(
    monkeypatch,
) -> None:
    """In the browser neither package is installed: lab.runnables and typing stand in for them."""
    import lab.runnables
    from lab.playground import langgraph_imports

    monkeypatch.setattr(langgraph_imports, "installed", lambda package: False)
    loaded = load_program(PERSISTENCE)
    assert loaded.module.RunnableConfig is lab.runnables.RunnableConfig
    assert loaded.module.TypedDict is typing.TypedDict
    invoke_line = PERSISTENCE.splitlines().index('graph.invoke({"foo": "", "bar":[]}, config)') + 1
    assert loaded.skipped == (invoke_line, PERSISTENCE.count("\n"))  # the top-level driving lines
    assert loaded.example == {"foo": "", "bar": []}
    config = {"configurable": {"thread_id": "1"}}
    assert loaded.graph.invoke(loaded.example, config) == {"foo": "b", "bar": ["a", "b"]}
    assert len(list(loaded.graph.get_state_history(config))) == 4


def test_every_problem_is_said_in_both_catalogues_as_python_says_it() -> None:
    from lab.playground.problems import TEXTS
    from tests.test_said_in_both_languages import catalogue, is_chinese

    english, chinese = catalogue("en"), catalogue("zh")
    for kind, text in TEXTS.items():
        assert english[f"py.play.{kind}"] == text
        assert is_chinese(chinese[f"py.play.{kind}"]), kind


def test_langchain_core_messages_resolve_to_lab_messages_where_langchain_core_is_not_installed(monkeypatch):
    """The browser has no langchain_core: a program's ``from langchain_core.messages import ...`` gets
    lab.messages' classes there, while it loads; where it is installed, it is langchain_core itself."""
    import lab.messages
    from lab.playground import langgraph_imports

    source = program(
        "from langchain_core.messages import HumanMessage\n"
        "def work(state: State) -> dict:\n"
        "    return {}\n"
        "builder = StateGraph(State)\n"
        "builder.add_node('work', work)\n"
        "builder.add_edge(START, 'work')\n"
        "graph = builder.compile()\n"
    )
    monkeypatch.setattr(langgraph_imports, "installed", lambda package: package != "langchain_core")
    assert load_program(source).module.HumanMessage is lab.messages.HumanMessage
    assert "langchain_core.messages" not in sys.modules or sys.modules["langchain_core.messages"].__file__


UNTRACKED_PROGRAM = """
import operator, threading
from typing import Annotated, TypedDict
from langgraph.channels.untracked_value import UntrackedValue
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph

class State(TypedDict):
    log: Annotated[list, operator.add]
    lock: Annotated[object, UntrackedValue]

def take(state):
    return {"log": ["took"], "lock": threading.Lock()}

def use(state):
    return {"log": [f"used a lock: {state['lock'] is not None}"]}

graph = StateGraph(State).add_node(take).add_node(use).add_edge(START, "take").add_edge("take", "use")
graph = graph.compile(checkpointer=InMemorySaver())
"""


def test_an_untracked_value_is_imported_by_langgraphs_path_and_never_saved() -> None:
    """``langgraph.channels.untracked_value`` is answered by lab on /play: a lock (which no saver can
    store) passes from node to node and is absent from the saved state."""
    from lab.playground import load_program

    graph = load_program(UNTRACKED_PROGRAM).graph
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"log": []}, config)["log"] == ["took", "used a lock: True"]
    assert "lock" not in graph.get_state(config).values


def test_langgraphs_other_channel_classes_are_refused_by_name() -> None:
    from lab.playground import ProgramError, load_program

    with pytest.raises(ProgramError, match=r"lab does not support langgraph\.channels\.NamedBarrierValue"):
        load_program("from langgraph.channels import NamedBarrierValue\n" + UNTRACKED_PROGRAM)
