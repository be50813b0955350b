"""The environment digest that downstream stage fingerprints use covers ``rules.json``."""

from __future__ import annotations

import shutil
from pathlib import Path

from autoforge.env import EnvDir
from autoforge.examples import example_path
from autoforge.forge.context import dir_digest, env_dir_digest


def test_a_changed_rules_file_changes_the_env_digest(tmp_path: Path) -> None:
    env = tmp_path / "env"
    shutil.copytree(example_path("bookstore"), env)
    (env / EnvDir.RULES).unlink(missing_ok=True)
    before = env_dir_digest(env)
    assert before == dir_digest(env, EnvDir.ARTIFACT)  # no rules file: the digest it always had
    (env / EnvDir.RULES).write_text('{"origin": "synthesis", "rules": []}')
    with_rules = env_dir_digest(env)
    assert with_rules != before
    (env / EnvDir.RULES).write_text('{"origin": "synthesis", "rules": [], "note": "edited"}')
    assert env_dir_digest(env) not in (before, with_rules)
