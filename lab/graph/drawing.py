"""``get_graph()`` and ``draw_mermaid()``: a compiled graph as nodes and edges, as LangGraph's
``pregel/_draw.py`` finds them and ``langchain_core``'s Mermaid renderer prints them.

LangGraph does not read the edges off the builder: it *runs* the graph on nothing. Starting from
``START`` it lets every triggered node write what it always writes (its plain edges and joins)
plus, once, every destination it declares (a router's path map, a node's
``Command[Literal[...]]``), applies the writes with the real channel rules, and records which
earlier writer triggered which node. So a join draws two plain edges, a router draws dotted
(conditional) edges labelled with its path-map keys, and a node that leads nowhere gets an edge
to ``END``. ``lab`` does the same with its own channels (``lab.pregel.algo``).
"""

from __future__ import annotations

import string
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from lab.checkpoint.base import empty_checkpoint
from lab.graph.subgraphs import is_graph_node
from lab.graph.unsupported import NotSupportedError
from lab.pregel import algo
from lab.pregel.algo import StepWrites
from lab.pregel.nodes import END, START, Node, branch_channel
from lab.pregel.subgraph import subgraphs_of

if TYPE_CHECKING:
    from lab.pregel.graph import Pregel

STEP_LIMIT = 250
RUNNABLE_CALLABLE = ("langgraph", "_internal", "_runnable", "RunnableCallable")
COMPILED_STATE_GRAPH = ("langgraph", "graph", "state", "CompiledStateGraph")
"""What ``to_json()`` names as the class of a node, as LangGraph's does (``langchain_core`` writes the path
of the runnable that runs it): LangGraph wraps a function in a ``RunnableCallable`` and runs a compiled
graph given as a node itself."""
SAFE_ID_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_-")
MARKDOWN_SPECIAL = ("*", "_", "`")
MERMAID_ESCAPES = {
    "[": "#91;",
    "]": "#93;",
    "(": "#40;",
    ")": "#41;",
    "{": "#123;",
    "}": "#125;",
    '"': "#quot;",
    "<": "#60;",
    ">": "#62;",
    "|": "#124;",
}
STYLES = (
    ("default", "fill:#f2f0ff,line-height:1.2"),
    ("first", "fill-opacity:0"),
    ("last", "fill:#bfb6fc"),
)


class Edge(NamedTuple):
    """An edge of ``get_graph()``, as ``langchain_core``'s (its fields in that order)."""

    source: str
    target: str
    data: str | None = None
    conditional: bool = False


class Found(NamedTuple):
    """An edge as the run on nothing finds it (LangGraph's ``_draw.Edge``: sorted in this order)."""

    source: str
    target: str
    conditional: bool
    data: str | None


class TriggerEdge(NamedTuple):
    """A write that may trigger a node: the channel, whether it is conditional, its label."""

    channel: str
    conditional: bool
    label: str | None


@dataclass
class DrawNode:
    id: str
    name: str
    metadata: dict[str, Any] | None = None
    runs: tuple[str, ...] = RUNNABLE_CALLABLE


@dataclass
class DrawableGraph:
    """What ``get_graph()`` returns: nodes (in declaration order) and edges (sorted)."""

    nodes: dict[str, DrawNode] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def add_edge(self, source: str, target: str, data: str | None = None, conditional: bool = False) -> None:
        if any(e.source == source and e.target == target for e in self.edges):
            return
        if target == END and END not in self.nodes:
            self.nodes[END] = DrawNode(END, END)
        self.edges.append(Edge(source, target, data, conditional))

    def first_node(self, exclude: tuple[str, ...] = ()) -> DrawNode | None:
        """The one node no edge leads to (ignoring ``exclude`` and its edges), if there is one."""
        targets = {e.target for e in self.edges if e.source not in exclude}
        found = [n for n in self.nodes.values() if n.id not in exclude and n.id not in targets]
        return found[0] if len(found) == 1 else None

    def last_node(self, exclude: tuple[str, ...] = ()) -> DrawNode | None:
        """The one node no edge leaves (ignoring ``exclude`` and its edges), if there is one."""
        sources = {e.source for e in self.edges if e.target not in exclude}
        found = [n for n in self.nodes.values() if n.id not in exclude and n.id not in sources]
        return found[0] if len(found) == 1 else None

    def trim_first_node(self) -> None:
        """Drop the first node (a subgraph's ``__start__``) if one edge leaves it and another node
        would be first without it."""
        first = self.first_node()
        if first and self.first_node((first.id,)) and sum(e.source == first.id for e in self.edges) == 1:
            self.remove_node(first.id)

    def trim_last_node(self) -> None:
        """Drop the last node (a subgraph's ``__end__``) if one edge reaches it and another node
        would be last without it."""
        last = self.last_node()
        if last and self.last_node((last.id,)) and sum(e.target == last.id for e in self.edges) == 1:
            self.remove_node(last.id)

    def remove_node(self, node_id: str) -> None:
        del self.nodes[node_id]
        self.edges = [e for e in self.edges if node_id not in (e.source, e.target)]

    def open_node(self, name: str, inside: DrawableGraph) -> None:
        """``xray``: node ``name`` replaced by the graph it runs, each of its nodes' ids prefixed
        ``"<name>:"``; the edges into and out of ``name`` now reach its first and last nodes (as
        ``langchain_core``'s ``Graph.extend`` and LangGraph's ``draw_graph`` do)."""
        if (
            len(inside.nodes) < 2
            or name not in self.nodes
            or not inside.first_node()
            or not inside.last_node()
        ):
            return
        inside.trim_first_node()
        inside.trim_last_node()
        del self.nodes[name]
        for key, node in inside.nodes.items():
            self.nodes[f"{name}:{key}"] = DrawNode(f"{name}:{key}", node.name, node.metadata, node.runs)
        self.edges += [
            e._replace(source=f"{name}:{e.source}", target=f"{name}:{e.target}") for e in inside.edges
        ]
        first, last = (f"{name}:{node.id}" for node in (inside.first_node(), inside.last_node()))
        self.edges = [
            e._replace(
                source=last if e.source == name else e.source, target=first if e.target == name else e.target
            )
            for e in self.edges
        ]

    def to_json(self, *, with_schemas: bool = False) -> dict[str, list[dict[str, Any]]]:
        """The nodes and edges as JSON-able data, as ``langchain_core``'s ``Graph.to_json``. A node
        names the class that runs it as LangGraph's does (:data:`RUNNABLE_CALLABLE`).
        (``with_schemas`` adds the JSON schema of a node that is a Pydantic model: none is.)"""
        nodes = [
            {"id": node.id}
            | (
                {}
                if node.name == END
                else {"type": "runnable", "data": {"id": [*node.runs], "name": node.id}}
            )
            | ({} if node.metadata is None else {"metadata": node.metadata})
            for node in self.nodes.values()
        ]
        edges = [
            {"source": edge.source, "target": edge.target}
            | ({} if edge.data is None else {"data": edge.data})
            | ({"conditional": True} if edge.conditional else {})
            for edge in self.edges
        ]
        return {"nodes": nodes, "edges": edges}

    def draw_mermaid(self, *, with_styles: bool = True, wrap_label_n_words: int = 9, **options: Any) -> str:
        if options:
            raise NotSupportedError(f"draw_mermaid({', '.join(f'{k}=...' for k in options)})")
        return draw_mermaid(self, with_styles=with_styles, wrap_words=wrap_label_n_words)

    def draw_mermaid_png(self, **_: Any) -> bytes:
        raise NotSupportedError(
            "draw_mermaid_png() (it renders through the mermaid.ink web service or a browser); "
            "print(graph.get_graph().draw_mermaid()) and paste it into any Mermaid viewer"
        )

    def draw_ascii(self) -> str:
        raise NotSupportedError("draw_ascii() (it needs grandalf); print draw_mermaid() instead")


# -- finding the edges: run the graph on nothing -------------------------------------------------------


def declared_writes(node: Node) -> list[tuple[str, str | None]]:
    """Destinations a node declares for drawing: ``(channel or END, label)``."""
    declared: list[tuple[str, str | None]] = [
        (end if end == END else branch_channel(end), label) for end, label in node.ends.items()
    ]
    for branch in node.branches:
        for key, dest in (branch.path_map or {}).items():
            declared.append((dest if dest == END else branch_channel(dest), str(key)))
    return declared


def find_edges(graph: Pregel) -> tuple[set[Found], dict[str, set[TriggerEdge]]]:
    """LangGraph's ``draw_graph`` loop; returns the edges and the last step's writers."""
    edges: set[Found] = set()
    checkpoint = empty_checkpoint()
    channels = algo.channels_from_checkpoint(graph.channels, checkpoint)
    declared_done: set[str] = set()
    sources: dict[str, set[TriggerEdge]] = {}
    step_sources: dict[str, set[TriggerEdge]] = {}
    static_declared: dict[str, set[TriggerEdge]] = defaultdict(set)
    updated = algo.apply_writes(
        checkpoint, channels, [StepWrites("__input__", [(START, {})])], _next_version, graph.trigger_to_nodes
    )
    tasks = _next_tasks(graph, checkpoint, channels, updated)
    for _ in range(-1, STEP_LIMIT):  # LangGraph's steps -1 to 249: the last one ran decides a loop's END
        if not tasks:
            break
        conditionals: dict[tuple[str, str], str | None] = {}
        for task in tasks:
            node = graph.nodes[task.name]
            task.writes = list(node.edge_writes)
            if task.name in declared_done:
                continue
            declared_done.add(task.name)
            for channel, label in declared_writes(node):
                if channel == END:
                    edges.add(Found(task.name, END, True, label))
                    continue
                conditionals[(task.name, channel)] = label
                static_declared[task.name].add(TriggerEdge(channel, True, label))
                task.writes.append((channel, None))
        step_sources = {}
        for task in tasks:
            written = {
                TriggerEdge(
                    chan,
                    value is None and (task.name, chan) in conditionals,
                    conditionals.get((task.name, chan)) if value is None else None,
                )
                for chan, value in task.writes
            }
            step_sources[task.name] = written | static_declared.get(task.name, set())
        sources.update(step_sources)
        trigger_to_sources: dict[str, set[TriggerEdge]] = defaultdict(set)
        for src, triggers in sources.items():
            for trigger, cond, label in triggers:
                trigger_to_sources[trigger].add(TriggerEdge(src, cond, label))
        updated = algo.apply_writes(checkpoint, channels, tasks, _next_version, graph.trigger_to_nodes)
        tasks = _next_tasks(graph, checkpoint, channels, updated)
        for task in tasks:
            added = False
            for trigger in task.triggers:
                for src, cond, label in sorted(trigger_to_sources[trigger], key=_sortable):
                    edges.add(Found(src, task.name, cond, label))
                    if TriggerEdge(trigger, cond, label) in step_sources.get(src, set()):
                        added = True
                    else:
                        sources[src].discard(TriggerEdge(trigger, cond, label))
            if not added:
                for src in step_sources:
                    edges.add(Found(src, task.name, True, None))
    return edges, step_sources


def _next_tasks(graph: Pregel, checkpoint: Any, channels: Any, updated: set[str]) -> list[Any]:
    candidates = algo.woken_nodes(graph.trigger_to_nodes, updated)
    tasks = algo.prepare_tasks(graph.nodes, checkpoint, channels, [], 0, [], candidates=candidates)
    return list(tasks.values())


def _next_version(current: Any, _channel: None) -> int:
    return 1 if current is None else int(current) + 1


def _sortable(edge: tuple) -> tuple:
    return tuple((x is None, x or "") if not isinstance(x, bool) else x for x in edge)


def draw_graph(graph: Pregel, xray: bool | int = False) -> DrawableGraph:
    """``get_graph(xray=...)``: the graph's nodes and edges; with ``xray``, each node that runs a
    subgraph opened to show that subgraph's nodes (``xray=n``: ``n`` levels deep, ``True``: all)."""
    drawn = draw_own_nodes(graph)
    if xray:
        deeper = xray if isinstance(xray, bool) else xray - 1
        for name, inside in subgraphs_of(graph):
            drawn.open_node(name, draw_graph(inside, deeper))
    return drawn


def _runs(graph: Pregel, name: str) -> tuple[str, ...]:
    """The class LangGraph's ``to_json()`` names for a node: a compiled graph added as the node, or the
    ``RunnableCallable`` around a function."""
    declared = graph.builder.nodes.get(name) if hasattr(graph, "builder") else None
    return COMPILED_STATE_GRAPH if is_graph_node(declared) else RUNNABLE_CALLABLE


def draw_own_nodes(graph: Pregel) -> DrawableGraph:
    edges, last_step_sources = find_edges(graph)
    drawn = DrawableGraph()
    for name in graph.nodes:
        metadata = {
            **(graph.nodes[name].metadata or {}),
            **_interrupt_metadata(graph, name),
            **_tools_metadata(graph, name),
        }
        drawn.nodes[name] = DrawNode(name, name, metadata or None, _runs(graph, name))
    if START not in graph.nodes:  # an entrypoint: its input (no node of its own) triggers its node
        drawn.nodes[START] = DrawNode(START, START, None, _runs(graph, START))
        for name in graph.trigger_to_nodes.get(START, ()):
            drawn.add_edge(START, name)
    for src, dest, conditional, label in sorted(edges, key=_sortable):
        drawn.add_edge(src, dest, data=label if label != dest else None, conditional=conditional)
    termini = {d for _, d, _, _ in edges if d != END} - {s for s, _, _, _ in edges}
    if termini:
        for src in sorted(termini):
            drawn.add_edge(src, END)
    elif len(last_step_sources) == 1 and not any(d == END for _, d, _, _ in edges):
        drawn.add_edge(next(iter(last_step_sources)), END, conditional=True)
    return drawn


def _interrupt_metadata(graph: Pregel, name: str) -> dict[str, str]:
    """``"*"`` marks no node (LangGraph tests ``name in "*"``, a substring test)."""
    before, after = name in graph.interrupt_before, name in graph.interrupt_after
    where = ",".join(w for w, hit in (("before", before), ("after", after)) if hit)
    return {"__interrupt": where} if where else {}


def _tools_metadata(graph: Pregel, name: str) -> dict[str, list[str]]:
    """A ``ToolNode`` (``lab.prebuilt``) shows its tools' names, as LangGraph draws it (duck-typed)."""
    action = getattr(getattr(graph, "builder", None), "nodes", {}).get(name)
    tools_by_name = getattr(action, "tools_by_name", None)
    return {"__tools": list(tools_by_name)} if isinstance(tools_by_name, Mapping) and tools_by_name else {}


# -- the same edges, grouped for a page's own diagram -----------------------------------------------------


def diagram_edges(graph: Pregel) -> dict[str, list[dict[str, Any]]]:
    """``get_graph()``'s edges regrouped as a page draws them, in declaration order: plain
    ``edges``, ``joins`` (the two plain edges into a barrier, with its channel) and
    ``conditional_edges`` (per source, with the router's name and its targets)."""
    order = {
        name: index for index, name in enumerate([START, *graph.nodes, END])
    }  # (an entrypoint has no START)
    drawn = sorted(draw_graph(graph).edges, key=lambda e: (order[e.source], order[e.target]))
    joins = [
        {
            "sources": sorted(graph.channels[chan].names, key=order.__getitem__),
            "target": name,
            "channel": chan,
        }
        for name, node in graph.nodes.items()
        for chan in node.triggers
        if chan.startswith("join:")
    ]
    joined = {(source, j["target"]) for j in joins for source in j["sources"]}
    routed: dict[str, list[str]] = {}
    for edge in drawn:
        if edge.conditional:
            routed.setdefault(edge.source, []).append(edge.target)
    return {
        "edges": [
            {"source": e.source, "target": e.target}
            for e in drawn
            if not e.conditional and (e.source, e.target) not in joined
        ],
        "joins": joins,
        "conditional_edges": [
            {"source": source, "router": _router_names(graph.nodes[source]), "targets": targets}
            for source, targets in routed.items()
        ],
    }


def _router_names(node: Node) -> str | None:
    return ", ".join(b.name for b in node.branches) or None


# -- printing: langchain_core's draw_mermaid -----------------------------------------------------------


def draw_mermaid(graph: DrawableGraph, *, with_styles: bool = True, wrap_words: int = 9) -> str:
    first, last = graph.first_node(), graph.last_node()
    shapes = {"default": "{0}({1})"}
    if first is not None:
        shapes[first.id] = "{0}([{1}]):::first"
    if last is not None:
        shapes[last.id] = "{0}([{1}]):::last"

    def node_line(node: DrawNode) -> str:
        return "\t" + shapes.get(node.id, shapes["default"]).format(safe_id(node.id), node_label(node)) + "\n"

    out = "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n" if with_styles else "graph TD;\n"
    blocks = subgraph_blocks(graph)
    if with_styles:
        out += "".join(node_line(node) for node in blocks.pop("", {}).values())
    groups = edge_groups(graph.edges)
    opened: set[str] = set()

    def print_group(prefix: str) -> str:
        """A group's edges, inside a Mermaid ``subgraph`` block (with its nodes) unless it is the
        graph's own group or one edge from a node to itself; then the groups nested one level in it."""
        edges = groups.get(prefix, [])
        wrapped = bool(prefix) and not (len(edges) == 1 and edges[0].source == edges[0].target)
        text = ""
        if wrapped:
            title = prefix.rsplit(":", 1)[-1]
            if title in opened:
                raise ValueError(
                    f"Found duplicate subgraph '{title}' -- this likely means that you're reusing a "
                    "subgraph node with the same name. Please adjust your graph to have subgraph nodes "
                    "with unique names."
                )
            opened.add(title)
            text += f"\tsubgraph {title}\n"
            if with_styles:
                text += "".join(node_line(node) for node in blocks.get(prefix, {}).values())
        for edge in edges:
            text += f"\t{safe_id(edge.source)}{edge_arrow(edge, wrap_words)}{safe_id(edge.target)};\n"
        for nested in groups:
            if nested.startswith(prefix + ":") and ":" not in nested[len(prefix) + 1 :]:
                text += print_group(nested)
        return text + ("\tend\n" if wrapped else "")

    out += print_group("")
    for prefix in [prefix for prefix in groups if prefix and ":" not in prefix]:
        out += print_group(prefix)
        opened.add(prefix)
    if with_styles:
        for prefix, nodes in blocks.items():  # a subgraph without edges of its own
            if ":" not in prefix and prefix not in opened:
                out += (
                    f"\tsubgraph {prefix}\n" + "".join(node_line(node) for node in nodes.values()) + "\tend\n"
                )
                opened.add(prefix)
        out += "".join(f"\tclassDef {name} {style}\n" for name, style in STYLES)
    return out


def subgraph_blocks(graph: DrawableGraph) -> dict[str, dict[str, DrawNode]]:
    """The nodes by the subgraph block they are printed in: ``"middle:inner"`` for the node
    ``"middle:inner:i1"``, ``""`` for the graph's own nodes (printed before any edge)."""
    blocks: dict[str, dict[str, DrawNode]] = {"": {}}
    for key, node in graph.nodes.items():
        blocks.setdefault(key.rpartition(":")[0], {})[key] = node
    return blocks


def edge_groups(edges: list[Edge]) -> dict[str, list[Edge]]:
    """Edges grouped as ``langchain_core`` groups them: by the id parts their two ends share at
    the same positions (an edge from a node to itself is a group of its own)."""
    groups: dict[str, list[Edge]] = {}
    for edge in edges:
        pairs = zip(edge.source.split(":"), edge.target.split(":"), strict=False)
        groups.setdefault(":".join(a for a, b in pairs if a == b), []).append(edge)
    return groups


def node_label(node: DrawNode) -> str:
    name = node.name.split(":")[-1]
    markdown = name.startswith(MARKDOWN_SPECIAL) and name.endswith(MARKDOWN_SPECIAL)
    label = f"<p>{name}</p>" if markdown else name
    shown = {key: metadata_text(value) for key, value in (node.metadata or {}).items()}
    lines = [escape_label(f"{key} = {text}") for key, text in shown.items() if text is not None]
    return f"{label}<hr/><small><em>" + "\n".join(lines) + "</em></small>" if lines else label


def metadata_text(value: Any) -> str | None:
    """Scalars and flat collections of scalars are shown; anything else is left out."""
    scalars = (str, int, float, bool)
    if isinstance(value, scalars):
        return str(value)
    if isinstance(value, list | tuple | set) and all(isinstance(item, scalars) for item in value):
        items = [str(item) for item in value]
        return ", ".join(sorted(items) if isinstance(value, set) else items)
    return None


def edge_arrow(edge: Edge, wrap_words: int = 9) -> str:
    if edge.data is None:
        return " -.-> " if edge.conditional else " --> "
    words = str(edge.data).split()
    data = str(edge.data)
    if len(words) > wrap_words:
        lines = (" ".join(words[i : i + wrap_words]) for i in range(0, len(words), wrap_words))
        data = "&nbsp<br>&nbsp".join(lines)
    return f" -. &nbsp;{data}&nbsp; .-> " if edge.conditional else f" -- &nbsp;{data}&nbsp; --> "


def escape_label(text: str) -> str:
    text = text.replace("#", "#35;")
    for char, entity in MERMAID_ESCAPES.items():
        text = text.replace(char, entity)
    return text


def safe_id(label: str) -> str:
    """Mermaid-safe id: letters, digits, ``_`` and ``-`` kept, anything else as ``\\<hex>``."""
    return "".join(ch if ch in SAFE_ID_CHARACTERS else "\\" + format(ord(ch), "x") for ch in label)
