"""Hostile and malformed stored values, shared by ``test_serde`` and its pure-Python msgpack run.

Each entry is ``(name, typed value, words the error must contain)``. Run as a script it loads every
entry with whatever msgpack is in use (``MSGPACK_PUREPYTHON=1`` selects the fallback the browser
ships) and prints one line per entry, so a crash (a segfault has no traceback) shows as a missing
line and a non-zero exit code.
"""

from __future__ import annotations

import sys
from typing import Any

import msgpack

TUPLE, REGISTERED, SET, DATETIME, UUID, MODEL = 3, 6, 1, 4, 5, 7


def ext(code: int, payload: bytes) -> bytes:
    return msgpack.packb(msgpack.ExtType(code, payload))


def registered(*fields: Any) -> bytes:
    return ext(REGISTERED, msgpack.packb(list(fields)))


def model(*parts: Any) -> bytes:
    """A stored model (LangGraph's Pydantic v2 form): ``[module, class name, fields, method]``."""
    return ext(MODEL, msgpack.packb(list(parts)))


HUMAN = "langchain_core.messages.human", "HumanMessage"


def tuples_nested(depth: int) -> bytes:
    """A tuple in a tuple in ... ``depth`` levels: under 1 KB for 200 levels."""
    payload = msgpack.packb(None)
    for _ in range(depth):
        payload = ext(TUPLE, payload)
    return payload


MALFORMED: list[tuple[str, Any, str]] = [
    ("reserved byte", ("msgpack", b"\xc1"), "not msgpack"),
    ("truncated map", ("msgpack", msgpack.packb({"a": "hello"})[:-2]), "truncated"),
    ("two values", ("msgpack", msgpack.packb(1) + msgpack.packb(2)), "bytes follow the value"),
    ("unknown extension", ("msgpack", ext(42, b"x")), "unknown msgpack extension type 42"),
    (
        "CVE-2026-28277 shape",
        ("msgpack", registered("os.system", "echo pwned")),
        "'os.system' is not registered",
    ),
    (
        "os.system inside a list",
        ("msgpack", msgpack.packb([1, msgpack.ExtType(REGISTERED, msgpack.packb(["os.system", "id"]))])),
        "'os.system' is not registered",
    ),
    ("type name a list", ("msgpack", registered(["Interrupt"], 1)), "[type name, *field values]"),
    ("typed object not a list", ("msgpack", ext(REGISTERED, msgpack.packb(5))), "[type name, *field values]"),
    ("typed object empty", ("msgpack", registered()), "[type name, *field values]"),
    ("missing field", ("msgpack", registered("Interrupt", "question")), "has 1 values"),
    ("Interrupt(id=123)", ("msgpack", registered("Interrupt", "question", 123)), "id must be str"),
    (
        "Command(goto=5)",
        ("msgpack", registered("Command", None, None, 5)),
        "goto must be str or Send or list or tuple",
    ),
    ("Send(node=5)", ("msgpack", registered("Send", 5, {})), "node must be str"),
    ("set of maps", ("msgpack", ext(SET, msgpack.packb([{1: 2}]))), "unhashable"),
    ("set not an array", ("msgpack", ext(SET, msgpack.packb(5))), "must hold an array"),
    ("tuple not an array", ("msgpack", ext(TUPLE, msgpack.packb("ab"))), "must hold an array"),
    ("datetime not a date", ("msgpack", ext(DATETIME, b"yesterday")), "isoformat"),
    ("datetime not text", ("msgpack", ext(DATETIME, b"\xff\xfe")), "not valid UTF-8"),
    ("uuid of 3 bytes", ("msgpack", ext(UUID, b"abc")), "16 bytes"),
    ("map with a map key", ("msgpack", b"\x81\x81\x01\x02\x03"), "unhashable"),
    ("text not UTF-8", ("msgpack", b"\xa2\xff\xfe"), "not valid UTF-8"),
    ("tuples nested 200 deep", ("msgpack", tuples_nested(200)), "nested more than 50 deep"),
    ("tuples nested 2000 deep", ("msgpack", tuples_nested(2000)), "nested more than 50 deep"),
    ("lists nested 100000 deep", ("msgpack", b"\x91" * 100_000 + b"\xc0"), "deeper than msgpack can read"),
    ("pickle payload", ("pickle", b"cos\nsystem\n(S'id'\ntR."), "serialized as 'pickle'"),
    ("not a pair", ("msgpack",), "(type, bytes) pair"),
    ("text instead of bytes", ("msgpack", "\x01"), "(type, bytes) pair"),
    (
        "model not a list",
        ("msgpack", ext(MODEL, msgpack.packb("HumanMessage"))),
        "[module, class name, fields",
    ),
    (
        "model without its method",
        ("msgpack", model(*HUMAN, {"content": "hi"})),
        "[module, class name, fields",
    ),
    ("model fields a list", ("msgpack", model(*HUMAN, ["hi"], "model_validate_json")), "[module, class name"),
    (
        "model naming os.system",
        ("msgpack", model("os", "system", {}, "model_validate_json")),
        "os.system is not",
    ),
    (
        "HumanMessage(content=5)",
        ("msgpack", model(*HUMAN, {"content": 5, "type": "human"}, "model_validate_json")),
        "HumanMessage does not build from its fields",
    ),
    (
        "HumanMessage of type ai",
        ("msgpack", model(*HUMAN, {"content": "hi", "type": "ai"}, "model_validate_json")),
        "HumanMessage does not build from its fields",
    ),
]


def main() -> None:
    import lab.messages  # noqa: F401  (registers the chat messages)
    import lab.types  # noqa: F401  (registers Interrupt, Send, Command)
    from lab.checkpoint.errors import CorruptRecordError
    from lab.checkpoint.serde import MsgpackSerializer

    serde = MsgpackSerializer()
    for name, value, words in MALFORMED:
        try:
            serde.loads_typed(value)
        except CorruptRecordError as error:
            said = words in str(error) and error.code  # by code too: the page says it in its language
            print(f"{name}: {'ok' if said else 'wrong message: ' + repr((error.code, str(error)))}")
        else:
            print(f"{name}: loaded")
    sys.stdout.flush()


if __name__ == "__main__":
    main()


class FloatWithABadFloat(float):
    """A float subclass whose ``__float__`` breaks its promise: msgpack's packer refuses it. (Here, not in
    ``test_serde``: a second import of that module would register its types again under new classes.)"""

    def __float__(self) -> Any:
        return "not a float"
