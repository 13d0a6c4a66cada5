"""``ToolNode``, ``tools_condition`` and ``create_react_agent``, as ``langgraph.prebuilt``.

A tool-calling agent is a loop of two nodes: the model (an LLM: here any chat model, a fake one in
the playground) answers the conversation with an ``AIMessage``; when that message asks for tools
(``tool_calls``), ``ToolNode`` runs each call and appends one ``ToolMessage`` per call; then the
model speaks again, until it asks for nothing and the run ends (``tools_condition`` routes so).

``ToolNode`` answers as LangGraph's does by default: a call to an unknown tool, or with arguments
that do not fit the tool's signature, becomes a ``ToolMessage`` with ``status="error"`` saying so
(the model can fix its call); an exception raised *inside* the tool fails the node, unless
``handle_tool_errors`` says to answer it too (``True``: LangGraph's "Error: ...  Please fix your
mistakes." text; a string; a function of the exception; exception types). The calls of one message
run one after the other (LangGraph runs them on threads; the browser has none): the messages come
out in the calls' order either way.

``create_react_agent(model, tools, prompt=...)`` builds that loop (nodes ``agent`` and ``tools``;
with ``version="v2"``, the default, one ``Send`` per tool call). Left out, refused by name:
``response_format``, pre/post model hooks, a model given by name or as a function, a store, tools
that inject state, store or runtime, and ``remaining_steps`` (the agent's "Sorry, need more steps"
reply: here the recursion limit stops the loop, as any graph's).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypedDict

from lab.errors import GraphBubbleUp, with_troubleshooting
from lab.graph.message import add_messages
from lab.graph.state import CompiledStateGraph, StateGraph
from lab.graph.unsupported import NotSupportedError, refused_names
from lab.messages import AIMessage, AnyMessage, SystemMessage, ToolMessage
from lab.pregel.nodes import END
from lab.tools import ARGUMENT_ERRORS, TOOL_CLASSES, ToolException, tool
from lab.types import Command, Send

__all__ = ["AgentState", "ToolInvocationError", "ToolNode", "create_react_agent", "tools_condition"]

INVALID_TOOL_NAME_ERROR_TEMPLATE = (
    "Error: {requested_tool} is not a valid tool, try one of [{available_tools}]."
)
TOOL_CALL_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."
TOOL_INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)

ErrorHandling = bool | str | Callable[..., str] | type[Exception] | tuple[type[Exception], ...]
"""What ``handle_tool_errors`` may be (see :func:`_error_content`)."""


class ToolInvocationError(ToolException):
    """A tool called with arguments that do not fit its signature (raised inside ``ToolNode`` only)."""

    def __init__(self, tool_name: str, source: Exception, tool_kwargs: dict[str, Any]) -> None:
        details = "\n".join(
            f"{'.'.join(str(part) for part in error.get('loc', ()))}: {error.get('msg', 'Unknown error')}"
            for error in source.errors()  # type: ignore[attr-defined]
        )
        self.message = TOOL_INVOCATION_ERROR_TEMPLATE.format(
            tool_name=tool_name, tool_kwargs=tool_kwargs, error=details
        )
        self.tool_name, self.tool_kwargs, self.source = tool_name, tool_kwargs, source
        super().__init__(self.message)


def _default_handle_tool_errors(e: Exception) -> str:
    """LangGraph's default: bad arguments are answered (the model can fix its call), anything the
    tool itself raised fails the node."""
    if isinstance(e, ToolInvocationError):
        return e.message
    raise e


def _handled_types(flag: ErrorHandling) -> tuple[type[Exception], ...]:
    """The exceptions ``handle_tool_errors`` answers: the types given, or those a handler function's
    first parameter is annotated with (``def handle(e: ValueError | KeyError)``), else all."""
    if isinstance(flag, type) and issubclass(flag, Exception):
        return (flag,)
    if isinstance(flag, tuple):
        return flag
    if callable(flag):
        parameters = list(inspect.signature(flag).parameters)
        hint = typing.get_type_hints(flag).get(parameters[0]) if parameters else None
        types = typing.get_args(hint) or (hint,)
        if all(isinstance(t, type) and issubclass(t, Exception) for t in types):
            return types  # type: ignore[return-value]
    return (Exception,)


def _error_content(error: Exception, flag: ErrorHandling) -> str:
    """The text of the error ``ToolMessage``: LangGraph's template for ``True`` or exception types,
    the string given, or what the handler function returns (it may raise instead)."""
    if isinstance(flag, bool | tuple) or (isinstance(flag, type) and issubclass(flag, Exception)):
        return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(error))
    if isinstance(flag, str):
        return flag
    return flag(error)


def _error_message(content: str, call: dict[str, Any]) -> Any:
    """The ``ToolMessage`` that answers ``call`` with an error (``status="error"``)."""
    return ToolMessage(content=content, name=call["name"], tool_call_id=call["id"], status="error")


InputType = Literal["list", "dict", "tool_calls"]


class ToolNode:
    """A node that runs the tool calls of the last ``AIMessage`` (see the module docstring)."""

    def __init__(
        self,
        tools: Sequence[Any],
        *,
        name: str = "tools",
        tags: list[str] | None = None,
        handle_tool_errors: ErrorHandling = _default_handle_tool_errors,
        messages_key: str = "messages",
        **unsupported: Any,
    ) -> None:
        if given := [key for key, value in unsupported.items() if value is not None]:
            raise NotSupportedError(f"ToolNode's {', '.join(given)}")
        self.name = self.__name__ = name  # add_node(ToolNode(...)) names the node "tools"
        self.tags = tags
        self.handle_tool_errors = handle_tool_errors
        self.messages_key = messages_key
        self.tools_by_name: dict[str, Any] = {}
        for given_tool in tools:
            as_tool = given_tool if isinstance(given_tool, TOOL_CLASSES) else tool(given_tool)
            self.tools_by_name[as_tool.name] = as_tool

    def __call__(self, input: Any, config: Any) -> Any:
        calls, input_type = self._parse_input(input)
        outputs = [self._run_one(call, config) for call in calls]
        return self._combine(outputs, input_type)

    def _parse_input(self, input: Any) -> tuple[list[dict[str, Any]], InputType]:
        """The tool calls to run: those of the last ``AIMessage`` of the messages (a list, or the
        state's ``messages_key``), or the calls given (a ``Send`` from ``create_react_agent``)."""
        if (
            isinstance(input, list)
            and input
            and isinstance(input[-1], dict)
            and input[-1].get("type") == "tool_call"
        ):
            return list(input), "tool_calls"
        if isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return [input["tool_call"]], "tool_calls"
        input_type: InputType = "list" if isinstance(input, list) else "dict"
        messages = input if isinstance(input, list) else _state_value(input, self.messages_key, [])
        if not messages:
            raise ValueError("No message found in input")
        last_ai = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if last_ai is None:
            raise ValueError("No AIMessage found in input")
        return list(last_ai.tool_calls), input_type

    def _run_one(self, call: dict[str, Any], config: Any) -> Any:
        """One call's answer: the tool's ``ToolMessage`` (or ``Command``), or an error message."""
        tool_ = self.tools_by_name.get(call["name"])
        if tool_ is None:
            available = ", ".join(self.tools_by_name)
            text = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
                requested_tool=call["name"], available_tools=available
            )
            return _error_message(text, call)
        try:
            try:
                response = tool_.invoke({**call, "type": "tool_call"}, config)
            except ARGUMENT_ERRORS as error:
                raise ToolInvocationError(call["name"], error, call["args"]) from error
            return self._checked_response(response, call)
        except GraphBubbleUp:  # an interrupt() inside the tool always goes up
            raise
        except Exception as error:
            flag = self.handle_tool_errors
            if not flag or not isinstance(error, _handled_types(flag)):
                raise
            return _error_message(_error_content(error, flag), call)

    def _checked_response(self, response: Any, call: dict[str, Any]) -> Any:
        if isinstance(response, Command | ToolMessage):
            return response
        if isinstance(response, list) and all(isinstance(item, Command | ToolMessage) for item in response):
            return response
        raise TypeError(f"Tool {call['name']} returned unexpected type: {type(response)}")

    def _combine(self, outputs: list[Any], input_type: InputType) -> Any:
        """The node's update: the messages (under ``messages_key`` for a state); with any
        ``Command`` among them, a list of updates, as LangGraph's ``_combine_tool_outputs``."""
        flat = [item for output in outputs for item in (output if isinstance(output, list) else [output])]

        def wrapped(messages: list[Any]) -> Any:
            return messages if input_type == "list" else {self.messages_key: messages}

        if not any(isinstance(output, Command) for output in flat):
            return wrapped(flat)
        return [output if isinstance(output, Command) else wrapped([output]) for output in flat]


def _state_value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key, default) if isinstance(state, dict) else getattr(state, key, default)


def tools_condition(state: Any, messages_key: str = "messages") -> Literal["tools", "__end__"]:
    """``"tools"`` when the last message asks for tools, else ``"__end__"`` (a router)."""
    messages = state if isinstance(state, list) else _state_value(state, messages_key, [])
    if not messages:
        raise ValueError(f"No messages found in input state to tool_edge: {state}")
    return "tools" if getattr(messages[-1], "tool_calls", None) else END


class AgentState(TypedDict):
    """The state of the agent: its conversation."""

    messages: Annotated[list[AnyMessage], add_messages]


UNSUPPORTED_AGENT_OPTIONS = (
    "response_format",
    "post_model_hook",
    "context_schema",
    "store",
    "debug",
)


def _prompted(prompt: Any) -> Callable[[Any], Any]:
    """The model's input for a state: its messages, after ``prompt`` (a system text or message), or
    what ``prompt`` (a function or runnable of the state) makes of it."""
    if prompt is None:
        return lambda state: _state_value(state, "messages")
    if isinstance(prompt, str):
        prompt = SystemMessage(content=prompt)
    if isinstance(prompt, SystemMessage):
        return lambda state: [prompt, *_state_value(state, "messages")]
    if hasattr(prompt, "invoke"):
        return prompt.invoke
    if callable(prompt):
        return prompt
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")


def _check_chat_history(messages: Sequence[Any]) -> None:
    """Every tool call of the conversation has its ``ToolMessage`` (LLM providers require it)."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    unanswered = [
        call
        for m in messages
        if isinstance(m, AIMessage)
        for call in m.tool_calls
        if call["id"] not in answered
    ]
    if unanswered:
        raise ValueError(
            with_troubleshooting(
                "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
                f"Here are the first few of those tool calls: {unanswered[:3]}.\n\n"
                "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
                "corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is "
                "required by most LLM providers.",
                "INVALID_CHAT_HISTORY",
            )
        )


def _bound(model: Any, tools: list[Any]) -> Any:
    """``model.bind_tools(tools)``, unless the model was given with tools bound already."""
    if not tools or "tools" in (getattr(model, "kwargs", None) or {}):
        return model
    return model.bind_tools(tools)


def _with_llm_input(schema: Any) -> Any:
    """The model node's input schema under a ``pre_model_hook``: the state's, plus the messages the
    hook gives the model (``llm_input_messages``), as LangGraph's ``CallModelInputSchema``."""
    if not hasattr(schema, "__total__"):  # (a TypedDict, typing's or typing_extensions')
        raise NotSupportedError(
            "create_react_agent's pre_model_hook with a state_schema that is not a TypedDict"
        )

    class CallModelInputSchema(schema):  # type: ignore[misc, valid-type]
        llm_input_messages: list[AnyMessage]

    return CallModelInputSchema


def create_react_agent(
    model: Any,
    tools: Sequence[Any] | ToolNode,
    *,
    prompt: Any = None,
    state_schema: Any = None,
    checkpointer: Any = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    version: Literal["v1", "v2"] = "v2",
    name: str | None = None,
    pre_model_hook: Any = None,
    **unsupported: Any,
) -> CompiledStateGraph:
    """A compiled agent graph: ``agent`` (the model) and ``tools`` (a ``ToolNode``) in a loop;
    ``pre_model_hook``, a node run before each model call, may give the model other messages than the
    state's (``llm_input_messages``: a trimmed conversation, say) or rewrite the state's."""
    if given := [key for key, value in unsupported.items() if key in UNSUPPORTED_AGENT_OPTIONS and value]:
        raise NotSupportedError(f"create_react_agent's {', '.join(given)}")
    if unexpected := [key for key in unsupported if key not in UNSUPPORTED_AGENT_OPTIONS]:
        raise TypeError(f"create_react_agent() got unexpected keyword arguments: {unexpected}")
    if version not in ("v1", "v2"):
        raise ValueError(f"Invalid version {version}. Supported versions are 'v1' and 'v2'.")
    if isinstance(model, str) or not hasattr(model, "invoke"):
        raise NotSupportedError("a model given by name or as a function: pass a chat model object")
    tool_node = tools if isinstance(tools, ToolNode) else ToolNode(tools)
    tool_list = list(tool_node.tools_by_name.values())
    model = _bound(model, tool_list)
    model_input = _prompted(prompt)
    returns_direct = {t.name for t in tool_list if t.return_direct}

    def call_model(state: Any, config: Any) -> dict[str, Any]:
        messages = _state_value(state, "messages")
        if pre_model_hook is not None:  # the hook's messages for the model, else the state's
            messages = _state_value(state, "llm_input_messages") or messages
            state = {**state, "messages": messages}
        _check_chat_history(messages)
        response = model.invoke(model_input(state), config)
        response.name = name
        return {"messages": [response]}

    def should_continue(state: Any) -> Any:
        last = _state_value(state, "messages")[-1]
        if not isinstance(last, AIMessage) or not last.tool_calls:
            return END
        if version == "v1":
            return "tools"
        context = {"__type": "tool_call_with_context", "state": state}
        return [Send("tools", {**context, "tool_call": call}) for call in last.tool_calls]

    def route_tool_responses(state: Any) -> str:
        """After the tools: end when a tool that returns directly ran, else back to the model."""
        for message in reversed(_state_value(state, "messages")):
            if not isinstance(message, ToolMessage):
                break
            if message.name in returns_direct:
                return END
        if isinstance(message, AIMessage) and any(c["name"] in returns_direct for c in message.tool_calls):
            return END
        return entry

    schema = state_schema or AgentState
    workflow = StateGraph(schema)
    workflow.add_node("agent", call_model, input_schema=_with_llm_input(schema) if pre_model_hook else None)
    entry = "agent"
    if pre_model_hook is not None:
        workflow.add_node("pre_model_hook", pre_model_hook)
        workflow.add_edge("pre_model_hook", "agent")
        entry = "pre_model_hook"
    workflow.set_entry_point(entry)
    if tool_list:
        workflow.add_node("tools", tool_node)
        workflow.add_conditional_edges("agent", should_continue, path_map=["tools", END])
        if returns_direct:
            workflow.add_conditional_edges("tools", route_tool_responses, path_map=[entry, END])
        else:
            workflow.add_edge("tools", entry)
    return workflow.compile(
        checkpointer=checkpointer,
        interrupt_before=interrupt_before,
        interrupt_after=interrupt_after,
        name=name,
    )


__getattr__ = refused_names(
    "langgraph.prebuilt",
    frozenset({"InjectedState", "InjectedStore", "ToolRuntime", "ValidationNode", "ToolCallTransformer"}),
)
