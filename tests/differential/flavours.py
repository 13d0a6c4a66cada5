"""A *flavour* is the set of names a scenario uses, imported from ``langgraph`` or from ``lab``.

Scenarios never import either library themselves, so the very same code runs on both. Imports
happen lazily in ``load_flavour`` so the LangGraph side works before ``lab`` exists.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

# module path (relative to the package root) -> names taken from it; optional ones may be missing.
_NAMES: dict[str, tuple[str, ...]] = {
    "graph": ("StateGraph", "START", "END"),
    "types": ("interrupt", "Command", "Interrupt", "Send"),
    "checkpoint.memory": ("InMemorySaver",),
    "errors": ("InvalidUpdateError", "GraphRecursionError", "EmptyInputError", "GraphInterrupt"),
}
# -- issue 8 (runtime): names the runtime scenarios use -------------------------------------------------
_NAMES["errors"] += ("NodeCancelledError",)
# --- names the API scenarios use (scenarios_api.py); optional where lab may lack them ---------------
_NAMES["types"] += ("Overwrite", "StateUpdate")
_NAMES["config"] = ("get_config",)
_NAMES["runtime"] = ("Runtime", "get_runtime")
# --- names the message scenarios use (scenarios_messages.py) ------------------------------------------
_NAMES["graph"] += ("MessagesState", "add_messages")
_NAMES["graph.message"] = ("REMOVE_ALL_MESSAGES",)
MESSAGE_CLASSES = ("HumanMessage", "AIMessage", "SystemMessage", "ToolMessage", "RemoveMessage")
MESSAGE_MODULES = {"langgraph": "langchain_core.messages", "lab": "lab.messages"}
"""Where a program takes its message classes from: LangChain's for LangGraph, ``lab.messages`` for the
lab (LangChain's again where ``langchain_core`` is importable, the lab's own where it is not)."""
# --- the storage scenarios (scenarios_storage.py): LangGraph's opt-in delta storage -------------------
_NAMES["channels"] = ("DeltaChannel",)
# --- what LangGraph's own tests showed (scenarios_upstream.py) ----------------------------------------
_NAMES["channels"] += ("UntrackedValue",)
# --- issue 34 (real programs): older names 1.2 still exports, interrupt schemas ----------------------
_NAMES["checkpoint.memory"] += ("MemorySaver",)
_NAMES["errors"] += ("NodeInterrupt", "is_invalid_resume")
# --- the Functional API scenarios (scenarios_func.py) ---------------------------------------------------
_NAMES["func"] = ("entrypoint", "task")
_NAMES["types"] += ("RetryPolicy", "CachePolicy")
_NAMES["cache.memory"] = ("InMemoryCache",)
# --- issue 34: stream_mode="custom" (scenarios_fidelity.py) ---------------------------------------------
_NAMES["config"] += ("get_stream_writer",)
_NAMES["types"] += ("StreamWriter",)
# --- stream_mode="messages" (scenarios_stream_messages.py) ----------------------------------------------
_NAMES["graph.message"] += ("push_message",)
CHAT_MODELS = ("GenericFakeChatModel", "FakeMessagesListChatModel")
CHAT_MODEL_MODULES = {
    "langgraph": "langchain_core.language_models.fake_chat_models",
    "lab": "lab.chat_models",
}
"""Where a program takes its fake chat models from: LangChain's for LangGraph, ``lab.chat_models`` for
the lab (LangChain's again where ``langchain_core`` is importable, the lab's twins where it is not)."""
# --- LangGraph's low-level API (scenarios_pregel.py) ------------------------------------------------
_NAMES["pregel"] = ("Pregel", "NodeBuilder")
_NAMES["channels"] += ("LastValue", "Topic", "EphemeralValue", "BinaryOperatorAggregate")
# --- the long-term memory store (scenarios_store.py) ---------------------------------------------------
_NAMES["store.memory"] = ("InMemoryStore",)
_NAMES["config"] += ("get_store",)
# ------------------------------------------------------------------------------------------------
OPTIONAL = frozenset({"Send", "Overwrite", "StateUpdate", "get_config", "Runtime", "get_runtime"})
FLAVOURS = ("langgraph", "lab")


@dataclass(frozen=True)
class Flavour:
    name: str
    StateGraph: Any
    START: str
    END: str
    InMemorySaver: Any
    interrupt: Any
    Command: Any
    Interrupt: Any
    Send: Any  # None when the flavour does not provide it (optional in lab)
    InvalidUpdateError: type[Exception]
    GraphRecursionError: type[Exception]
    EmptyInputError: type[Exception]
    GraphInterrupt: type[Exception]
    NodeCancelledError: type[Exception]  # issue 8 (runtime)
    # --- API scenarios (scenarios_api.py); None when the flavour lacks them ---
    Overwrite: Any
    StateUpdate: Any
    get_config: Any
    Runtime: Any
    get_runtime: Any
    # --- message scenarios (scenarios_messages.py) ---
    MessagesState: Any
    add_messages: Any
    REMOVE_ALL_MESSAGES: str
    HumanMessage: Any
    AIMessage: Any
    SystemMessage: Any
    ToolMessage: Any
    RemoveMessage: Any
    # --- storage scenarios (scenarios_storage.py) ---
    DeltaChannel: Any
    UntrackedValue: Any
    # --- issue 34 scenarios (scenarios_fidelity.py) ---
    MemorySaver: Any
    NodeInterrupt: type[Exception]
    is_invalid_resume: Any
    # --- Functional API scenarios (scenarios_func.py) ---
    entrypoint: Any
    task: Any
    RetryPolicy: Any
    CachePolicy: Any
    InMemoryCache: Any
    # --- stream_mode="custom" (scenarios_fidelity.py) ---
    get_stream_writer: Any
    StreamWriter: Any
    # --- stream_mode="messages" (scenarios_stream_messages.py) ---
    push_message: Any
    GenericFakeChatModel: Any
    FakeMessagesListChatModel: Any
    # --- the low-level API (scenarios_pregel.py) ---
    Pregel: Any
    NodeBuilder: Any
    LastValue: Any
    Topic: Any
    EphemeralValue: Any
    BinaryOperatorAggregate: Any
    # --- the store (scenarios_store.py) ---
    InMemoryStore: Any
    get_store: Any

    def __repr__(self) -> str:
        return f"<flavour {self.name}>"


def load_flavour(package: str) -> Flavour:
    """Import the public names from ``package`` (``"langgraph"`` or ``"lab"``)."""
    if package not in FLAVOURS:
        raise ValueError(f"unknown flavour {package!r}; expected one of {FLAVOURS}")
    found: dict[str, Any] = {}
    for module_name, names in _NAMES.items():
        try:
            module = importlib.import_module(f"{package}.{module_name}")
        except ImportError:
            if not OPTIONAL.issuperset(names):
                raise
            module = None
        for name in names:
            if name in OPTIONAL:
                found[name] = getattr(module, name, None)
            else:
                found[name] = getattr(module, name)
    messages = importlib.import_module(MESSAGE_MODULES[package])
    found |= {name: getattr(messages, name) for name in MESSAGE_CLASSES}
    chat_models = importlib.import_module(CHAT_MODEL_MODULES[package])
    found |= {name: getattr(chat_models, name) for name in CHAT_MODELS}
    return Flavour(name=package, **found)
