"""``input_schema`` and ``output_schema`` of a hand-built ``Pregel`` (LangGraph's ``get_input_schema``
and ``get_output_schema`` for its low-level API).

Each is a Pydantic model named after the graph (``LangGraphInput``, ``LangGraphOutput``): for one
channel, a root model of the channel's type (``LastValue(int)``: an integer); for a list of channels,
a model with one optional field per channel. The input says what a channel takes (a ``Topic(int)``:
an int or a list of them), the output what it holds (a list of ints). Pydantic is needed: without
it (the browser, before a program imports it) the schemas are refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lab.pregel.channels import Channel


def channels_model(
    name: str, channels: Mapping[str, Channel], select: str | Sequence[str], *, update: bool
) -> Any:
    """The Pydantic model of ``select``'s channels: their update types (``update``), else value types."""
    try:
        from pydantic import RootModel, create_model
    except ImportError:
        from lab.graph.unsupported import NotSupportedError  # (here: ``lab.graph`` imports ``lab.pregel``)

        raise NotSupportedError(f"{name} (a Pregel's schema) without pydantic installed") from None

    def type_of(channel: str) -> Any:
        return channels[channel].update_type if update else channels[channel].value_type

    if isinstance(select, str):
        return create_model(name, __base__=RootModel[type_of(select)])
    return create_model(name, **{channel: (type_of(channel), None) for channel in select})
