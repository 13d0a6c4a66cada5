"""``get_input_jsonschema`` / ``get_output_jsonschema``: a schema's JSON Schema, as LangGraph gets it
from Pydantic's ``TypeAdapter(schema).json_schema()``, written out for the field types a learner's
state uses (``lab`` does not need pydantic).

Covered: ``str``, ``int``, ``float``, ``bool``, ``None``, ``Any``, ``list``/``list[T]``/``Sequence[T]``,
``dict``/``dict[str, T]``/``Mapping[str, T]``, ``T | None``, ``Literal[...]`` and ``Annotated[T, reducer]``
(``Required[...]``/``NotRequired[...]`` around either) fields of a ``TypedDict`` or a dataclass (a
Pydantic model answers for itself). Any other field type is refused by name.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal

from lab.checkpoint.allow_list import is_pydantic_model
from lab.graph.schema import schema_fields, without_required
from lab.graph.unsupported import NotSupportedError
from lab.pregel.channels import CONCRETE
from lab.pregel.nodes import ROOT

SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def json_schema(schema: Any, title: str) -> dict[str, Any]:
    """The JSON Schema of ``schema``; a dataclass or a whole value is titled ``title``, e.g.
    ``LangGraphInput`` (LangGraph rebuilds it as a Pydantic model named after the graph)."""
    if is_pydantic_model(schema):  # pydantic is importable: let it answer, as LangGraph does
        return schema.model_json_schema()
    fields = schema_fields(schema)
    if list(fields) == [ROOT]:  # a whole-value state: the value's own schema
        return _sorted({**type_schema(fields[ROOT]), "default": None, "title": title})
    properties = {}
    for key, hint in fields.items():
        properties[key] = {**type_schema(hint), "title": key.title().replace("_", " ")}
        if (default := _default(schema, key)) is not dataclasses.MISSING:
            properties[key]["default"] = default
    required = [key for key in fields if _required(schema, key)]
    return _sorted(
        {
            "properties": properties,
            **({"required": required} if required else {}),
            "title": title if dataclasses.is_dataclass(schema) else schema.__name__,
            "type": "object",
        }
    )


def _sorted(value: Any, parent_key: str | None = None) -> Any:
    """Keys in alphabetical order at every level, except the fields of ``properties`` and the keys of a
    ``default``, which keep their order: Pydantic's ``GenerateJsonSchema.sort``."""
    if isinstance(value, dict):
        keys = value if parent_key in ("properties", "default") else sorted(value)
        return {key: _sorted(value[key], key) for key in keys}
    if isinstance(value, list):
        return [_sorted(item, parent_key) for item in value]
    return value


def type_schema(hint: Any) -> dict[str, Any]:
    hint = without_required(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        return type_schema(args[0])
    if hint is Any:
        return {}
    if hint in SCALARS:
        return {"type": SCALARS[hint]}
    if (container := CONCRETE.get(origin or hint, origin or hint)) in (list, dict):
        return _container_schema(container, args)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [type_schema(arg) for arg in args]}
    if origin is Literal:
        return _literal_schema(args)
    raise NotSupportedError(f"a JSON schema for the field type {hint!r}")


def _container_schema(container: type, args: tuple[Any, ...]) -> dict[str, Any]:
    if container is list:
        return {"items": type_schema(args[0]) if args else {}, "type": "array"}
    values = type_schema(args[1]) if args else True
    return {"additionalProperties": values, "type": "object"}


def _literal_schema(values: tuple[Any, ...]) -> dict[str, Any]:
    kinds = {SCALARS.get(type(v)) for v in values}
    schema: dict[str, Any] = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
    return {**schema, "type": kinds.pop()} if len(kinds) == 1 else schema


def _required(schema: Any, key: str) -> bool:
    if dataclasses.is_dataclass(schema):
        return _default(schema, key) is dataclasses.MISSING
    marker = typing.get_origin(typing.get_type_hints(schema, include_extras=True).get(key))
    if marker in (typing.Required, typing.NotRequired):  # (said in a string annotation, the class missed it)
        return marker is typing.Required
    return key in getattr(schema, "__required_keys__", {key})


def _default(schema: Any, key: str) -> Any:
    """A dataclass field's default (a ``default_factory`` is called, as Pydantic shows it); without
    one, ``None`` for an optional field (``T | None``), as LangGraph's ``get_field_default`` gives."""
    if not dataclasses.is_dataclass(schema):
        return dataclasses.MISSING
    field = next(f for f in dataclasses.fields(schema) if f.name == key)
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    if field.default is Ellipsis:  # ``field(default=...)``: Pydantic's way to say "required"
        return dataclasses.MISSING
    if field.default is dataclasses.MISSING and _is_optional(schema_fields(schema)[key]):
        return None
    return field.default


def _is_optional(hint: Any) -> bool:
    """A union with ``None`` in it (``Annotated`` looked through)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        return _is_optional(args[0])
    return origin in (typing.Union, types.UnionType) and any(a is type(None) or _is_optional(a) for a in args)
