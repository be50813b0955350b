"""State design quality and cost: document-defined fields kept, attributes invented, model calls.

For each document set, the state schema is designed as ``autoforge synth env`` does (docs mode:
``design_state``; with ``+data``: inference from the data) and scored against the document:

* ``doc_fields``: the fields the document defines: every property of an object that a tool
  returns (response / output schemas, at any depth) plus every entity-naming tool parameter
  (ids, names, emails, phones). The response envelope is not counted: a list wrapper's element
  property and its pagination (``orders``, ``next_page_token``) and a result property that only
  holds an entity (``{"Budget": {...}}``) describe the response, not anything stored;
* ``coverage``: the share of those present in the designed state: an attribute, a collection
  key, or a field nested (at any depth) in an object attribute read from a docs schema (the
  attribute's provenance points at that schema, which the state generator fills it from);
* ``invented``: attributes whose name appears nowhere in the document (no returned property, no
  parameter) nor in the data, and that are no setting quoting a sentence the docs contain:
  what the model guessed;
* ``guessed``: those of the invented attributes whose name the documents' text does not state
  either (not as words of a description or the policy: ``membership_tier`` is stated by
  "membership tier" in a description, ``inventory_id`` by nothing);
* ``settings``: facts stated in the policy/descriptions kept in the ``settings`` singleton;
* ``model_calls`` (requests sent to the model, validation re-asks included), the prompt and
  generated tokens, CPU and wall seconds of the design (the embedded llama.cpp server runs in
  the worker process, so its CPU time is counted); ``call_log`` has one entry per request:
  why (purpose, ``re-ask``), tokens, seconds, llama.cpp's prompt/generation split, finish.

Baselines in the same run: ``--compare REF`` also designs with git REF's code (one worker
process per code version, each designing every document; the working tree's runs second), and
the model ``none`` (a client that never answers) shows what the rules alone give.

Run: ``python benchmarks/state_design.py`` (rules only, seconds) or
``python benchmarks/state_design.py --model small --compare main`` (embedded 0.5B, before/after;
minutes per document on 2 cores). ``--corpus DIR`` adds every document file in DIR. Prints a
table, the load average, and last one JSON object: ``{"docs": {...}, "summary": {...}}``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_method import Load
from rich.console import Console
from rich.table import Table

from autoforge.examples import example_path
from autoforge.llm import LLMClient, config_from_cli
from autoforge.synth.rulecode.classify import collection_of_key
from autoforge.synth.state.design import design_state
from autoforge.synth.state.infer import data_to_state, infer_schema, nested_field_names
from autoforge.synth.state.mapping import _known_names
from autoforge.tooldocs import is_entity_param, load_docs

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO.parent / "shared" / "benchmarks"


def presets() -> dict[str, dict[str, Any]]:
    """Document sets at hand: the bundled examples and the benchmark tool lists."""
    book = example_path("bookstore")
    out: dict[str, dict[str, Any]] = {
        "bookstore-openapi": {"docs": [book / "openapi.yaml"]},
        "bookstore-functions": {"docs": [book / "tools.openai.json"]},
        "todo": {"docs": [example_path("todo") / "tools.openai.json"]},
    }
    for name, rel in [("tau2-retail", "tau2-bench/retail"), ("tau2-airline", "tau2-bench/airline")]:
        d = BENCH / rel
        if d.is_dir():
            out[name] = {"docs": [d]}  # tools.json + policy.md
            out[f"{name}+data"] = {"docs": [d], "data": d / "db.json"}
    for dom in ("ota", "delivery", "instore"):
        d = BENCH / "vitabench" / dom
        if d.is_dir():
            out[f"vita-{dom}"] = {"docs": [d]}
    return out


def _client(model: str, no_cache: bool = False) -> LLMClient:
    if model == "none":
        return LLMClient.scripted([lambda _req: "no answer"] * 10_000)
    return LLMClient(config_from_cli(model=model, no_cache=no_cache))


class _CallLog:
    """Wraps a client's transport to record each request sent to the endpoint: why it was made
    (its purpose; ``re-ask`` when it extends an earlier request's messages with a validation
    error), prompt and generated tokens, seconds, and why generation stopped."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[dict[str, Any]] = []
        self._sent: list[list[Any]] = []

    def cache_label(self, endpoint: Any) -> str:
        return str(self.inner.cache_label(endpoint))

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def complete(self, endpoint: Any, body: dict[str, Any], purpose: str) -> dict[str, Any]:
        msgs = list(body.get("messages", []))
        reask = any(len(m) < len(msgs) and msgs[: len(m)] == m for m in self._sent)
        self._sent.append(msgs)
        start = time.perf_counter()
        raw: dict[str, Any] = await self.inner.complete(endpoint, body, purpose)
        usage = raw.get("usage") or {}
        choice = (raw.get("choices") or [{}])[0]
        self.calls.append({
            "purpose": purpose + (" (re-ask)" if reask else ""),
            "prompt_chars": sum(len(str(m.get("content") or "")) for m in msgs),
            "prompt_tokens": usage.get("prompt_tokens", 0),
            "gen_tokens": usage.get("completion_tokens", 0),
            "max_tokens": body.get("max_tokens"),
            "finish": choice.get("finish_reason"),
            "seconds": round(time.perf_counter() - start, 2),
            **_server_timings(raw),
        })  # fmt: skip
        return raw


def _server_timings(raw: dict[str, Any]) -> dict[str, float]:
    """llama.cpp's own split of a request's time (prompt processing vs generation), if sent."""
    t = raw.get("timings") or {}
    keys = {"prompt_ms": "prompt_s", "predicted_ms": "gen_s"}
    return {out: round(float(t[k]) / 1000, 2) for k, out in keys.items() if k in t}


def _design(spec: dict[str, Any], model: str, no_cache: bool = False) -> dict[str, Any]:
    """Design one document's state; the schema and the cost."""
    docs = load_docs([Path(p) for p in spec["docs"]])
    start, cpu = time.perf_counter(), time.process_time()
    provenance: dict[str, dict[str, str]] = {}
    settings: list[dict[str, Any]] = []
    call_log: list[dict[str, Any]] = []
    if spec.get("data"):
        state, _ = data_to_state(json.loads(Path(spec["data"]).read_text()))
        schema, calls = infer_schema(state), 0
        data_fields = nested_field_names(state)
    else:
        client = _client(model, no_cache)
        log = _CallLog(client.transport)
        client.transport = log
        result = asyncio.run(design_state(client, docs.tools, docs.policy))
        schema, data_fields, call_log = result.state_schema, set(), log.calls
        if model == "none":  # the stand-in that never answers: no model was asked
            call_log = []
        calls = len(call_log)  # requests sent, validation re-asks included
        provenance = result.provenance
        settings = [x.model_dump(mode="json") for x in getattr(result, "settings", [])]
    wall, cpu_s = time.perf_counter() - start, time.process_time() - cpu
    return {
        "schema": schema.model_dump(mode="json"),
        "calls": calls,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu_s, 2),
        "data_fields": sorted(data_fields),
        "provenance": provenance,
        "settings": settings,
        "call_log": call_log,
    }


def _list_item_keys(schema: Any) -> set[str]:
    """Keys of documented line items (``list of objects with keys: a, b``), held nested."""
    prefix = "list of objects with keys: "
    return {
        key.strip().lower()
        for c in schema.collections
        for a in c.attributes
        if a.description.startswith(prefix)
        for key in a.description[len(prefix) :].split(",")
    }


def _documented_shapes(tools: Any, provenance: dict[str, dict[str, str]]) -> set[str]:
    """Keys nested inside object attributes read from a docs schema: the attribute holds that
    whole documented shape (the state generator fills it from the same schema)."""
    from autoforge.lexicon import fields_under

    return {
        name.lower()
        for origins in provenance.values()
        for origin in origins.values()
        if origin.startswith("docs:")
        for name in fields_under(tools, origin)
    }


def _stated_in(origin: str, docs: Any) -> bool:
    """Whether a setting's origin (``policy: "<sentence>"`` or ``... table A | B``) is text
    the docs really contain: such an attribute is read, not invented."""
    texts = [docs.policy or ""] + [t.description for t in docs.tools]
    if '"' in origin:
        quote = origin[origin.index('"') + 1 : origin.rindex('"')]
        return bool(quote) and any(quote in " ".join(t.split()) or quote in t for t in texts)
    if ": table " in origin:
        cols = [c.strip() for c in origin.split(": table ", 1)[1].split("|")]
        return any(all(c in t for c in cols if c) for t in texts)
    return False


def score(spec: dict[str, Any], design: dict[str, Any]) -> dict[str, Any]:
    """Coverage of document-defined fields and invented attributes of one designed schema."""
    from autoforge.env.artifact.spec import StateSchema
    from autoforge.lexicon import doc_field_names
    from autoforge.synth.state.design_model import docs_words, stated  # scoring: this tree only

    docs = load_docs([Path(p) for p in spec["docs"]])
    schema = StateSchema.model_validate(design["schema"])
    returned = doc_field_names(docs.tools)
    params = {p for t in docs.tools for p in t.param_names}
    defined = returned | {p for p in params if is_entity_param(p)}
    known = _known_names(schema, design["data_fields"]) | _list_item_keys(schema)
    known |= _documented_shapes(docs.tools, design.get("provenance") or {})
    present = {f for f in defined if f.lower() in known or collection_of_key(f, schema)}
    traceable = {n.lower() for n in returned | params | set(design["data_fields"])}
    origins = design.get("provenance") or {}
    invented = sorted(
        f"{c.name}.{a.name}"
        for c in schema.collections
        for a in c.attributes
        if a.name != c.primary_key
        and a.name.lower() not in traceable
        and not _stated_in(origins.get(c.name, {}).get(a.name, ""), docs)
    )
    words = docs_words(docs.tools, docs.policy)
    guessed = [n for n in invented if not stated(n.split(".", 1)[1], words)]
    return {
        "doc_fields": len(defined),
        "coverage": round(len(present) / len(defined), 3) if defined else None,
        "missing": sorted(defined - present)[:12],
        "invented": len(invented),
        "invented_examples": invented[:8],
        "guessed": len(guessed),
        "guessed_examples": guessed[:8],
        "collections": len(schema.collections),
        "settings": len(design.get("settings") or []),
        "has_return_schemas": bool(returned),
        "model_calls": design["calls"],
        "requests": len(design.get("call_log") or []),
        "prompt_tokens": sum(c["prompt_tokens"] for c in design.get("call_log") or []),
        "gen_tokens": sum(c["gen_tokens"] for c in design.get("call_log") or []),
        "call_log": design.get("call_log") or [],
        "wall_s": design["wall_s"],
        "cpu_s": design["cpu_s"],
    }


def _extract(ref: str, root: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref, "src"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root / "src"


def _in_subprocess(
    src: Path | None, specs: dict[str, dict[str, Any]], model: str, no_cache: bool = False
) -> dict[str, dict[str, Any]]:
    """Design every document in one worker process running ``src``'s code (None: this tree)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    plain = {
        name: {k: [str(p) for p in v] if isinstance(v, list) else str(v) for k, v in spec.items()}
        for name, spec in specs.items()
    }
    payload = json.dumps({"specs": plain, "model": model, "no_cache": no_cache})
    cmd = [sys.executable, __file__, "--worker", "-"]
    out = subprocess.run(
        cmd, input=payload, check=True, capture_output=True, text=True, env=env
    ).stdout
    designs: dict[str, dict[str, Any]] = json.loads(out.strip().splitlines()[-1])
    return designs


def _corpus(root: Path) -> dict[str, dict[str, Any]]:
    files = sorted(p for p in root.rglob("*") if p.suffix in (".json", ".yaml", ".yml"))
    return {f"corpus:{p.relative_to(root)}": {"docs": [p]} for p in files}


def _table(rows: dict[str, dict[str, Any]], compare: bool) -> Table:
    table = Table(title="State design: document-defined fields kept, attributes invented")
    cols = ["doc set", "schemas", "fields", "coverage", "invented", "guessed", "settings"]
    cols += ["calls", "prompt tok", "gen tok", "cpu s", "wall s"]
    if compare:
        cols += ["coverage (ref)", "invented (ref)", "calls (ref)", "wall s (ref)"]
    for col in cols:
        table.add_column(col, justify="left" if col == "doc set" else "right")
    for name, row in rows.items():
        a = row["after"]
        cells = [name, "yes" if a["has_return_schemas"] else "no", str(a["doc_fields"])]
        keys = ["coverage", "invented", "guessed", "settings", "model_calls", "prompt_tokens"]
        keys += ["gen_tokens", "cpu_s", "wall_s"]
        cells += [str(a.get(k)) for k in keys]
        if compare and "before" in row:
            b = row["before"]
            cells += [str(b["coverage"]), str(b["invented"]), str(b["model_calls"]),
                      str(b["wall_s"])]  # fmt: skip
        table.add_row(*cells)
    return table


def _summary(rows: dict[str, dict[str, Any]], key: str) -> dict[str, Any]:
    got = [r[key] for r in rows.values() if key in r]
    with_schemas = [r for r in got if r["has_return_schemas"]]
    docs_mode = [r for r in got if r["model_calls"] or not r["has_return_schemas"]]
    return {
        "median_coverage": statistics.median([r["coverage"] for r in got if r["coverage"]]),
        "min_coverage": min(r["coverage"] for r in got if r["coverage"] is not None),
        "invented_with_schemas": sum(r["invented"] for r in with_schemas),
        "invented_total": sum(r["invented"] for r in got),
        "guessed_total": sum(r.get("guessed", 0) for r in got),
        "max_model_calls": max((r["model_calls"] for r in docs_mode), default=0),
        "settings_total": sum(r.get("settings", 0) for r in got),
        "max_cpu_s": max(r["cpu_s"] for r in got),
        "max_wall_s": max(r["wall_s"] for r in got),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="none", help="none (rules only), small, default, ...")
    ap.add_argument("--no-cache", action="store_true", help="do not read or write the LLM cache")
    ap.add_argument("--compare", metavar="REF", help="also design with git REF's code")
    ap.add_argument(
        "--only", nargs="*", help="preset names to run (default: all; none: only --corpus)"
    )
    ap.add_argument("--corpus", type=Path, help="a directory of API documents to add")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        job = json.loads(sys.stdin.read())
        no_cache = job.get("no_cache", False)
        designs = {n: _design(sp, job["model"], no_cache) for n, sp in job["specs"].items()}
        print(json.dumps(designs))
        return
    load = Load()
    sets = {k: v for k, v in presets().items() if args.only is None or k in args.only}
    sets |= _corpus(args.corpus) if args.corpus else {}
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = _extract(args.compare, Path(tmp)) if args.compare else None
        before = _in_subprocess(src, sets, args.model, args.no_cache) if src else {}
        after = _in_subprocess(None, sets, args.model, args.no_cache)
        for name, spec in sets.items():
            row: dict[str, Any] = {}
            if name in before:
                row["before"] = score(spec, before[name])
            row["after"] = score(spec, after[name])
            rows[name] = row
            print(f"{name}: {json.dumps(row)}", flush=True)
    console = Console(width=160)
    console.print(_table(rows, bool(args.compare)))
    for line in load.finish().lines():
        console.print(line)
    summary = {"after": _summary(rows, "after")}
    if args.compare:
        summary["before"] = _summary(rows, "before")
    out = {"model": args.model, "compare": args.compare, "load": load.as_json(),
           "docs": rows, "summary": summary}  # fmt: skip
    print(json.dumps(out))


if __name__ == "__main__":
    main()
