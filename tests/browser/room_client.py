"""A small HTTP client for the class room's API (``functions/api/rooms``), for the API tests and
``bench/room_load.py``: plain ``urllib``, JSON in and out, and an error answer returned (not raised) as
its status and JSON body, so a test can assert both."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass
class Answer:
    status: int
    body: Any


def call(
    base: str, method: str, path: str, body: Any = None, key: str | None = None, raw: bytes | None = None
) -> Answer:
    """``method path`` on the site at ``base`` with a JSON ``body`` (or ``raw`` bytes), and the teacher
    ``key`` if given; the answer's status and decoded JSON."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if key is not None:
        request.add_header("authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Answer(response.status, json.loads(response.read()))
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return Answer(error.code, json.loads(text))
        except ValueError:
            return Answer(error.code, text.decode(errors="replace"))


def new_learner() -> str:
    """A learner's id as their browser makes one: random, no name."""
    return secrets.token_urlsafe(16)


def _on(lesson: str | None, body: dict) -> dict:
    return body if lesson is None else {**body, "lesson": lesson}


@dataclass
class Room:
    """A room opened on ``base``: its code and teacher key."""

    base: str
    code: str
    key: str

    @classmethod
    def open(cls, base: str, shape: list[int], lesson: str = "crash") -> Room:
        answer = call(base, "POST", "/api/rooms", {"lesson": lesson, "shape": shape})
        assert answer.status == 201, answer
        return cls(base, answer.body["code"], answer.body["teacher_key"])

    def learner(self, action: str, body: dict) -> Answer:
        return call(self.base, "POST", f"/api/rooms/{self.code}/{action}", body)

    def teacher(self, action: str, body: dict | None = None, key: str | None = None) -> Answer:
        method = "GET" if action == "tally" else "POST"
        return call(self.base, method, f"/api/rooms/{self.code}/{action}", body, key=key or self.key)

    def join(self, learner: str) -> Answer:
        return self.learner("join", {"learner": learner})

    def vote(self, learner: str, step: int, choice: int, lesson: str | None = None) -> Answer:
        """A vote on ``step`` of ``lesson`` (as a page says it), or of the room's lesson (none said)."""
        return self.learner("vote", _on(lesson, {"learner": learner, "step": step, "choice": choice}))

    def progress(self, learner: str, step: int, finished: bool = False, lesson: str | None = None) -> Answer:
        return self.learner("progress", _on(lesson, {"learner": learner, "step": step, "finished": finished}))

    def tally(self) -> dict:
        answer = self.teacher("tally")
        assert answer.status == 200, answer
        return answer.body
