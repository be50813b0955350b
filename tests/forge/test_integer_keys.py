"""A Swagger 2.0 document whose records have integer ids and whose parameters are called
``id``, ``type`` and ``object``: rules alone give working tools, integer-keyed states and
verified tasks that walk from one tool to another."""

from __future__ import annotations

import json
from pathlib import Path

from autoforge.cli.llm import llm_config_from_options
from autoforge.forge import ForgeOptions, run_forge
from autoforge.llm import LLMClient

DOC = Path(__file__).parent / "data" / "kennel_swagger.json"


def _none() -> LLMClient:
    return LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))


async def test_integer_ids_and_refused_names_give_tools_and_tasks(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ForgeOptions(out=out, docs=[DOC], tasks=3, exports=False, until="verify")
    await run_forge(options, client_factory=_none)
    report = json.loads((out / "env/synthesis_report.json").read_text())
    kept = {t["name"] for t in report["tools"] if t["status"] != "failed"}
    assert {"listAnimals", "addAnimal", "getAnimal", "updateAnimal", "deleteAnimal"} <= kept
    code = (out / "env/tools.py").read_text()
    assert "def getAnimal(state, id_)" in code and "object_=None" in code
    spec = json.loads((out / "env/environment.json").read_text())
    animals = spec["state_schema"]["collections"][0]
    key = next(a for a in animals["attributes"] if a["name"] == animals["primary_key"])
    assert key["type"] == "integer"
    graph = json.loads((out / "graph.json").read_text())
    assert ("listAnimals", "deleteAnimal") in {(e["source"], e["target"]) for e in graph["edges"]}
    tasks = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    assert tasks
    for task in tasks:
        records = task["initial_state"]["animals"]
        assert records and all(r["id"] == int(k) for k, r in records.items())
    verify = json.loads((out / "verify.json").read_text())
    assert verify["verified"] >= 1, verify
