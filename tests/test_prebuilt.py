"""``langgraph.prebuilt`` on lab (``lab.prebuilt``), with LangChain's tools and fake chat models or the
lab's pure-Python twins of them (``lab.plain_tools``, ``lab.plain_chat_models``), judged by real LangGraph
and real ``langchain_core``.

- Each program of ``tests/prebuilt_programs`` (``ToolNode``, ``tools_condition``, ``create_react_agent``,
  ``@tool``, the fake chat models, error handling, a reviewed tool call) prints the same on real
  LangGraph, on lab with LangChain's classes, and on lab as in the browser (``langchain_core`` and
  ``pydantic`` unimportable, so the twins answer), ids aside.
- The twins read as LangChain's: a tool's ``name``, ``description``, ``args``, what ``invoke`` returns
  and the words for bad arguments; a fake model's replies, their ids, its cycling and its refusals.
- The playground's resolver: ``langgraph.prebuilt`` and the LangChain modules these programs import
  resolve, ``langchain_core``'s own import of ``langsmith`` is let through, a program's own is refused by
  name (also when a library wrapped the refusal), and what lab leaves out of ``langgraph.prebuilt`` is
  refused by name.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal, TypedDict

import pytest
from langchain_core import tools as lc_tools
from langchain_core.language_models import fake_chat_models as lc_models
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from lab import plain_chat_models, plain_tools
from lab.graph.unsupported import UNSUPPORTED, NotSupportedError
from lab.playground import ProgramError, load_program
from lab.playground.problems import TEXTS, problem
from tests.forked_python import ForkedPython

REPO = Path(__file__).resolve().parents[1]
PROGRAMS = REPO / "tests" / "prebuilt_programs"
RUN_ON_LAB = PROGRAMS / "run_on_lab.py"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


ENV = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}


def printed(*command: str, given: str = "", preloaded: tuple[str, ...] = ()) -> str:
    """What ``python command...`` prints (run from the repository, on this worktree's lab, ``given`` as
    its input), ids as <id>. With ``preloaded``, modules the command imports anyway, the process is
    forked from one that has imported them (``tests/forked_python.py``): those imports are paid once."""
    if preloaded:
        done = forked_python(preloaded).run(list(command), given=given)
    else:
        done = subprocess.run(
            [sys.executable, *command],
            input=given,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
            env=ENV,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return UUID.sub("<id>", done.stdout)


@functools.cache
def forked_python(preload: tuple[str, ...]) -> ForkedPython:
    return ForkedPython([], list(preload), ENV, REPO)


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in PROGRAMS.glob("*.py") if p.stem[0] != "_" and p.stem != "run_on_lab")
)
def test_a_prebuilt_program_prints_what_langgraph_prints(name: str) -> None:
    program = str(PROGRAMS / f"{name}.py")
    langgraph = printed(program, preloaded=("langgraph.prebuilt",))  # each imports it
    assert langgraph.strip(), "the program prints nothing to compare"
    assert printed(str(RUN_ON_LAB), program, preloaded=("lab.playground", "lab.prebuilt")) == langgraph
    # not forked: --browser hides langchain_core and pydantic before lab is imported
    assert printed(str(RUN_ON_LAB), program, "--browser") == langgraph


# -- the twins of @tool / StructuredTool --------------------------------------------------------------


def both_tools(make: Any) -> list[Any]:
    """The tool ``make(tool_decorator)`` builds, with LangChain's ``tool`` and with the twin's."""
    return [make(lc_tools.tool), make(plain_tools.tool)]


def tool_outcome(tool: Any, tool_input: Any) -> Any:
    try:
        return ("ok", tool.invoke(tool_input))
    except Exception as error:  # pydantic's ValidationError, or the twin's: same errors()
        return ("error", [(e["loc"], e["msg"]) for e in error.errors()])  # type: ignore[attr-defined]


def test_a_tool_reads_as_langchains() -> None:
    def make(tool: Any) -> Any:
        @tool
        def lookup(
            city_name: str, days: int = 1, units: Literal["C", "F"] = "C", tags: list[str] | None = None
        ) -> str:
            """Look the weather up.

            Args:
                city_name: where
            """
            return f"{city_name} {days} {units} {tags}"

        return lookup

    real, twin = both_tools(make)
    assert (twin.name, twin.description, twin.return_direct) == (
        real.name,
        real.description,
        real.return_direct,
    )
    assert twin.args == real.args
    assert list(twin.args["tags"]) == list(real.args["tags"])  # keys in Pydantic's (sorted) order
    assert repr(twin).split(", args_schema")[0] == repr(real).split(", args_schema")[0]


@pytest.mark.parametrize(
    "tool_input",
    [
        {"a": "3", "b": 2.0, "flag": "yes", "items": ["1", 2], "mode": "x"},
        {"a": 3.5, "b": "z", "flag": "maybe", "items": 5, "mode": "q", "maybe": "n", "text": 3},
        {"a": True, "b": True, "flag": 1, "items": (1,), "mode": "y", "maybe": None},
        {"a": [], "b": None, "flag": 2, "items": ["a"], "mode": 1},
        {"b": 1, "flag": False, "items": [], "mode": "x", "extra": "ignored"},
    ],
)
def test_a_tools_arguments_are_checked_as_pydantic_checks_them(tool_input: dict) -> None:
    def make(tool: Any) -> Any:
        @tool
        def f(
            a: int,
            b: float,
            flag: bool,
            items: list[int],
            mode: Literal["x", "y"],
            maybe: int | None = None,
            text: str = "s",
        ) -> str:
            """F."""
            return repr((a, b, flag, items, mode, maybe, text))

        return f

    real, twin = both_tools(make)
    assert tool_outcome(twin, tool_input) == tool_outcome(real, tool_input)


def test_a_tool_answers_a_tool_call_with_a_tool_message_as_langchains() -> None:
    def make(tool: Any) -> Any:
        @tool("search", return_direct=True)
        def find(query: str) -> list:
            """Search."""
            return [1, {"a": "é"}]

        return find

    call = {"name": "search", "args": {"query": "q"}, "id": "c1", "type": "tool_call"}
    real, twin = both_tools(make)
    assert (twin.name, twin.return_direct) == ("search", True)
    assert (
        twin.invoke(call)
        == real.invoke(call)
        == ToolMessage('[1, {"a": "é"}]', name="search", tool_call_id="c1")
    )
    assert twin.invoke("q") == real.invoke("q") == [1, {"a": "é"}]  # a string: the one argument
    assert asyncio.run(twin.ainvoke(call)) == asyncio.run(real.ainvoke(call))


def test_the_twin_refuses_what_langchain_refuses_and_what_it_leaves_out() -> None:
    def undocumented(x: int) -> int:
        return x

    for tool in (lc_tools.tool, plain_tools.tool):
        with pytest.raises(ValueError, match="Function must have a docstring if description not provided."):
            tool(undocumented)
    with pytest.raises(NotSupportedError, match="args_schema"):
        plain_tools.tool(args_schema=dict)
    with pytest.raises(NotSupportedError, match="async tool"):

        @plain_tools.tool
        async def later(x: int) -> int:
            """Later."""
            return x


# -- the twins of the fake chat models ----------------------------------------------------------------


def replies(model: Any, count: int) -> list[Any]:
    """The model's next ``count`` replies."""
    return [model.invoke("hi") for _ in range(count)]


def without_ids(messages: list[Any]) -> list[tuple[str, Any, list]]:
    return [(m.content, m.tool_calls, UUID.sub("<id>", m.id)) for m in messages]


def test_fake_chat_models_reply_as_langchains() -> None:
    call = {"name": "f", "args": {}, "id": "1"}
    made = {
        module: (
            module.GenericFakeChatModel(messages=iter(["a", AIMessage("b", tool_calls=[call])])),
            module.FakeListChatModel(responses=["x", "y"]),
            module.FakeMessagesListChatModel(responses=[AIMessage("m", id="kept"), AIMessage("n")]),
        )
        for module in (lc_models, plain_chat_models)
    }
    outcomes = {}
    for module, (generic, listed, messages) in made.items():
        outcomes[module] = (
            without_ids(replies(generic, 2)),
            without_ids(replies(listed, 3)),
            listed.i,
            without_ids(replies(messages, 3)),
            messages.i,
            UUID.sub("<id>", messages.responses[1].id),  # the reply's id is written into the message given
        )
    assert outcomes[plain_chat_models] == outcomes[lc_models]
    assert outcomes[lc_models][1][0][2] == "lc_run--<id>-0"


def test_fake_chat_models_refuse_what_langchains_refuse() -> None:
    for module in (lc_models, plain_chat_models):
        model = module.FakeListChatModel(responses=["x"])
        with pytest.raises(NotImplementedError):
            model.bind_tools([])
        with pytest.raises(ValueError, match="Invalid input type <class 'object'>"):
            model.invoke(object())
        with pytest.raises(StopIteration):
            module.GenericFakeChatModel(messages=iter([])).invoke("hi")
    with pytest.raises(TypeError, match="needs responses="):
        plain_chat_models.FakeListChatModel()
    with pytest.raises(ValueError, match="Iterator"):
        lc_models.GenericFakeChatModel(messages=["a list"])
    with pytest.raises(
        ValueError, match=r"messages must be an iterator, as in messages=iter\(\[...\]\); got list"
    ):
        plain_chat_models.GenericFakeChatModel(messages=["a list"])


def structured_replies(module: Any) -> list[Any]:
    """What ``with_structured_output`` answers over ``module``'s fake model (a subclass binding tools),
    for a Pydantic model, a ``TypedDict`` and a JSON schema; the ``bind_tools`` call it makes."""
    from pydantic import BaseModel

    class Subjects(BaseModel):
        subjects: list[str]

    class Pick(TypedDict):
        id: int

    class Binding(module.FakeMessagesListChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            seen.append(
                (tools == [schema], kwargs["tool_choice"], kwargs["ls_structured_output_format"]["kwargs"])
            )
            return self

    def call(name: str, **args: Any) -> AIMessage:
        return AIMessage("", tool_calls=[{"name": name, "args": args, "id": "c"}])

    cases = [
        (Subjects, call("Subjects", subjects=["a", "b"])),
        (Subjects, AIMessage("no call")),
        (Pick, call("Other", id=2)),
        (Pick, call("Pick", id=1)),
        ({"title": "Score", "type": "object", "properties": {}}, call("Score", value=3)),
    ]
    seen: list[Any] = []
    answers = []
    for schema, reply in cases:
        answers.append(repr(Binding(responses=[reply]).with_structured_output(schema).invoke("hi")))
    with pytest.raises(Exception, match="Unknown tool type: 'Pick'. Available tools: Subjects"):
        Binding(responses=[call("Pick", id=1)]).with_structured_output(Subjects).invoke("hi")
    with pytest.raises(NotImplementedError, match="not implemented for this model"):
        module.FakeListChatModel(responses=["x"]).with_structured_output(Subjects)
    return [*answers, seen]


def test_with_structured_output_reads_the_reply_as_langchain_does() -> None:
    ours = structured_replies(plain_chat_models)
    assert ours == structured_replies(lc_models)
    assert ours[:3] == ["Subjects(subjects=['a', 'b'])", "None", "None"]


def test_a_subclass_with_bind_tools_is_what_create_react_agent_binds() -> None:
    class Bound(plain_chat_models.GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            self.bound = [t.name for t in tools]
            return self

    model = Bound(messages=iter([HumanMessage("not an AI message"), "done"]))
    assert model.invoke([HumanMessage("q")]).content == "not an AI message"  # given as it is
    assert model.bind_tools([plain_tools.tool(replies)]) is model and model.bound == ["replies"]


# -- the playground's resolver ------------------------------------------------------------------------

GRAPH = (
    "from langgraph.graph import StateGraph, MessagesState, START\n"
    "graph = StateGraph(MessagesState).add_node('a', lambda s: {}).add_edge(START, 'a').compile()\n"
)


def test_langchain_core_loads_in_the_playground_though_it_imports_langsmith() -> None:
    source = (
        "from langchain_core.tools import tool\n"
        "from langchain_core.language_models.fake_chat_models import GenericFakeChatModel\n"
        "from langgraph.prebuilt import ToolNode, tools_condition, create_react_agent\n"
        "from langgraph.prebuilt.tool_node import ToolNode as Same\n" + GRAPH
    )
    loaded = load_program(source)
    import lab.prebuilt

    assert vars(loaded.module)["ToolNode"] is vars(loaded.module)["Same"] is lab.prebuilt.ToolNode
    assert vars(loaded.module)["tool"] is lc_tools.tool  # installed: LangChain's own


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("import langsmith", "The program imports langsmith, which needs the network"),
        ("from langsmith import traceable", "The program imports langsmith, which needs the network"),
        ("import requests", "The program imports requests, which needs the network"),
        (
            "from langgraph.prebuilt import InjectedState",
            "NotSupportedError: lab does not support langgraph.prebuilt.InjectedState",
        ),
        (
            "from langgraph.prebuilt import ValidationNode",
            "lab does not support langgraph.prebuilt.ValidationNode",
        ),
    ],
)
def test_a_refused_import_is_named_cleanly(line: str, says: str) -> None:
    with pytest.raises(ProgramError) as refused:
        load_program(line + "\n" + GRAPH)
    assert says in str(refused.value)
    assert "''" not in str(refused.value)


def test_a_refusal_a_library_wrapped_is_still_named() -> None:
    """langchain_core's lazy imports turn a ModuleNotFoundError into an ImportError of their own; the
    playground names the refused module, not the library's garbled words."""
    source = (
        "import importlib\n"
        "try:\n"
        "    importlib.import_module('requests')\n"
        "except ModuleNotFoundError as e:\n"
        "    raise ImportError(f\"module ''x'.'y'' not found ({e})\") from e\n" + GRAPH
    )
    with pytest.raises(ProgramError) as refused:
        load_program(source)
    problem = refused.value.problem
    assert (problem.kind, problem.params["module"]) == ("network_module", "requests")


# -- pydantic, loaded in the browser when a program imports it ----------------------------------------


def test_the_packages_a_program_imports_are_found_wherever_it_imports_them() -> None:
    from lab.browser.packages import imported_packages

    assert imported_packages("from pydantic import BaseModel\n") == ["pydantic"]
    assert imported_packages("def f():\n    import pydantic.fields as f\n") == ["pydantic"]
    assert imported_packages("import pydantic_settings, json\nfrom .pydantic import x\n") == []
    assert imported_packages("import pydantic(\n") == []  # does not parse: load_program says where


BROWSER_REFUSALS = """
from tests.prebuilt_programs.run_on_lab import hide_packages

hide_packages()
import json
from lab.playground import ProgramError, load_program
from lab.playground.problems import TEXTS, problem
from tests.forked_python import ForkedPython

graph = "from langgraph.graph import StateGraph, MessagesState, START\\n" \\
    "graph = StateGraph(MessagesState).add_node('a', lambda s: {}).add_edge(START, 'a').compile()\\n"
said = {}
for line in json.loads(input()):
    try:
        load_program(line + "\\n" + graph)
        said[line] = None
    except ProgramError as refused:
        said[line] = [refused.problem.kind, refused.problem.text]
print(json.dumps(said))
"""


def test_in_the_browser_what_langchain_has_beyond_the_twins_is_refused_by_name() -> None:
    """With ``langchain_core`` absent: a name its module has and the twin lacks, and a module of it lab
    has no twin of, are refused by name; what the twins have loads."""
    lines = [
        "from langchain_core.language_models import GenericFakeChatModel, FakeListChatModel",
        "from langchain_core.messages import AIMessage, ToolMessage",
        "from langchain_core.messages import merge_message_runs",
        "from langchain_core.language_models import BaseChatModel",
        "from langchain_core.tools import InjectedToolArg",
        "from langchain_core.outputs import ChatResult",
        "import langchain_core.prompts",
        "from pydantic import BaseModel",
    ]
    said = json.loads(printed("-c", BROWSER_REFUSALS, given=json.dumps(lines)))
    assert said[lines[0]] is None and said[lines[1]] is None
    unsupported = "NotSupportedError: " + UNSUPPORTED.format("langchain_core.{}")
    assert said[lines[2]] == [
        "load",
        TEXTS["load"].format(line=1, error=unsupported.format("messages.merge_message_runs")),
    ]
    assert said[lines[3]][1].endswith(unsupported.format("language_models.BaseChatModel"))
    assert "langchain_core.tools.InjectedToolArg" in said[lines[4]][1]
    has = (
        "langchain_core.messages, langchain_core.messages.utils, langchain_core.runnables, "
        "langchain_core.tools, langchain_core.language_models, "
        "langchain_core.language_models.fake_chat_models"
    )
    assert said[lines[5]] == [
        "not_in_lab",
        f"lab does not re-implement langchain_core.outputs; it has {has}.",
    ]
    assert said[lines[6]] == [
        "not_in_lab",
        f"lab does not re-implement langchain_core.prompts; it has {has}.",
    ]
    assert said[lines[7]][0] == "missing_module"  # the browser loads pydantic before the program runs


def test_a_package_that_cannot_be_loaded_is_named_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from lab.browser import packages

    asked = []

    async def offline(name: str) -> None:
        asked.append(name)
        raise OSError("JsException: TypeError: Failed to fetch\nNetworkError: Failed to fetch")

    monkeypatch.setattr(packages, "LOADED_ON_IMPORT", ("pydantic", "not_installed_here"))
    assert asyncio.run(packages.load_imported_packages("import pydantic\n", offline)) == []  # installed
    with pytest.raises(packages.PackageUnavailable) as failed:
        asyncio.run(packages.load_imported_packages("import pydantic, not_installed_here\n", offline))
    assert (asked, failed.value.name, failed.value.reason) == (
        ["not_installed_here"],
        "not_installed_here",
        "NetworkError: Failed to fetch",
    )
    said = problem("package_unavailable", module="pydantic", reason=failed.value.reason).text
    assert said.startswith("The program imports pydantic, which the lab downloads from this site")


def test_a_package_the_loader_did_not_install_is_named_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide's loader may report a failed download and resolve anyway: the package is then still absent."""
    from lab.browser import packages

    async def quietly_failing(name: str) -> None:
        return None

    monkeypatch.setattr(packages, "LOADED_ON_IMPORT", ("not_installed_here",))
    with pytest.raises(
        packages.PackageUnavailable, match="not_installed_here could not be loaded: not installed"
    ):
        asyncio.run(packages.load_imported_packages("import not_installed_here\n", quietly_failing))
