"""An argument that, left out, takes a value from a record the call names ("`rate` defaults
to the client's `default_rate`"): the create writes the argument when given, else that
record's attribute."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.env import Environment

JOB = {
    "type": "object",
    "properties": {
        "job_id": {"type": "string"},
        "client_id": {"type": "string"},
        "title": {"type": "string"},
        "rate": {"type": "number"},
    },
}
CLIENT = {
    "type": "object",
    "properties": {"client_id": {"type": "string"}, "default_rate": {"type": "number"}},
}
OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Jobs", "version": "1"},
    "paths": {"/jobs": {"post": {
        "operationId": "create_job",
        "summary": "Create a job",
        "description": "Creates a job for a client. `rate` defaults to the client's "
                       "`default_rate`. Job ids continue the data's sequence.",
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "required": ["client_id", "title"],
            "properties": {"client_id": {"type": "string"}, "title": {"type": "string"},
                           "rate": {"type": "number"}}}}}},
        "responses": {"201": {"description": "The job", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Job"}}}}},
    }}},
    "components": {"schemas": {"Job": JOB, "Client": CLIENT}},
}  # fmt: skip
DATA: dict[str, Any] = {
    "meta": {"today": "2026-05-04"},
    "clients": {"C1": {"client_id": "C1", "default_rate": 80.0},
                "C2": {"client_id": "C2", "default_rate": 95.5}},
    "jobs": {"J001": {"job_id": "J001", "client_id": "C1", "title": "Audit", "rate": 80.0},
             "J002": {"job_id": "J002", "client_id": "C2", "title": "Review", "rate": 120.0}},
}  # fmt: skip


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    folder = tmp_path_factory.mktemp("defaults")
    return rules_env(folder, yaml.safe_dump(OPENAPI, sort_keys=False), DATA)


def _new_job(env: Environment, **args: Any) -> dict[str, Any]:
    ep = env.episode(state=copy.deepcopy(DATA))
    obs = ep.call("create_job", args)
    assert obs.ok, obs
    made = [j for k, j in ep.snapshot()["jobs"].items() if k not in DATA["jobs"]]
    assert len(made) == 1
    return made[0]


def test_a_left_out_argument_takes_the_named_record_s_attribute(env: Environment) -> None:
    assert _new_job(env, client_id="C2", title="New")["rate"] == 95.5
    assert _new_job(env, client_id="C2", title="New", rate=60.0)["rate"] == 60.0
