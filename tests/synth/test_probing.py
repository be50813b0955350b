"""Differential probing against a Python reference module and a live HTTP API."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.examples import example_path
from autoforge.synth.fidelity.probing import make_probes, run_probes
from autoforge.tooldocs.spec import ToolSpec


def _bookstore_env(tmp_path: Path, tools_source: str | None = None) -> Path:
    """The bundled bookstore environment (hand-written tools), optionally with other code."""
    env = tmp_path / "bookstore"
    shutil.copytree(example_path("bookstore"), env)
    if tools_source is not None:
        (env / "tools.py").write_text(tools_source)
    return env


def test_the_reference_against_itself_agrees_and_the_null_env_does_not(tmp_path: Path) -> None:
    ref = example_path("bookstore") / "tools.py"
    report = run_probes(_bookstore_env(tmp_path), str(ref))
    f, null = report.figures, report.null
    assert f.probes > 20 and report.disagreements == []
    assert f.refusal_agreement == f.result_agreement == f.state_agreement == 1.0
    assert null.refusal_agreement < 0.8 and null.result_agreement == 0.0
    assert set(report.per_tool) >= {"cancel_order", "place_order", "add_review"}
    assert report.missing_tools == []  # helpers (_require) and imports are not tools


def test_a_cancel_that_ignores_the_status_is_caught(tmp_path: Path) -> None:
    """The docs allow cancelling pending orders only: a cancel with the check removed accepts
    the delivered and cancelled orders the data shows, and each such probe is listed."""
    ref = example_path("bookstore") / "tools.py"
    loose = ref.read_text().replace(
        '    order = _pending_order(state, order_id, "be cancelled")',
        '    order = _require(state, "orders", order_id, "order")',
    )
    report = run_probes(_bookstore_env(tmp_path, loose), str(ref))
    bad = [d for d in report.disagreements if d.tool == "cancel_order"]
    assert bad and all("acceptance" in d.what for d in bad)
    assert {d.kind for d in bad} >= {"valid, status=delivered"}
    assert all(d.reference.startswith("refused") and d.ours.startswith("accepted") for d in bad)
    assert report.figures.refusal_agreement < 1.0


def test_probes_cover_statuses_unknown_ids_rules_and_types() -> None:
    spec = EnvironmentSpec.model_validate_json(
        (example_path("bookstore") / "environment.json").read_text()
    )
    state = json.loads((example_path("bookstore") / "initial_state.json").read_text())
    kinds = {(p.tool, p.kind) for p in make_probes(spec, state)}
    statuses = {o["status"] for o in state["orders"].values()}
    for status in statuses - {"delivered"}:  # the first valid probe may already be delivered
        assert ("get_order", f"valid, status={status}") in kinds or ("get_order", "valid") in kinds
    assert ("cancel_order", "unknown id") in kinds
    assert any(t == "add_review" and k.startswith("violates: rating") for t, k in kinds)
    assert any(k.startswith("wrong type") for _, k in kinds)


# -- a live HTTP API on loopback ---------------------------------------------------------------

ORDERS = {
    "o1": {"order_id": "o1", "status": "pending", "reason": None},
    "o2": {"order_id": "o2", "status": "delivered", "reason": None},
    "o3": {"order_id": "o3", "status": "cancelled", "reason": "other"},
}


class Cancel(BaseModel):
    """The body of the cancel operation."""

    reason: str


def _app() -> Any:
    from fastapi import FastAPI, HTTPException

    app = FastAPI(title="orders")
    db: dict[str, Any] = {}

    @app.post("/_reset", include_in_schema=False)
    def reset() -> dict[str, bool]:
        db.clear()
        db.update(json.loads(json.dumps(ORDERS)))
        return {"ok": True}

    @app.get("/orders/{order_id}", operation_id="get_order")
    def get_order(order_id: str) -> dict[str, Any]:
        if order_id not in db:
            raise HTTPException(404, "order not found")
        return db[order_id]

    @app.post("/orders/{order_id}/cancel", operation_id="cancel_order")
    def cancel_order(order_id: str, body: Cancel) -> dict[str, Any]:
        order = db.get(order_id)
        if order is None:
            raise HTTPException(404, "order not found")
        if order["status"] != "pending":
            raise HTTPException(409, "only pending orders can be cancelled")
        order.update(status="cancelled", reason=body.reason)
        return order

    reset()
    return app


@pytest.fixture
def live_api() -> Iterator[tuple[str, dict[str, Any]]]:
    uvicorn = pytest.importorskip("uvicorn")
    app = _app()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app.openapi()
    finally:
        server.should_exit = True
        thread.join(timeout=5)


ENV_TOOLS = """
def get_order(state, order_id):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("order not found")
    return order


def cancel_order(state, order_id, reason):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("order not found")
    order["status"] = "cancelled"
    order["reason"] = reason
    return order
"""


def _orders_env(tmp_path: Path) -> Path:
    env = tmp_path / "orders-env"
    env.mkdir()
    string = {"type": "string"}
    tools = [
        ToolSpec(
            name="get_order",
            description="Get an order.",
            parameters={"type": "object", "properties": {"order_id": string},
                        "required": ["order_id"]},
            access="read",
        ),
        ToolSpec(
            name="cancel_order",
            description="Cancel an order that is still pending.",
            parameters={"type": "object", "properties": {"order_id": string, "reason": string},
                        "required": ["order_id", "reason"]},
            access="write",
        ),
    ]  # fmt: skip
    status = Attribute(name="status", type="enum", enum=["pending", "delivered", "cancelled"])
    coll = CollectionSchema(
        name="orders", primary_key="order_id",
        attributes=[Attribute(name="order_id", type="id"), status, Attribute(name="reason")],
    )  # fmt: skip
    spec = EnvironmentSpec(name="orders", tools=tools, state_schema=StateSchema(collections=[coll]))
    (env / "environment.json").write_text(spec.model_dump_json())
    (env / "tools.py").write_text(ENV_TOOLS)
    (env / "initial_state.json").write_text(json.dumps({"orders": ORDERS}))
    return env


def test_probing_a_live_http_api(tmp_path: Path, live_api: tuple[str, dict[str, Any]]) -> None:
    url, openapi = live_api
    doc = tmp_path / "openapi.json"
    doc.write_text(json.dumps(openapi))
    report = run_probes(_orders_env(tmp_path), url, openapi=doc, reset="/_reset")
    assert report.figures.state_agreement is None  # a live API's state is not visible
    gets = report.per_tool["get_order"]
    assert gets.acceptance_agree == gets.probes and gets.result_agree == gets.both_accepted > 0
    bad = {d.kind for d in report.disagreements if d.tool == "cancel_order"}
    assert "valid, status=delivered" in bad or "valid" in bad  # accepted here, 409 there
    assert report.figures.refusal_agreement > report.null.refusal_agreement


def test_a_reference_file_runs_behind_the_sandbox_not_in_this_process(tmp_path: Path) -> None:
    from autoforge.errors import UserError

    canary = tmp_path / "canary"
    hostile = tmp_path / "reference.py"
    hostile.write_text(
        f"open({str(canary)!r}, 'w').write('escaped')\n\n"
        "def get_book(state, book_id):\n    return state['books'][book_id]\n"
    )
    with pytest.raises(UserError, match="cannot load"):
        run_probes(_bookstore_env(tmp_path / "env"), str(hostile))
    assert not canary.exists()


def test_probes_follow_the_env_dirs_rules_file(tmp_path: Path) -> None:
    """The rules probed are the environment's ``rules.json`` (its one owner, read through
    ``EnvDir.read_rules``); only a directory without the file has them extracted again."""
    from autoforge.env import EnvDir
    from autoforge.env.artifact.rules import RuleSet

    ref = str(example_path("bookstore") / "tools.py")
    env = _bookstore_env(tmp_path)
    (env / EnvDir.RULES).unlink(missing_ok=True)
    extracted = run_probes(env, ref).figures.probes
    (env / EnvDir.RULES).write_text(RuleSet(rules=[]).model_dump_json())
    recorded = run_probes(env, ref).figures.probes
    assert recorded < extracted  # no rule recorded: no "violates" probe (add_review's rating)


def test_autoforge_check_meets_the_env_dirs_rules_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoforge.env import EnvDir
    from autoforge.synth.fidelity.envdir_checks import check_env_dir

    read: list[Path] = []
    real = EnvDir.read_rules

    def spy(self: EnvDir) -> Any:
        read.append(self.root)
        return real(self)

    monkeypatch.setattr(EnvDir, "read_rules", spy)
    env = _bookstore_env(tmp_path)
    assert check_env_dir(env)
    assert read == [env]
