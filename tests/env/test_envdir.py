"""``EnvDir``: how an environment directory is named (path, run dir, example), read and written."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from autoforge.env import EnvDir, EnvironmentSpec, EnvLoadError
from autoforge.errors import UserError
from autoforge.examples import example_path


def _write_shop(root: Path, parts: tuple[EnvironmentSpec, str], state: Any = None) -> EnvDir:
    spec, source = parts
    env_dir = EnvDir(root)
    env_dir.write(spec, source, state)
    return env_dir


def test_resolve_an_environment_directory(
    tmp_path: Path, shop_parts: tuple[EnvironmentSpec, str]
) -> None:
    _write_shop(tmp_path / "shop", shop_parts)
    found = EnvDir.resolve(tmp_path / "shop")
    assert found.root == tmp_path / "shop" and found.tasks_file is None
    assert found.load().spec.name == "shop"


def test_resolve_a_run_directory_finds_env_and_tasks(
    tmp_path: Path, shop_parts: tuple[EnvironmentSpec, str]
) -> None:
    run = tmp_path / "run"
    _write_shop(run / "env", shop_parts)
    (run / "tasks.jsonl").write_text("")
    found = EnvDir.resolve(run)
    assert found.root == run / "env" and found.tasks_file == run / "tasks.jsonl"
    given = tmp_path / "other.jsonl"
    assert EnvDir.resolve(run, given).tasks_file == given  # an explicit tasks file wins
    _write_shop(run / "second", shop_parts)
    with pytest.raises(UserError, match="several environments"):
        EnvDir.resolve(run)


def test_resolve_example_by_prefix_and_by_name() -> None:
    assert EnvDir.resolve("example:bookstore").root == example_path("bookstore")
    assert EnvDir.resolve("bookstore").root == example_path("bookstore")
    with pytest.raises(UserError, match="unknown example 'nope'"):
        EnvDir.resolve("example:nope")
    with pytest.raises(UserError, match=r"no environment\.json"):
        EnvDir.resolve("example:todo")  # docs only


def test_resolve_a_missing_directory_says_what_to_give(tmp_path: Path) -> None:
    with pytest.raises(UserError) as info:
        EnvDir.resolve(tmp_path / "missing")
    message = str(info.value)
    assert str(tmp_path / "missing") in message and "does not exist" in message
    assert "environment dir" in message and "run dir" in message
    assert "example:NAME" in message and "bookstore" in message


def test_resolve_a_directory_without_an_environment(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match=r"no environment\.json in .*empty"):
        EnvDir.resolve(tmp_path / "empty")


def test_write_then_read_round_trips(
    tmp_path: Path, shop_parts: tuple[EnvironmentSpec, str], shop_initial: dict[str, Any]
) -> None:
    env_dir = _write_shop(tmp_path / "new" / "env", shop_parts, shop_initial)
    assert [p.name for p in env_dir.artifact_files()] == list(EnvDir.ARTIFACT)
    parts = env_dir.read()
    assert parts.spec == shop_parts[0] and parts.tools_source == shop_parts[1]
    assert parts.initial_state == shop_initial
    assert env_dir.read_spec() == shop_parts[0]
    env = env_dir.load(trusted=True)
    assert env.initial_state["items"]["i1"]["name"] == "Atlas"
    bare = _write_shop(tmp_path / "bare", shop_parts)
    assert not bare.initial_state_path.exists() and bare.read().initial_state is None


def test_read_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(EnvLoadError, match="missing"):
        EnvDir(tmp_path).read_spec()
    (tmp_path / EnvDir.SPEC).write_text("{oops")
    with pytest.raises(EnvLoadError, match=r"environment\.json:1: invalid JSON"):
        EnvDir(tmp_path).read()


def test_example_names_are_the_runnable_examples() -> None:
    from autoforge.env.artifact.envdir import example_names

    assert example_names() == ["bookstore"]


def test_a_copied_example_resolves_as_a_run_dir(tmp_path: Path) -> None:
    shutil.copytree(example_path("bookstore"), tmp_path / "run" / "env")
    found = EnvDir.resolve(tmp_path / "run")
    assert found.root == tmp_path / "run" / "env" and found.read_spec().name == "bookstore"
