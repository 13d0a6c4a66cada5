"""The class room's API (``functions/api/rooms``, docs/ROOM.md) on ``wrangler pages dev`` over a fresh
local D1 database: every refusal is a JSON error with its status and name, one room's data is not
reached through another's code or key, and one learner's 1,000 votes on a step count once (the last).

The module has its own wrangler (its own database, a higher limit on room creations: its tests open
about 50 rooms), so the limit it ends with does not refuse the rooms other modules open."""

import re
from collections.abc import Iterator

import pytest
from browser_harness import WranglerSite
from room_client import Room, call, new_learner

SHAPE = [3, 0, 2]  # step 0: three choices; step 1: no question; step 2: two choices
LIMIT = 100  # room creations an hour from one address, on this module's site (the site's default is 20)


@pytest.fixture(scope="module")
def rooms_site(dist, tmp_path_factory) -> Iterator[WranglerSite]:
    limit = {"ROOM_CREATIONS_PER_HOUR": str(LIMIT)}
    with WranglerSite(dist, tmp_path_factory.mktemp("rooms"), limit) as server:
        yield server


@pytest.fixture
def base(rooms_site) -> str:
    return rooms_site.url


@pytest.fixture
def room(base) -> Room:
    return Room.open(base, SHAPE)


def refused(answer, status: int, name: str) -> None:
    assert answer.status == status, answer
    assert answer.body["error"] == name, answer
    assert answer.body["message"], answer


def test_the_site_says_it_has_rooms_and_a_static_server_does_not(base, site):
    assert call(base, "GET", "/api/rooms").body == {"rooms": True}
    assert call(site, "GET", "/api/rooms").status == 404


def test_a_room_gets_a_short_code_and_a_teacher_key(room):
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", room.code), room.code  # no 0/O or 1/I to misread
    assert len(room.key) >= 32
    assert room.tally() == {
        "code": room.code, "lesson": "crash", "step": 0, "steps": 3, "closed": False, "learners": 0,
        "votes": [[0, 0, 0], [], [0, 0]], "on_step": [0, 0, 0], "finished": [],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "name"),
    [
        ({"shape": [2]}, 400, "missing_field"),
        ({"lesson": "crash"}, 400, "missing_field"),
        ({"lesson": "Crash!", "shape": [2]}, 400, "bad_field"),
        ({"lesson": "crash", "shape": []}, 400, "bad_field"),
        ({"lesson": "crash", "shape": [10]}, 400, "bad_field"),
        ({"lesson": "crash", "shape": [2, -1]}, 400, "bad_field"),
        ({"lesson": "crash", "shape": [1.5]}, 400, "bad_field"),
        ({"lesson": "crash", "shape": [1] * 61}, 400, "bad_field"),
        ({"lesson": "crash", "shape": [2], "step": 1}, 422, "no_such_step"),
        ({"lesson": "crash", "shape": [2], "step": 0.5}, 400, "bad_field"),
    ],
)
def test_a_room_with_a_bad_lesson_shape_or_step_is_refused(base, body, status, name):
    refused(call(base, "POST", "/api/rooms", body), status, name)


@pytest.mark.parametrize(
    ("raw", "status", "name"),
    [
        (b"{not json", 400, "malformed_json"),
        (b"[1, 2]", 400, "malformed_json"),
        (b"null", 400, "malformed_json"),
        (b"", 400, "malformed_json"),
        (b'{"learner": "' + b"a" * 5000 + b'"}', 413, "body_too_large"),
    ],
)
def test_malformed_or_oversized_bodies_are_refused(room, raw, status, name):
    refused(call(room.base, "POST", "/api/rooms", raw=raw), status, name)
    refused(call(room.base, "POST", f"/api/rooms/{room.code}/join", raw=raw), status, name)
    refused(call(room.base, "POST", f"/api/rooms/{room.code}/step", raw=raw, key=room.key), status, name)


@pytest.mark.parametrize("code", ["ZZZZZZ", "abc", "0OIL10", "A" * 200])
def test_an_unknown_room_is_refused(base, code):
    refused(call(base, "GET", f"/api/rooms/{code}"), 404, "unknown_room")
    refused(call(base, "POST", f"/api/rooms/{code}/join", {"learner": new_learner()}), 404, "unknown_room")
    refused(call(base, "GET", f"/api/rooms/{code}/tally", key="x"), 404, "unknown_room")


def test_an_expired_room_is_refused_as_unknown(rooms_site, room):
    learner = new_learner()
    assert room.join(learner).status == 200
    rooms_site.d1(f"UPDATE rooms SET expires_at = 0 WHERE code = '{room.code}'")
    refused(call(room.base, "GET", f"/api/rooms/{room.code}"), 404, "unknown_room")
    refused(room.vote(learner, 0, 1), 404, "unknown_room")
    refused(room.teacher("tally"), 404, "unknown_room")


def test_a_room_opens_at_the_teachers_step(base):
    opened = call(base, "POST", "/api/rooms", {"lesson": "crash", "shape": SHAPE, "step": 2})
    assert opened.status == 201, opened
    assert call(base, "GET", f"/api/rooms/{opened.body['code']}").body["step"] == 2


def test_a_code_is_read_in_either_case(room):
    assert call(room.base, "GET", f"/api/rooms/{room.code.lower()}").body["code"] == room.code


def test_teacher_actions_need_the_rooms_own_key(base, room):
    other = Room.open(base, SHAPE)
    for action, body in (("tally", None), ("step", {"step": 1}), ("close", {})):
        refused(call(base, "GET" if action == "tally" else "POST", f"/api/rooms/{room.code}/{action}", body),
                401, "missing_teacher_key")  # fmt: skip
        refused(room.teacher(action, body, key="not-the-key"), 403, "bad_teacher_key")
        refused(room.teacher(action, body, key=other.key), 403, "bad_teacher_key")
        refused(room.teacher(action, body, key=room.key[:-1]), 403, "bad_teacher_key")
    assert room.tally()["step"] == 0 and not room.tally()["closed"]


def test_nothing_of_one_room_is_reached_through_another(base, room):
    other = Room.open(base, SHAPE)
    learner = new_learner()
    assert room.join(learner).status == 200
    assert room.vote(learner, 0, 2).status == 200
    refused(other.vote(learner, 0, 2), 403, "not_joined")  # joined room, not other
    assert other.tally()["votes"] == [[0, 0, 0], [], [0, 0]]
    assert other.tally()["learners"] == 0
    assert room.tally()["votes"][0] == [0, 0, 1]


@pytest.mark.parametrize(
    ("step", "choice", "status", "name"),
    [
        (3, 0, 422, "no_such_step"),
        (-1, 0, 422, "no_such_step"),
        (0, 3, 422, "no_such_choice"),
        (0, -1, 422, "no_such_choice"),
        (1, 0, 422, "no_such_choice"),  # step 1 has no question
        (2, 2, 422, "no_such_choice"),
        ("0", 0, 400, "bad_field"),
        (0, 1.5, 400, "bad_field"),
        (0, None, 400, "bad_field"),
    ],
)
def test_a_vote_for_a_step_or_choice_that_does_not_exist_is_refused(room, step, choice, status, name):
    learner = new_learner()
    assert room.join(learner).status == 200
    refused(room.vote(learner, step, choice), status, name)
    assert room.tally()["votes"] == [[0, 0, 0], [], [0, 0]]


@pytest.mark.parametrize("learner", [None, "", "short", "x" * 65, "has space in it here", 12345678901234567])
def test_a_bad_learner_id_is_refused(room, learner):
    body = {} if learner is None else {"learner": learner}
    refused(room.learner("join", body), 400, "missing_field" if learner is None else "bad_field")


def test_a_vote_before_joining_is_refused(room):
    refused(room.vote(new_learner(), 0, 0), 403, "not_joined")


def test_a_thousand_votes_from_one_learner_count_once_and_the_last_counts(room):
    learner, friend = new_learner(), new_learner()
    for someone in (learner, friend):
        assert room.join(someone).status == 200
    assert room.vote(friend, 0, 1).status == 200
    for n in range(1, 1001):  # choices 1, 2, 0, 1, 2, 0, …: the 1,000th is choice 1000 % 3 == 1
        answer = room.vote(learner, 0, n % 3)
        assert answer.status == 200, answer
    assert room.vote(learner, 2, 1).status == 200
    # the learner's 1,000 votes on step 0 count once, as their last; the friend's once; step 2 apart
    assert room.tally()["votes"] == [[0, 2, 0], [], [0, 1]]


def test_learners_report_their_step_and_the_teacher_sees_who_finished(room):
    ids = [new_learner() for _ in range(3)]
    for learner in ids:
        assert room.join(learner).status == 200
    assert room.learner("progress", {"learner": ids[0], "step": 2, "finished": True}).status == 200
    assert room.learner("progress", {"learner": ids[1], "step": 2, "finished": False}).status == 200
    refused(room.learner("progress", {"learner": ids[2], "step": 3, "finished": False}), 422, "no_such_step")
    refused(room.learner("progress", {"learner": ids[2], "step": 1, "finished": "yes"}), 400, "bad_field")
    tally = room.tally()
    assert tally["learners"] == 3
    assert tally["on_step"] == [1, 0, 2]
    assert tally["finished"] == [ids[0][:4]]


def test_the_teacher_moves_the_room_and_learners_see_it(room):
    assert room.teacher("step", {"step": 2}).body["step"] == 2
    assert call(room.base, "GET", f"/api/rooms/{room.code}").body["step"] == 2
    learner = new_learner()
    assert room.join(learner).body["step"] == 2  # a late learner starts where the room is
    refused(room.teacher("step", {"step": 3}), 422, "no_such_step")
    refused(room.teacher("step", {}), 400, "missing_field")


NEXT = {"lesson": "threads", "shape": [2, 0]}  # the lesson the teacher goes on to: two steps


def counts(room: Room, *names: str) -> tuple:
    tally = room.tally()
    return tuple(tally[name] for name in names)


def test_the_room_follows_the_teacher_to_another_lesson_and_keeps_each_lessons_votes_apart(room):
    learner, late = new_learner(), new_learner()
    assert room.join(learner).status == 200
    assert room.vote(learner, 0, 2).status == 200  # on "crash"
    assert room.progress(learner, 2, finished=True).status == 200
    moved = room.teacher("lesson", {**NEXT, "step": 1}).body
    assert moved == {"code": room.code, "lesson": "threads", "step": 1, "steps": 2, "closed": False}
    # the new lesson's tally: nothing of crash's votes, progress or finishers mixed in
    assert counts(room, "votes", "on_step", "finished", "learners") == ([[0, 0], []], [0, 0], [], 1)
    assert room.join(late).body["lesson"] == "threads"  # a learner joining after the move lands there
    assert room.join(late).body["step"] == 1

    refused(room.vote(learner, 0, 1, lesson="crash"), 409, "other_lesson")  # a page still on crash
    refused(room.progress(learner, 0, lesson="crash"), 409, "other_lesson")
    refused(room.vote(learner, 0, 2), 422, "no_such_choice")  # crash's step 0 had three choices; this two
    refused(room.vote(learner, 2, 0), 422, "no_such_step")  # crash's step 2 is not this lesson's
    refused(room.vote(learner, 1, 0), 422, "no_such_choice")  # step 1 has no question here
    assert room.vote(learner, 0, 1, lesson="threads").status == 200
    assert room.vote(late, 0, 0).status == 200  # a vote without a lesson is for the room's
    assert room.progress(learner, 1, lesson="threads").status == 200
    assert counts(room, "votes", "on_step", "finished") == ([[1, 1], []], [0, 2], [])  # late joined on 1

    assert room.teacher("lesson", {"lesson": "crash", "shape": SHAPE}).body["step"] == 0  # its first step
    # back on crash: its votes are there again; the learners on threads are not on its steps
    assert counts(room, "votes", "on_step", "learners") == ([[0, 0, 1], [], [0, 0]], [0, 0, 0], 2)


@pytest.mark.parametrize(
    ("body", "status", "name"),
    [
        ({"shape": [2]}, 400, "missing_field"),
        ({"lesson": "threads"}, 400, "missing_field"),
        ({"lesson": "Threads!", "shape": [2]}, 400, "bad_field"),
        ({"lesson": "threads", "shape": [10]}, 400, "bad_field"),
        ({**NEXT, "step": 2}, 422, "no_such_step"),
        ({**NEXT, "step": "1"}, 400, "bad_field"),
    ],
)
def test_a_move_to_a_bad_lesson_shape_or_step_is_refused_and_the_room_stays(room, body, status, name):
    refused(room.teacher("lesson", body), status, name)
    assert room.tally()["lesson"] == "crash"


def test_only_the_teacher_moves_an_open_room_to_another_lesson(base, room):
    refused(call(base, "POST", f"/api/rooms/{room.code}/lesson", NEXT), 401, "missing_teacher_key")
    refused(room.teacher("lesson", NEXT, key=Room.open(base, SHAPE).key), 403, "bad_teacher_key")
    assert room.teacher("close", {}).status == 200
    refused(room.teacher("lesson", NEXT), 410, "room_closed")
    assert room.tally()["lesson"] == "crash"


def test_a_closed_room_takes_no_more_votes_or_learners(room):
    learner = new_learner()
    assert room.join(learner).status == 200
    assert room.vote(learner, 0, 1).status == 200
    assert room.teacher("close", {}).body["closed"] is True
    assert call(room.base, "GET", f"/api/rooms/{room.code}").body["closed"] is True
    refused(room.vote(learner, 0, 2), 410, "room_closed")
    refused(room.join(new_learner()), 410, "room_closed")
    refused(room.teacher("step", {"step": 1}), 410, "room_closed")
    assert room.tally()["votes"][0] == [0, 1, 0]  # the teacher still reads what the class said


def test_wrong_methods_and_actions_are_refused(room):
    refused(call(room.base, "GET", f"/api/rooms/{room.code}/vote"), 405, "method_not_allowed")
    refused(
        call(room.base, "POST", f"/api/rooms/{room.code}/tally", {}, key=room.key), 405, "method_not_allowed"
    )
    refused(call(room.base, "DELETE", "/api/rooms"), 405, "method_not_allowed")
    refused(call(room.base, "POST", f"/api/rooms/{room.code}/drop", {}), 404, "unknown_action")


def test_a_flood_of_room_creations_is_limited(base):
    """Last in the module: it spends this client's creations for the hour."""
    answers = [call(base, "POST", "/api/rooms", {"lesson": "crash", "shape": [2]}) for _ in range(LIMIT + 1)]
    statuses = [answer.status for answer in answers]
    assert 429 in statuses, statuses
    first = statuses.index(429)
    assert set(statuses[:first]) <= {201} and set(statuses[first:]) == {429}
    refused(answers[-1], 429, "too_many_rooms")
