"""The page's side of ``lab.browser.page_records`` on CPython, as ``static/page-records.mjs`` plays it:
each store maps a key (a list) to a JSON record; a read by prefix lists records in the order their keys
were first stored; a write applies its changes in order, in one go. Everything crosses as JSON, as it
does between the worker and the page. Each :meth:`RecordsPage.connect` is one worker's client: a
crashed worker's successor connects again and finds the records."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from lab.browser.page_records import PageRecords


def _wire(value: Any) -> Any:
    """What arrives on the other side of postMessage and JSON text."""
    return json.loads(json.dumps(value))


def _starts_with(key: list[Any], prefix: list[Any]) -> bool:
    return key[: len(prefix)] == prefix


class RecordsPage:
    def __init__(self) -> None:
        self.stores: dict[str, dict[str, tuple[list[Any], Any]]] = {}
        self.log: list[dict[str, Any]] = []  # every call {op, args, answer}, for replaying in the real page

    def connect(self) -> PageRecords:
        """A new worker's client of these records (with the page's reply timeout: this page always
        answers, on the next event-loop turn, however loaded the machine)."""

        def emit(event: dict[str, Any]) -> None:
            asyncio.get_running_loop().call_soon(self._answer, client, _wire(event))

        client = PageRecords(emit)
        return client

    def _answer(self, client: PageRecords, event: dict[str, Any]) -> None:
        args = event["args"]
        try:
            result = self._read(args) if event["op"] == "read" else self._write(args["changes"])
        except (KeyError, TypeError, ValueError) as error:
            answer = _wire({"ok": False, "error": {"type": type(error).__name__, "message": str(error)}})
        else:
            answer = _wire({"ok": True, "result": result})
        self.log.append({"op": event["op"], "args": args, "answer": answer})
        client.reply({"call": event["call"], **answer})

    def _store(self, name: str) -> dict[str, tuple[list[Any], Any]]:
        return self.stores.setdefault(name, {})

    def _read(self, args: dict[str, Any]) -> list[Any]:
        entries = self._store(args["store"])
        if "keys" in args:
            return [entries.get(json.dumps(key), (key, None))[1] for key in args["keys"]]
        return [record for key, record in entries.values() if _starts_with(key, args["prefix"])]

    def _write(self, changes: list[dict[str, Any]]) -> None:
        if any(change["do"] not in ("put", "add", "delete", "delete_prefix", "clear") for change in changes):
            raise TypeError("unknown change")
        for change in changes:
            entries, what = self._store(change["store"]), change["do"]
            key = json.dumps(change.get("key"))
            if what == "put" or (what == "add" and key not in entries):
                entries[key] = (change["key"], change["record"])
            elif what == "delete":
                entries.pop(key, None)
            elif what == "delete_prefix":
                for kept in [
                    k for k, (stored, _) in entries.items() if _starts_with(stored, change["prefix"])
                ]:
                    del entries[kept]
            elif what == "clear":
                entries.clear()
