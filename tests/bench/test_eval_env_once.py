"""``autoforge eval`` loads the environment once in a local run; Ray actors load their own."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from autoforge.bench import targets
from autoforge.bench.evaluation import EvalSettings, EvalWorker
from autoforge.env import EnvDir


def test_local_worker_reuses_the_loaded_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    env = EnvDir.resolve("example:bookstore").load(trusted=True)

    def load_again(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the environment was loaded a second time")

    monkeypatch.setattr(targets, "load_env", load_again)
    settings = EvalSettings(env_dir="unused", agent="oracle", user="scripted", judge="none")
    worker = EvalWorker(settings, env)
    assert callable(worker())
    shipped = pickle.loads(pickle.dumps(worker))  # what a Ray actor receives
    assert shipped.env is None and shipped.settings == settings
    with pytest.raises(AssertionError, match="second time"):
        shipped()
