"""/play loads pydantic when a program imports it: Pyodide's package loader installs pydantic and
pydantic-core (PyPI's build for Pyodide's Python 3.14) from the site itself (``/packages/``, pinned with
their hashes by build.py), the page says "Loading pydantic (N MB)…" meanwhile, the program's Pydantic
state runs, and the service worker keeps the wheels for offline use. A program that does not import
pydantic never loads it; offline before its first use, the program is refused with the reason."""

from playwright.sync_api import Page, expect

from tests.browser.test_play import controller, open_instruments, run_program

PROGRAM = """\
from pydantic import BaseModel, Field
from langgraph.graph import END, START, StateGraph


class State(BaseModel):
    n: int = 0
    note: str = Field(default="", description="what the node saw")


def bump(state: State) -> dict:
    return {"n": state.n + 1, "note": f"{type(state).__name__} is a BaseModel: {isinstance(state, State)}"}


builder = StateGraph(State)
builder.add_node("bump", bump)
builder.add_edge(START, "bump")
builder.add_edge("bump", END)
graph = builder.compile()

graph.invoke({"n": "41"})
"""

WITHOUT_PYDANTIC = """\
from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    n: int


builder = StateGraph(State)
builder.add_node("bump", lambda state: {"n": state["n"] + 1})
builder.add_edge(START, "bump")
builder.add_edge("bump", END)
graph = builder.compile()

graph.invoke({"n": 41})
"""

RECORD_STATUSES = """() => {
  window.statusesSeen = [];
  const status = document.querySelector('#play-run-status');
  new MutationObserver(() => window.statusesSeen.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
}"""

CACHED_PACKAGES = """async () => {
  const names = [];
  for (const key of await caches.keys()) {
    for (const request of await (await caches.open(key)).keys()) names.push(new URL(request.url).pathname);
  }
  return names.filter((path) => path.startsWith('/packages/')).map((path) => path.split('/').pop()).sort();
}"""


def package_statuses(page: Page) -> list[str]:
    """The run status's texts about packages, each once, in the order shown."""
    seen = page.evaluate("() => window.statusesSeen")
    return list(dict.fromkeys(text for text in seen if "pydantic" in text))


def test_a_program_that_imports_pydantic_loads_it_and_runs(page: Page, site: str) -> None:
    open_instruments(page, site)
    page.evaluate(RECORD_STATUSES)
    run_program(page, PROGRAM)
    assert page.locator("#play-problem").is_hidden(), page.locator("#play-problem").inner_text()
    values = controller(page, "state")["values"]
    assert (values["n"], values["note"]) == (42, "State is a BaseModel: True")  # "41" coerced by pydantic
    loading, loaded = package_statuses(page)
    assert loading.startswith("Loading pydantic (2.1 MB)…: the program imports it.")
    assert loaded == "pydantic loaded (2.1 MB); kept for offline use."
    cached = page.evaluate(CACHED_PACKAGES)
    assert [name.split("-")[0] for name in cached] == [
        "annotated_types",
        "pydantic",
        "pydantic_core",
        "typing_extensions",
        "typing_inspection",
    ]


def test_a_program_without_pydantic_does_not_load_it(page: Page, site: str) -> None:
    open_instruments(page, site)
    page.evaluate(RECORD_STATUSES)
    run_program(page, WITHOUT_PYDANTIC)
    assert page.locator("#play-problem").is_hidden(), page.locator("#play-problem").inner_text()
    assert controller(page, "state")["values"]["n"] == 42
    assert package_statuses(page) == []
    assert page.evaluate(CACHED_PACKAGES) == []


def test_offline_before_pydantic_was_ever_loaded_the_program_is_refused_with_the_reason(
    page: Page, site: str
) -> None:
    open_instruments(page, site)
    page.context.set_offline(True)
    run_program(page, PROGRAM)
    problem = page.locator("#play-problem")
    expect(problem).to_contain_text(
        "The program imports pydantic, which the lab downloads from this site the first time a program "
        "imports it, and the download failed ("
    )
    expect(problem).to_contain_text("Connect to the network once: from then on it is kept for offline use.")
    assert "Traceback" not in problem.inner_text()
    page.context.set_offline(False)
    run_program(page, PROGRAM)  # the same program, online: it loads and runs
    assert page.locator("#play-problem").is_hidden(), page.locator("#play-problem").inner_text()
    assert controller(page, "state")["values"]["n"] == 42
