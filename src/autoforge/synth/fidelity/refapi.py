"""Fidelity against a reference API folder: differential probes on both sides.

A reference API folder (the format of ``refapis/SPEC.md``) holds ``openapi.yaml``, ``db.json``,
``ref_impl.py`` (``RefError``, ``WRITE_TOOLS``, ``invoke(db, name, args)``) and ``probes.py``
(``probes(db, rng, n)``: about 60% valid calls, 40% calls the docs say to refuse). This module is
the scorer, never synthesis: it runs the reference's own code and probes.

Every probe runs on a fresh copy of ``db.json`` on both sides. Figures:

* **decision balanced accuracy**: mean of the share of the reference's accepted calls the
  environment accepts (*accepts kept*) and the share of its refusals the environment refuses
  (*refusals kept*); a call to a tool the environment lacks is wrong both ways;
* **write-effect agreement**: over every write the reference accepts, the share where the
  environment accepts and leaves the same effect: changed records projected on the attributes
  the docs (``components/schemas``) or the data name, new records matched by content (not id).

The null environment (refuses everything, changes nothing) is scored by the same code beside
(0.5 and 0.0 by construction of the figures).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from pydantic import BaseModel, Field

from autoforge.errors import UserError

REF_FILES = ("openapi.yaml", "db.json", "ref_impl.py", "probes.py")
Effect = list[tuple[str, str, str]]


def is_refapi_dir(path: Path) -> bool:
    """Whether ``path`` is a reference API folder (the implementation and probes are there)."""
    return path.is_dir() and (path / "ref_impl.py").is_file() and (path / "probes.py").is_file()


@dataclass
class RefApi:
    """A loaded reference API folder."""

    root: Path
    impl: ModuleType
    gen: ModuleType
    db: dict[str, Any]
    fields: set[str]

    @property
    def write_tools(self) -> set[str]:
        return set(self.impl.WRITE_TOOLS)

    def invoke(self, state: dict[str, Any], name: str, args: dict[str, Any]) -> bool:
        """Run one call on ``state`` (mutated); True when accepted, False when refused."""
        try:
            self.impl.invoke(state, name, args)
        except self.impl.RefError:
            return False
        except Exception as exc:
            raise UserError(
                f"{self.root / 'ref_impl.py'}: {name}({json.dumps(args)[:200]}) raised "
                f"{type(exc).__name__}: {exc}; a reference refuses with RefError only"
            ) from exc
        return True

    def probes(self, n: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
        return [
            (str(name), dict(args))
            for name, args in self.gen.probes(copy.deepcopy(self.db), random.Random(seed), n)
        ]


@contextmanager
def _on_path(folder: Path) -> Iterator[None]:
    """The folder importable while a module of it loads, its own module names (a probes
    file's ``import ref_impl``) free of another folder's loaded before, and left so after."""
    local = {p.stem for p in folder.glob("*.py")}
    saved = {n: sys.modules.pop(n) for n in list(sys.modules) if n in local}
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        for n in local:
            sys.modules.pop(n, None)
        sys.modules.update(saved)


def _module(folder: Path, name: str) -> ModuleType:
    path = folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_refapi_{folder.name}_{name}", path)
    if spec is None or spec.loader is None:
        raise UserError(f"{path}: cannot be loaded as a Python module")
    mod = importlib.util.module_from_spec(spec)
    with _on_path(folder):
        spec.loader.exec_module(mod)
    return mod


def load_refapi(folder: Path) -> RefApi:
    """Load a reference API folder; a missing file or name is a :class:`UserError` naming it."""
    missing = [f for f in REF_FILES if not (folder / f).is_file()]
    if missing:
        raise UserError(
            f"{folder}: not a reference API folder (missing {', '.join(missing)}); "
            "see refapis/SPEC.md for the format"
        )
    impl, gen = _module(folder, "ref_impl"), _module(folder, "probes")
    for mod, names in ((impl, ("RefError", "WRITE_TOOLS", "invoke")), (gen, ("probes",))):
        lacking = [n for n in names if not hasattr(mod, n)]
        if lacking:
            raise UserError(f"{mod.__file__}: defines no {', '.join(lacking)}")
    db = json.loads((folder / "db.json").read_text(encoding="utf-8"))
    doc = yaml.safe_load((folder / "openapi.yaml").read_text(encoding="utf-8")) or {}
    return RefApi(folder, impl, gen, db, documented_fields(doc, db))


def documented_fields(openapi: Mapping[str, Any], db: Mapping[str, Any]) -> set[str]:
    """Attribute names the docs' schemas or the data's records carry."""
    schemas = (openapi.get("components") or {}).get("schemas") or {}
    names = {
        f for sch in schemas.values() if isinstance(sch, dict) for f in sch.get("properties") or {}
    }
    for coll in db.values():
        if isinstance(coll, dict):
            for rec in coll.values():
                if isinstance(rec, dict):
                    names |= set(rec)
    return names


def write_effect(before: Mapping[str, Any], after: Mapping[str, Any], fields: set[str]) -> Effect:
    """The changed records of ``after``, projected on ``fields``; new records keyed by content."""
    out: Effect = []
    for coll in set(before) | set(after):
        b, a = before.get(coll, {}), after.get(coll, {})
        if not isinstance(a, dict) or not isinstance(b, dict):
            if a != b:
                out.append((coll, "", json.dumps(a, sort_keys=True)))
            continue
        for key in set(a) | set(b):
            if a.get(key) != b.get(key):
                rec = a.get(key)
                if isinstance(rec, dict):
                    rec = {f: v for f, v in rec.items() if f in fields}
                out.append((coll, "new" if key not in b else key, json.dumps(rec, sort_keys=True)))
    return sorted(out, key=str)


class RefToolRow(BaseModel):
    """One tool's counts."""

    probes: int = 0
    ref_accepted: int = 0
    accepts_kept: int = 0
    ref_refused: int = 0
    refusals_kept: int = 0
    ref_writes: int = 0
    effects_kept: int = 0
    missing: bool = False


class RefFigures(BaseModel):
    """The headline figures of one side."""

    decision_balanced_accuracy: float = 0.0
    accepts_kept: float = 0.0
    refusals_kept: float = 0.0
    write_effect_agreement: float = 0.0
    write_effect_when_both_accept: float = 0.0


class RefApiReport(BaseModel):
    """Probes of an environment against a reference API folder, with the null env beside."""

    env: str
    against: str
    probes: int = 0
    seed: int = 7
    figures: RefFigures = Field(default_factory=RefFigures)
    null: RefFigures = Field(default_factory=RefFigures)
    per_tool: dict[str, RefToolRow] = Field(default_factory=dict)
    missing_tools: list[str] = Field(default_factory=list)
    missing_tool_calls: int = 0
    host_exceptions: int = 0
    load_error: str = ""

    def headline(self) -> dict[str, Any]:
        """The JSON summary: figures, the null env's beside, and the counts that qualify them."""
        return {
            "env": self.env, "ref": self.against, "probes": self.probes,
            **self.figures.model_dump(), "null_env": self.null.model_dump(),
            "missing_tools": self.missing_tools, "missing_tool_calls": self.missing_tool_calls,
            "host_exceptions": self.host_exceptions, "load_error": self.load_error,
        }  # fmt: skip


# (accepted, state after, tool missing); raises nothing
Runner = Callable[[str, dict[str, Any]], tuple[bool, Mapping[str, Any], bool]]


@dataclass
class _Tally:
    rows: dict[str, RefToolRow]
    both_writes: int = 0
    both_effects: int = 0

    def add(self, ref: RefApi, name: str, ref_ok: bool, ref_state: Any, env: Any) -> None:
        env_ok, env_state, missing = env
        row = self.rows.setdefault(name, RefToolRow())
        row.probes += 1
        row.missing = row.missing or missing
        if ref_ok:
            row.ref_accepted += 1
            row.accepts_kept += env_ok and not missing
        else:
            row.ref_refused += 1
            row.refusals_kept += not env_ok and not missing
        if ref_ok and name in ref.write_tools:
            row.ref_writes += 1
            both = env_ok and not missing
            same = both and write_effect(ref.db, ref_state, ref.fields) == write_effect(
                ref.db, env_state, ref.fields
            )
            row.effects_kept += same
            self.both_writes += both
            self.both_effects += same

    def figures(self) -> RefFigures:
        rows = self.rows.values()
        acc = _share(sum(r.accepts_kept for r in rows), sum(r.ref_accepted for r in rows))
        rej = _share(sum(r.refusals_kept for r in rows), sum(r.ref_refused for r in rows))
        return RefFigures(
            decision_balanced_accuracy=round((acc + rej) / 2, 3),
            accepts_kept=round(acc, 3),
            refusals_kept=round(rej, 3),
            write_effect_agreement=round(
                _share(sum(r.effects_kept for r in rows), sum(r.ref_writes for r in rows)), 3
            ),
            write_effect_when_both_accept=round(_share(self.both_effects, self.both_writes), 3),
        )


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _env_runner(env_dir: Path, db: dict[str, Any]) -> tuple[Runner, set[str]]:
    from autoforge.env import Environment

    base = Environment.load(env_dir).with_initial_state(db)
    present = set(base.tool_names)

    def run(name: str, args: dict[str, Any]) -> tuple[bool, Mapping[str, Any], bool]:
        ep = base.episode()
        obs = ep.call(name, copy.deepcopy(args))
        missing = name not in present or obs.error_kind == "unknown_tool"
        return obs.ok, ep.snapshot(), missing

    return run, present


def score_refapi(env_dir: Path, ref_dir: Path, *, n: int = 400, seed: int = 7) -> RefApiReport:
    """Probe the environment in ``env_dir`` against the reference API folder ``ref_dir``."""
    ref = load_refapi(ref_dir)
    report = RefApiReport(env=str(env_dir), against=str(ref_dir), seed=seed)
    null = _Tally({})
    ours = _Tally({})
    try:
        run, present = _env_runner(env_dir, ref.db)
    except Exception as exc:  # an environment that cannot load lacks every tool
        report.load_error = f"{type(exc).__name__}: {exc}"[:300]
        run, present = (lambda name, args: (False, ref.db, True)), set()
    for name, args in ref.probes(n, seed):
        ref_state = copy.deepcopy(ref.db)
        ref_ok = ref.invoke(ref_state, name, copy.deepcopy(args))
        try:
            env = run(name, args)
        except Exception:  # the host side failed: the call is a refusal that changed nothing
            report.host_exceptions += 1
            env = (False, ref.db, name not in present)
        report.probes += 1
        report.missing_tool_calls += env[2]
        ours.add(ref, name, ref_ok, ref_state, env)
        null.add(ref, name, ref_ok, ref_state, (False, ref.db, False))
    report.per_tool = dict(sorted(ours.rows.items()))
    report.missing_tools = sorted(t for t, r in report.per_tool.items() if r.missing)
    report.figures, report.null = ours.figures(), null.figures()
    return report
