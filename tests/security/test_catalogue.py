"""The attack suite as a whole: every test names the layer that stops it, there are at least
100 payloads (a parametrised payload counts once per case), and every payload of issue 34 is in
the suite.

The suite is collected in a subprocess (``pytest --collect-only``) with
``AUTOFORGE_PAYLOAD_CATALOGUE`` set, which makes ``conftest.py`` write each test's node id and
layer to a JSON file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

LAYER = "control"  # these check the suite; they are not payloads
HERE = Path(__file__).resolve().parent
MIN_PAYLOADS = 100

#: Issue 34's payloads: (id, a string the test that carries it must contain, who fixes it).
ISSUE_34 = [
    ("wraps-keyword-override", 'updated=("__globals__",)', "sandbox"),
    ("wraps-func-attribute", "wraps(len).func", "sandbox"),
    ("host-environment-read", "OPENAI_API_KEY", "sandbox"),
    ("serve-token-read", "AUTOFORGE_SERVE_TOKEN", "sandbox"),
    ("signal-rt_sigqueueinfo", "rt_sigqueueinfo", "sandbox"),
    ("signal-rt_tgsigqueueinfo", "rt_tgsigqueueinfo", "sandbox"),
    ("signal-pidfd_send_signal", "pidfd_send_signal", "sandbox"),
    ("throttle-prlimit64", "prlimit64", "sandbox"),
    ("sysv-shared-memory", "shmget", "sandbox"),
    ("sysv-message-queue", "msgget", "sandbox"),
    ("forged-pipe-reply", "forged", "sandbox"),
    ("openat2", "openat2", "sandbox"),
    ("nonlocal-closure-leak", "nonlocal", "sandbox"),
    ("module-level-decimal-context", "= decimal.Context(", "sandbox"),
    ("decimal-flags-carry-over", ".flags", "sandbox"),
    ("backtracking-pattern", "^(a+)+$", "hostsec"),
    ("seed-10^30", "1000000000000000000000000000000", "hostsec"),
    ("two-forge-runs-one-out", "two_forge_runs", "hostsec"),
    ("dunder-tool-name", "__import__", "hostsec"),
    ("bool-not-iterable", '"required": True', "hostsec"),
]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    out = tmp_path_factory.mktemp("catalogue") / "payloads.json"
    env = {**os.environ, "AUTOFORGE_PAYLOAD_CATALOGUE": str(out)}
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*cmd, str(HERE)], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0 and out.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return list(json.loads(out.read_text()))


def test_every_test_names_a_known_layer(catalogue: list[dict[str, str]]) -> None:
    unknown = [
        f"{t['nodeid']} ({t['layer']})" for t in catalogue if t["layer"].startswith("unknown:")
    ]
    assert not unknown, (
        "give these one of the LAYERS of conftest.py: @pytest.mark.stopped_by(...), a module-level "
        f"LAYER, or an entry in LEGACY_LAYERS: {unknown}"
    )


def test_the_suite_holds_at_least_100_payloads(catalogue: list[dict[str, str]]) -> None:
    by_layer = Counter(
        t["layer"] for t in catalogue if t["layer"] != "control" and ":" not in t["layer"]
    )
    total = sum(by_layer.values())
    print(f"{total} payloads by layer: {dict(sorted(by_layer.items()))}")
    assert total >= MIN_PAYLOADS, by_layer
    assert len(by_layer) >= 8, by_layer  # spread over the layers, not one long list


def _suite_text() -> str:
    files = sorted(p for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


@pytest.mark.parametrize(
    "marker",
    [pytest.param(token, id=name) for name, token, _owner in ISSUE_34],
)
def test_every_payload_of_issue_34_is_in_the_suite(marker: str) -> None:
    assert marker in _suite_text()
