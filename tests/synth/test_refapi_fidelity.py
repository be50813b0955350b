"""``autoforge fidelity ENV --against REF_DIR`` on the reference API folder format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoforge.cli.main import main
from autoforge.errors import UserError
from autoforge.synth.fidelity.refapi import load_refapi, score_refapi, write_effect

SHARED = Path("/work/shared/refapis")
SRC = Path(__file__).resolve().parents[2] / "src"

REF_IMPL = """
class RefError(Exception):
    pass

WRITE_TOOLS = {"close_note", "add_note"}

def invoke(db, name, args):
    notes = db["notes"]
    if name == "get_note":
        if args.get("note_id") not in notes:
            raise RefError("no such note")
        return notes[args["note_id"]]
    if name == "close_note":
        note = notes.get(args.get("note_id"))
        if note is None or note["status"] != "open":
            raise RefError("only an open note can be closed")
        note.update(status="closed", closed_on=db["meta"]["today"])
        return note
    if name == "add_note":
        if not str(args.get("text", "")).strip():
            raise RefError("text must be non-blank")
        nid = "N%02d" % (len(notes) + 1)
        notes[nid] = {"id": nid, "text": args["text"], "status": "open"}
        return notes[nid]
    raise RefError("unknown tool")
"""
PROBES = """
def probes(db, rng, n):
    return [("get_note", {"note_id": "N01"}), ("get_note", {"note_id": "N99"}),
            ("close_note", {"note_id": "N01"}), ("close_note", {"note_id": "N02"}),
            ("add_note", {"text": "buy milk"}), ("add_note", {"text": "  "})][:n]
"""
DB = {
    "meta": {"today": "2025-01-02"},
    "notes": {
        "N01": {"id": "N01", "text": "call back", "status": "open"},
        "N02": {"id": "N02", "text": "old", "status": "closed", "closed_on": "2024-12-30"},
    },
}
OPENAPI = (
    "openapi: 3.0.3\ncomponents:\n  schemas:\n    Note:\n      properties: {id: {}, text: {}}\n"
)
ENV_TOOLS = """
def get_note(state, note_id):
    return state["notes"][note_id]


def close_note(state, note_id):
    note = state["notes"][note_id]
    note["status"] = "closed"
    note["closed_on"] = "2025-01-02"
    return note
"""


def _main(argv: list[str]) -> None:
    try:
        main(argv)
    except SystemExit as exc:
        assert not exc.code


def _tool(name: str) -> dict[str, object]:
    params = {"type": "object", "properties": {"note_id": {"type": "string"}}}
    params["required"] = ["note_id"]
    return {"name": name, "description": name, "parameters": params}


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    """A three-tool reference and an env that lacks add_note and closes closed notes again."""
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "ref_impl.py").write_text(REF_IMPL)
    (ref / "probes.py").write_text(PROBES)
    (ref / "db.json").write_text(json.dumps(DB))
    (ref / "openapi.yaml").write_text(OPENAPI)
    env = tmp_path / "env"
    env.mkdir()
    tools = [_tool("get_note"), _tool("close_note")]
    (env / "environment.json").write_text(json.dumps({"name": "notes", "tools": tools}))
    (env / "tools.py").write_text(ENV_TOOLS)
    return env, ref


def test_figures_count_missing_tools_wrong_both_ways(tiny: tuple[Path, Path]) -> None:
    env, ref = tiny
    report = score_refapi(env, ref)
    assert report.load_error == ""
    f = report.figures
    # accepted by the ref: get N01, close N01, add -> env keeps 2 (add_note is missing)
    # refused by the ref: get N99, close N02, add blank -> env keeps 1 (close N02 accepted)
    assert (f.accepts_kept, f.refusals_kept) == (round(2 / 3, 3), round(1 / 3, 3))
    assert f.decision_balanced_accuracy == 0.5
    assert f.write_effect_agreement == 0.5 and f.write_effect_when_both_accept == 1.0
    assert report.missing_tools == ["add_note"] and report.missing_tool_calls == 2
    assert report.null.decision_balanced_accuracy == 0.5
    assert report.null.write_effect_agreement == 0.0
    assert report.per_tool["close_note"].refusals_kept == 0


def test_new_records_match_by_content_not_id_and_undocumented_attributes_are_ignored() -> None:
    before = {"notes": {"N01": {"id": "N01", "text": "a"}}}
    ours = {"notes": {**before["notes"], "N7": {"id": "N7", "text": "b", "scratch": 1}}}
    theirs = {"notes": {**before["notes"], "N02": {"id": "N02", "text": "b"}}}
    fields = {"text"}
    assert write_effect(before, ours, fields) == write_effect(before, theirs, fields)
    other = {"notes": {**before["notes"], "N02": {"id": "N02", "text": "c"}}}
    assert write_effect(before, other, fields) != write_effect(before, theirs, fields)


def test_a_folder_without_the_reference_files_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "db.json").write_text("{}")
    with pytest.raises(UserError, match=r"missing openapi\.yaml, ref_impl\.py, probes\.py"):
        load_refapi(tmp_path)


def test_a_reference_that_raises_other_than_referror_is_a_clear_error(
    tiny: tuple[Path, Path],
) -> None:
    env, ref = tiny
    (ref / "ref_impl.py").write_text(REF_IMPL.replace('raise RefError("no such note")', "1 / 0"))
    with pytest.raises(UserError, match=r"ZeroDivisionError.*RefError only"):
        score_refapi(env, ref)


def test_cli_prints_per_tool_rows_and_the_null_env_beside(
    tiny: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    env, ref = tiny
    _main(["fidelity", str(env), "--against", str(ref)])
    out = capsys.readouterr().out
    assert "add_note (missing)" in out and "null environment" in out
    _main(["fidelity", str(env), "--against", str(ref), "--json"])
    head = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert head["decision_balanced_accuracy"] == 0.5 and head["null_env"]["refusals_kept"] == 1.0


@pytest.mark.skipif(not (SHARED / "probe.py").is_file(), reason="shared refapis not mounted")
def test_figures_equal_the_shared_scorer_on_a_shared_api(tmp_path: Path) -> None:
    """Cross-check with the shared probe.py on a rules-only environment of one shared API."""
    api = SHARED / "kanban"
    env = tmp_path / "env"
    penv = {**os.environ, "PYTHONPATH": str(SRC)}
    synth = [sys.executable, "-m", "autoforge.cli.main", "synth", "env", str(api / "openapi.yaml")]
    synth += ["--data", str(api / "db.json"), "--policy", str(api / "policy.md")]
    subprocess.run([*synth, "-o", str(env), "--llm", "none"], env=penv, check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    shared = subprocess.run(
        [sys.executable, str(SHARED / "probe.py"), str(env), str(api)],
        env=penv, check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    theirs = json.loads(shared.stdout.strip().splitlines()[-1])
    ours = score_refapi(env, api).headline()
    keys = ("probes", "decision_balanced_accuracy", "accepts_kept", "refusals_kept")
    keys += ("write_effect_agreement", "write_effect_when_both_accept", "missing_tool_calls")
    assert {k: ours[k] for k in keys} == {k: theirs[k] for k in keys}
    assert (
        ours["null_env"]["decision_balanced_accuracy"]
        == theirs["null_env"]["decision_balanced_accuracy"]
    )


def test_each_folder_s_probes_import_their_own_reference(tmp_path: Path) -> None:
    """Two folders whose probes both ``import ref_impl``: the second gets its own module, not
    the one the first put in ``sys.modules``."""
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "openapi.yaml").write_text("openapi: 3.0.3\ninfo: {title: x, version: '1'}\n")
        (folder / "db.json").write_text(json.dumps({"meta": {"today": "2026-01-01"}}))
        (folder / "ref_impl.py").write_text(
            f"class RefError(Exception):\n    pass\nWRITE_TOOLS = set()\nWHO = {name!r}\n"
            "def invoke(db, name, args):\n    return WHO\n"
        )
        (folder / "probes.py").write_text(
            "import ref_impl\ndef probes(db, rng, n):\n    return [(ref_impl.WHO, {})]\n"
        )
    assert [load_refapi(tmp_path / n).probes(1, 0)[0][0] for n in ("one", "two")] == [
        "one", "two"]  # fmt: skip
