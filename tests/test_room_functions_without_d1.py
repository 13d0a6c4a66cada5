"""A deployment without the class rooms' D1 binding (issue 38: "the static site without the binding
works exactly as today"): every Pages Function under ``functions/api`` answers 404 ``no_rooms`` (a
method it never takes may get its 405 first), so the presenter's room button stays hidden (``GET
/api/rooms`` is what the page asks). The functions run in Node, as Pages' runtime runs them:
``onRequest`` with an ``env`` that has no ``ROOMS``. With the binding,
``tests/browser/test_room_api.py`` drives them through ``wrangler``."""

import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FUNCTIONS = REPO / "functions"
PARAM_VALUES = {"code": "ABCDEF", "op": "read"}
"""A route's ``[param]`` in a file name: a well-formed room code, a thread operation, an action."""

CALL_EVERY_FUNCTION_JS = """
const [cases] = process.argv.slice(1);
const answers = [];
for (const { file, method, params } of JSON.parse(cases)) {
  const { onRequest } = await import(file);
  const body = method === "GET" ? undefined : JSON.stringify({ learner: "x", step: 0, choice: 0 });
  const headers = { "content-type": "application/json" };
  const request = new Request("http://site.test/api/rooms", { method, body, headers });
  const response = await onRequest({ request, env: {}, params });
  answers.push({ file, method, status: response.status, body: await response.json() });
}
console.log(JSON.stringify(answers));
"""


def routes() -> list[Path]:
    return sorted(path for path in (FUNCTIONS / "api").rglob("*.js"))


def params_of(route: Path) -> dict[str, str]:
    names = re.findall(r"\[(\w+)\]", str(route.relative_to(FUNCTIONS)))
    return {name: PARAM_VALUES.get(name, "join") for name in names}


def test_every_room_function_answers_no_rooms_without_the_d1_binding():
    cases = [
        {"file": route.as_uri(), "method": method, "params": params_of(route)}
        for route in routes()
        for method in ("GET", "POST")
    ]
    assert len(cases) >= 6, "the room's functions are missing"
    out = subprocess.run(
        ["node", "--input-type=module", "-e", CALL_EVERY_FUNCTION_JS, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    refused_for_no_rooms = set()
    for answer in json.loads(out.stdout):
        where = f"{answer['method']} {answer['file'].removeprefix(FUNCTIONS.as_uri())}"
        assert answer["status"] in (404, 405), where  # nothing answers; a wrong method may say so first
        if answer["status"] == 404:
            assert answer["body"]["error"] == "no_rooms", where
            assert "no class rooms" in answer["body"]["message"], where
            refused_for_no_rooms.add(answer["file"])
    assert refused_for_no_rooms == {case["file"] for case in cases}  # each route, to its own method
