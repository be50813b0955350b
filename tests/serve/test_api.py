"""The HTTP API: every endpoint and every error (in-process through FastAPI's TestClient)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from autoforge.serve.app import create_app
from autoforge.serve.service import EnvService

TOKEN = "s3cret-token"
BASE = "http://127.0.0.1"  # the app is bound to loopback: Host must be a loopback name
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def service(make_service: Callable[..., EnvService]) -> EnvService:
    return make_service()


@pytest.fixture(params=[True, False], ids=["fast_path", "fastapi_route"])
def http(service: EnvService, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The app with and without the tool-call fast path: both must behave the same."""
    with TestClient(create_app(service, fast_path=request.param), base_url=BASE) as client:
        yield client


def _open(http: TestClient, **body: Any) -> dict[str, Any]:
    response = http.post("/episodes", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _call(http: TestClient, episode: str, name: str, args: Any) -> Any:
    return http.post(f"/episodes/{episode}/tools/{name}", json=args)


def test_health_and_tasks(http: TestClient) -> None:
    health = http.get("/health").json()
    assert health == {
        "status": "ok", "env_id": "bookstore", "open_episodes": 0, "max_sessions": 256, "tasks": 3,
        "calls_running": 0, "calls_overdue": 0,
    }  # fmt: skip
    assert http.get("/tasks").json() == {"count": 3, "task_ids": ["cancel", "lookup", "order"]}


def test_open_without_task_gives_tools_and_policy(http: TestClient, bookstore_env: Any) -> None:
    start = _open(http)
    assert start["task_id"] is None and start["question"] is None
    names = [t["function"]["name"] for t in start["tools"]]
    assert names == [t.name for t in bookstore_env.spec.tools]
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in start["tools"])
    assert start["policy"] == bookstore_env.spec.policy
    assert http.get("/health").json()["open_episodes"] == 1


def test_open_with_task_and_with_seed(http: TestClient) -> None:
    start = _open(http, task_id="cancel")
    assert (start["task_id"], start["question"]) == ("cancel", "Cancel my order ORD-9.")
    picks = {_open(http, seed=s)["task_id"] for s in range(12)}
    assert picks <= {"order", "cancel", "lookup"} and len(picks) > 1
    assert _open(http, seed=5)["task_id"] == _open(http, seed=5)["task_id"]


def test_tool_call_observation_and_business_error(http: TestClient) -> None:
    episode = _open(http)["episode_id"]
    ok = _call(http, episode, "get_book", {"book_id": "B-204"})
    assert ok.status_code == 200
    body = ok.json()
    assert body["ok"] is True and body["error_kind"] is None and "Orbitfall" in body["content"]
    missing = _call(http, episode, "get_book", {"book_id": "B-999"})
    assert missing.status_code == 200  # a business error is an observation, not an HTTP error
    assert missing.json()["ok"] is False and missing.json()["error_kind"] == "tool_error"
    assert "B-999" in missing.json()["content"]


def test_episodes_are_isolated(
    http: TestClient, replay: Callable[..., str], bookstore_env: Any
) -> None:
    a, b = _open(http)["episode_id"], _open(http)["episode_id"]
    cancel = {"order_id": "ORD-9", "reason": "other"}
    assert _call(http, a, "cancel_order", cancel).json()["ok"] is True
    hash_a = http.get(f"/episodes/{a}").json()["state_hash"]
    hash_b = http.get(f"/episodes/{b}").json()["state_hash"]
    assert hash_a == replay(bookstore_env, [("cancel_order", cancel)])
    assert hash_b == replay(bookstore_env, [])
    again = _call(http, a, "cancel_order", cancel).json()
    assert again["ok"] is False  # already cancelled in a, and only in a
    assert _call(http, b, "cancel_order", cancel).json()["ok"] is True


def test_episode_info_counts_calls(http: TestClient) -> None:
    episode = _open(http, task_id="lookup")["episode_id"]
    _call(http, episode, "get_book", {"book_id": "B-204"})
    info = http.get(f"/episodes/{episode}").json()
    assert info["n_calls"] == 1 and info["task_id"] == "lookup" and len(info["state_hash"]) == 64


def test_unknown_episode_is_404_everywhere(http: TestClient) -> None:
    for method, url in [
        ("POST", "/episodes/nope/tools/get_book"),
        ("GET", "/episodes/nope"),
        ("GET", "/episodes/nope/reward"),
        ("POST", "/episodes/nope/reward"),
        ("DELETE", "/episodes/nope"),
    ]:
        response = http.request(method, url, json={} if method == "POST" else None)
        assert response.status_code == 404, url
        assert response.json()["error"] == "unknown_episode"
        assert "nope" in response.json()["message"]


def test_unknown_tool_is_404_with_the_tool_list(http: TestClient) -> None:
    episode = _open(http)["episode_id"]
    response = _call(http, episode, "delete_everything", {})
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "unknown_tool" and "delete_everything" in body["message"]
    assert "get_book" in body["tools"]
    assert body["observation"]["error_kind"] == "unknown_tool"


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({}, "book_id"),  # required argument missing
        ({"book_id": 204}, "string"),  # wrong type
        ([1, 2], "JSON object"),  # not an object
    ],
)
def test_bad_arguments_are_422_with_the_validation_message(
    http: TestClient, payload: Any, needle: str
) -> None:
    episode = _open(http)["episode_id"]
    response = _call(http, episode, "get_book", payload)
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "invalid_arguments" and needle in body["message"]
    assert body["observation"]["ok"] is False


def test_body_that_is_not_json_is_422(http: TestClient) -> None:
    episode = _open(http)["episode_id"]
    response = http.post(
        f"/episodes/{episode}/tools/get_book",
        content=b"{book_id: B-204",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422 and "not valid JSON" in response.json()["message"]


def test_empty_body_means_no_arguments(http: TestClient) -> None:
    episode = _open(http)["episode_id"]
    response = http.post(f"/episodes/{episode}/tools/search_books")
    assert response.status_code == 200 and response.json()["ok"] is True


def test_bad_open_requests(http: TestClient) -> None:
    unknown = http.post("/episodes", json={"task_id": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown_task"
    typo = http.post("/episodes", json={"taskid": "order"})
    assert typo.status_code == 422 and typo.json()["error"] == "invalid_request"
    assert "taskid" in typo.json()["message"]
    bad_seed = http.post("/episodes", json={"seed": "abc"})
    assert bad_seed.status_code == 422 and "seed" in bad_seed.json()["message"]


def test_unknown_route_and_method(http: TestClient) -> None:
    assert http.get("/nothing").json()["error"] == "not_found"
    response = http.put("/episodes")
    assert response.status_code == 405 and response.json()["error"] == "method_not_allowed"


def test_reward_success_via_post_and_get(http: TestClient, sequences: list[Any]) -> None:
    episode = _open(http, task_id="order")["episode_id"]
    for name, args in sequences[1]:
        _call(http, episode, name, args)
    said = [{"role": "assistant", "content": "Your order ORD-11 is placed."}]
    reward = http.post(f"/episodes/{episode}/reward", json={"messages": said}).json()
    assert reward["reward"] == 1.0 and reward["components"] == {"DB": 1.0, "COMMUNICATE": 1.0}
    assert reward["state_hash"] == reward["gold_state_hash"]
    via_get = http.get(f"/episodes/{episode}/reward", params={"message": "Placed ORD-11."})
    assert via_get.json()["reward"] == 1.0


def test_reward_failure_reasons(http: TestClient, sequences: list[Any]) -> None:
    episode = _open(http, task_id="order")["episode_id"]
    nothing = http.get(f"/episodes/{episode}/reward").json()
    assert nothing["reward"] == 0.0
    assert "final state" in nothing["reason"] and "ORD-11" in nothing["reason"]
    for name, args in sequences[1]:
        _call(http, episode, name, args)
    silent = http.get(f"/episodes/{episode}/reward", params={"message": "done"}).json()
    assert silent["reward"] == 0.0 and silent["components"]["DB"] == 1.0
    assert "missing required outputs" in silent["reason"]


def test_reward_needs_a_task_and_valid_messages(http: TestClient) -> None:
    free = _open(http)["episode_id"]
    response = http.get(f"/episodes/{free}/reward")
    assert response.status_code == 409 and response.json()["error"] == "no_task"
    episode = _open(http, task_id="lookup")["episode_id"]
    bad = http.post(f"/episodes/{episode}/reward", json={"messages": [42]})
    assert bad.status_code == 422 and "message" in bad.json()["message"]


def test_delete_frees_the_slot(http: TestClient) -> None:
    episode = _open(http)["episode_id"]
    deleted = http.delete(f"/episodes/{episode}")
    assert deleted.status_code == 200 and deleted.json()["closed"] is True
    assert http.get("/health").json()["open_episodes"] == 0
    assert _call(http, episode, "get_book", {"book_id": "B-204"}).status_code == 404


def test_max_sessions_is_429_until_a_slot_frees(make_service: Callable[..., EnvService]) -> None:
    with TestClient(create_app(make_service(max_sessions=3)), base_url=BASE) as http:
        ids = [_open(http)["episode_id"] for _ in range(3)]
        full = http.post("/episodes")
        assert full.status_code == 429
        body = full.json()
        assert body["error"] == "too_many_sessions" and "3 episode slots" in body["message"]
        http.delete(f"/episodes/{ids[0]}")
        assert http.post("/episodes").status_code == 201


def test_idle_episodes_are_evicted(make_service: Callable[..., EnvService]) -> None:
    with TestClient(create_app(make_service(idle_timeout_s=0.2)), base_url=BASE) as http:
        episode = _open(http)["episode_id"]
        deadline = time.monotonic() + 5
        while http.get("/health").json()["open_episodes"] and time.monotonic() < deadline:
            time.sleep(0.05)  # the background sweeper runs every idle_timeout/4
        assert http.get("/health").json()["open_episodes"] == 0
        response = _call(http, episode, "get_book", {"book_id": "B-204"})
        assert response.status_code == 404 and "idle" in response.json()["message"]


def test_token_is_required_except_for_health(service: EnvService) -> None:
    with TestClient(create_app(service, token=TOKEN), base_url=BASE) as http:
        assert http.get("/health").status_code == 200
        missing = http.post("/episodes")
        assert missing.status_code == 401 and missing.json()["error"] == "unauthorized"
        assert "missing" in missing.json()["message"]
        assert missing.headers["www-authenticate"].startswith("Bearer")
        wrong = http.post("/episodes", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "wrong" in wrong.json()["message"]
        assert http.get("/openapi.json").status_code == 401
        ok = http.post("/episodes", headers=AUTH)
        assert ok.status_code == 201
        call = http.post(
            f"/episodes/{ok.json()['episode_id']}/tools/get_book",
            json={"book_id": "B-204"},
            headers=AUTH,
        )
        assert call.json()["ok"] is True


def test_openapi_spec_documents_the_api(service: EnvService) -> None:
    with TestClient(create_app(service, token=TOKEN), base_url=BASE) as http:
        spec = http.get("/openapi.json", headers=AUTH).json()
    paths = spec["paths"]
    assert set(paths) >= {
        "/episodes", "/episodes/{episode_id}/tools/{name}", "/episodes/{episode_id}/reward",
        "/episodes/{episode_id}", "/health",
    }  # fmt: skip
    assert set(paths["/episodes/{episode_id}/reward"]) == {"get", "post"}
    assert "delete" in paths["/episodes/{episode_id}"]
    call = paths["/episodes/{episode_id}/tools/{name}"]["post"]
    assert call["requestBody"]["content"]["application/json"]["schema"]["type"] == "object"
    assert {"404", "422", "401"} <= set(call["responses"])
    assert spec["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


_SLOW_TOOLS = """
def spin(state):
    n = 0
    while True:
        n += 1


def ping(state):
    return "pong"
"""


def test_a_call_past_the_time_limit_is_a_timeout_observation() -> None:
    from autoforge.env import Environment
    from autoforge.env.artifact.spec import EnvironmentSpec
    from autoforge.tooldocs.spec import ToolSpec

    spec = EnvironmentSpec(name="slow", tools=[ToolSpec(name="spin"), ToolSpec(name="ping")])
    env = Environment.from_parts(spec, _SLOW_TOOLS, {}, call_timeout_s=0.2)
    with TestClient(create_app(EnvService(env)), base_url=BASE) as http:
        episode = _open(http)["episode_id"]
        started = time.monotonic()
        spun = _call(http, episode, "spin", {})
        assert time.monotonic() - started < 5
        assert spun.status_code == 200
        assert spun.json()["error_kind"] == "timeout" and spun.json()["ok"] is False
        assert _call(http, episode, "ping", {}).json() == {
            "ok": True,
            "content": "pong",
            "error_kind": None,
        }  # fmt: skip  - the server (and the episode) keep working


def test_isolated_episodes_run_in_a_subprocess(bookstore_env: Any) -> None:
    service = EnvService(bookstore_env, isolated=True)
    with TestClient(create_app(service), base_url=BASE) as http:
        episode = _open(http)["episode_id"]
        body = _call(http, episode, "get_book", {"book_id": "B-204"}).json()
        assert body["ok"] is True and "Orbitfall" in body["content"]
        (session,) = list(service.store)
        assert type(session.episode).__name__ == "IsolatedEpisode"
        http.delete(f"/episodes/{episode}")


def test_the_fast_path_answers_tool_calls_before_fastapi(service: EnvService) -> None:
    app = create_app(service)
    routed: list[str] = []
    router = app.router

    class Spy:  # stands in for FastAPI's router: sees only what the fast path passes on
        def __getattr__(self, name: str) -> Any:
            return getattr(router, name)

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                routed.append(scope["path"])
            await router(scope, receive, send)

    app.router = Spy()  # type: ignore[assignment]
    with TestClient(app, base_url=BASE) as http:
        episode = _open(http)["episode_id"]
        assert _call(http, episode, "get_book", {"book_id": "B-204"}).json()["ok"] is True
        assert _call(http, episode, "nope", {}).status_code == 404
        assert http.post(f"/episodes/{episode}/tools/").status_code == 404  # no tool name
    assert routed == ["/episodes", f"/episodes/{episode}/tools/"]


def test_open_with_a_session_task_gives_the_agent_the_signed_in_user(
    bookstore_env: Any, served_tasks: list[Any]
) -> None:
    """A task's session context (``Task.session``) is part of the policy an external agent
    gets; other tasks' policy is the environment's."""
    signed = served_tasks[0].model_copy(update={"session": {"user_id": "U7"}})
    service = EnvService(bookstore_env, [signed, *served_tasks[1:]])
    start = service.open_episode(task_id=signed.id)
    assert start["policy"] == signed.with_session(bookstore_env.spec.policy)
    assert "user_id: U7" in start["policy"]
    assert service.open_episode(task_id=served_tasks[1].id)["policy"] == bookstore_env.spec.policy
