"""Policy models and tokenizers for the TRL backend, without a model hub.

* :func:`embedded_tokenizer` -- the Qwen2.5 tokenizer (with its tool-calling chat template) read
  from the embedded 0.5B GGUF (``autoforge[model-small]``). Parsing the GGUF vocabulary takes
  ~30 s, so the result is saved once under ``<cache>/tokenizers/`` and reloaded from there.
* :func:`tiny_qwen2` -- a randomly initialised Qwen2 (2 layers, hidden 64 by default) over that
  vocabulary: the CI smoke model, same architecture and template as the real policy.
* :func:`load_policy` -- a local Hugging Face directory, ``tiny``, or ``embedded-small`` (the
  embedded GGUF dequantised by transformers).

Nothing here downloads: ``local_files_only`` everywhere, ``HF_HUB_OFFLINE`` respected.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from autoforge.errors import UserError

TINY = "tiny"
EMBEDDED_SMALL = "embedded-small"


def _gguf_path() -> Path:
    """The assembled (sha256-verified) embedded 0.5B GGUF file."""
    from autoforge.llm import assemble, model_spec

    return assemble(model_spec("small"))


def tokenizer_cache_dir() -> Path:
    """Where the tokenizer read from the GGUF is saved for fast reloading."""
    from autoforge.llm import cache_dir

    return cache_dir() / "tokenizers" / "qwen2.5-coder-0.5b-instruct"


def embedded_tokenizer() -> Any:
    """The embedded model's tokenizer (Qwen2.5, ``<|im_end|>`` as EOS), cached after first use."""
    from transformers import AutoTokenizer

    cached = tokenizer_cache_dir()
    if (cached / "tokenizer_config.json").is_file():
        return AutoTokenizer.from_pretrained(str(cached), local_files_only=True)
    gguf = _gguf_path()
    tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    if tok.pad_token is None:
        tok.pad_token = "<|endoftext|>"
    tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    tok.save_pretrained(str(tmp))
    cached.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(tmp, cached)
    except OSError:  # another process saved it first
        shutil.rmtree(tmp, ignore_errors=True)
    return tok


def tiny_qwen2(
    tokenizer: Any,
    *,
    layers: int = 2,
    hidden: int = 64,
    heads: int = 4,
    kv_heads: int = 2,
    seed: int = 0,
) -> Any:
    """A randomly initialised Qwen2 causal LM over ``tokenizer``'s vocabulary (tied embeddings)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    return Qwen2ForCausalLM(config)


def load_policy(name: str, *, seed: int = 0) -> tuple[Any, Any]:
    """``(model, tokenizer)`` for ``tiny``, ``embedded-small`` or a local HF model directory."""
    if name == TINY:
        tok = embedded_tokenizer()
        return tiny_qwen2(tok, seed=seed), tok
    if name == EMBEDDED_SMALL:
        from transformers import AutoModelForCausalLM

        tok = embedded_tokenizer()
        gguf = _gguf_path()
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        return model, tok
    path = Path(name)
    if not (path / "config.json").is_file():
        raise UserError(
            f"model {name!r}: not 'tiny', 'embedded-small' or a local Hugging Face model "
            "directory (with config.json); nothing is downloaded"
        )
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True)
    return model, tok
