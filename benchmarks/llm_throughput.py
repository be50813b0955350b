"""Embedded-model throughput: autoforge's client against raw llama.cpp on the same prompts.

Both contenders call the same in-process xllamacpp server (the one ``autoforge`` starts for the
embedded model), on the same synthesis-shaped prompts, interleaved (raw, ours, raw, ours, ...):

* ``raw``: an HTTP POST straight to the server's ``/v1/chat/completions``;
* ``autoforge``: ``LLMClient.chat`` (the one LLM seam: accounting, retries; cache off).

Every call starts with a unique nonce so the server's prompt cache cannot favour either side.
Reported per contender: median prompt tokens/s and generation tokens/s from llama.cpp's own
``timings`` (when the server returns them) and end-to-end tokens/s from wall time; the headline
is autoforge's end-to-end throughput as a share of raw (goal >= 0.9), by wall time and by CPU
time (the server runs in this process, so CPU time counts the model and the client; on a busy
machine the CPU figure is the one to read).

Run: ``python benchmarks/llm_throughput.py [--model small] [--repeats 5] [--max-tokens 128]``
(``--prompt-chars 600`` cuts the prompts, for a busy machine).
Last line: one JSON object with ``prompt_tps``, ``gen_tps``, ``e2e_tps`` per contender and
``share_of_raw``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import httpx
from bench_method import MIN_REPEATS, Load, Sample, finish, interleaved

from autoforge.examples import example_path
from autoforge.llm import LLMClient, config_from_cli
from autoforge.llm.embedded import ensure_server
from autoforge.synth.modelcode import prompts
from autoforge.tooldocs import load_docs


def _prompts(n: int) -> list[list[dict[str, Any]]]:
    """Synthesis-shaped prompts: the state-design prompt for the bookstore tools, per tool."""
    docs = load_docs([example_path("bookstore") / "tools.openai.json"])
    out = []
    for spec in docs.tools[:n]:
        out.append(prompts.entities_messages([spec, *docs.tools], docs.policy))
    return out


def _with_nonce(messages: list[dict[str, Any]], nonce: str) -> list[dict[str, Any]]:
    first = dict(messages[0])
    first["content"] = f"[{nonce}] {first['content']}"
    return [first, *messages[1:]]


def _rates(usage: dict[str, Any], timings: dict[str, Any] | None, wall: float) -> dict[str, float]:
    prompt, gen = int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
    out = {"e2e_tps": (prompt + gen) / wall if wall else 0.0, "wall_s": wall}
    if timings:
        out["prompt_tps"] = float(timings.get("prompt_per_second") or 0.0)
        out["gen_tps"] = float(timings.get("predicted_per_second") or 0.0)
    return out


def _raw(base_url: str, messages: list[dict[str, Any]], max_tokens: int) -> dict[str, float]:
    body = {"messages": messages, "temperature": 0.0, "max_tokens": max_tokens}
    start = time.perf_counter()
    resp = httpx.post(f"{base_url}/chat/completions", json=body, timeout=600)
    wall = time.perf_counter() - start
    resp.raise_for_status()
    data = resp.json()
    return _rates(data.get("usage") or {}, data.get("timings"), wall)


def _ours(client: LLMClient, messages: list[dict[str, Any]], max_tokens: int) -> dict[str, float]:
    start = time.perf_counter()
    resp = asyncio.run(
        client.chat(
            messages,
            role="synthesizer",
            purpose="bench.throughput",
            max_tokens=max_tokens,
            temperature=0.0,
            cache=False,
        )
    )
    wall = time.perf_counter() - start
    usage = {
        "prompt_tokens": resp.usage.prompt_tokens,
        "completion_tokens": resp.usage.completion_tokens,
    }
    return _rates(usage, None, wall)


def _median(rows: list[dict[str, float]], key: str) -> float | None:
    vals = [r[key] for r in rows if key in r]
    return round(statistics.median(vals), 2) if vals else None


def _per_cpu_s(sample: Sample) -> dict[str, float]:
    """Tokens (prompt + generated) per CPU second of one call (model and client together)."""
    rates = sample.value
    tokens = rates["e2e_tps"] * rates["wall_s"]
    return {"tps": tokens / sample.cpu_s} if sample.cpu_s > 0 else {}


def _clipped(messages: list[dict[str, Any]], chars: int) -> list[dict[str, Any]]:
    """The prompt with its last message cut to ``chars`` characters (0: whole)."""
    if not chars:
        return messages
    last = dict(messages[-1])
    last["content"] = str(last["content"])[:chars]
    return [*messages[:-1], last]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="small", help="embedded model: small or default")
    ap.add_argument("--repeats", type=int, default=MIN_REPEATS)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument(
        "--prompt-chars", type=int, default=0, help="cut each prompt's last message (0: whole)"
    )
    args = ap.parse_args()
    load = Load()
    print("\n".join(load.lines()), flush=True)
    client = LLMClient(config_from_cli(model=args.model, no_cache=True))
    server = ensure_server(args.model, client.config.embedded)
    msgs = [_clipped(m, args.prompt_chars) for m in _prompts(args.repeats)]
    _raw(server.base_url, _with_nonce(msgs[0], "warm-up"), 8)  # load weights, fill caches
    turn = {"raw": 0, "autoforge": 0}

    def contender(name: str) -> Any:
        def run() -> dict[str, float]:
            i = turn[name]
            turn[name] += 1
            m = _with_nonce(msgs[i % len(msgs)], f"{name} {i}")
            if name == "raw":
                rates = _raw(server.base_url, m, args.max_tokens)
            else:
                rates = _ours(client, m, args.max_tokens)
            print(f"{name} {i}: {rates}", flush=True)
            return rates

        return run

    # the server runs in this process: CPU time is the model's and the client's together
    series = interleaved({n: contender(n) for n in ("raw", "autoforge")}, args.repeats)
    summary = {
        name: {
            **{k: _median([x.value for x in s.samples], k) for k in ("prompt_tps", "gen_tps")},
            **{k: _median([x.value for x in s.samples], k) for k in ("e2e_tps", "wall_s")},
            "cpu_s": round(s.cpu_s, 2),
            "cpu_tps": _median([_per_cpu_s(x) for x in s.samples], "tps"),
        }
        for name, s in series.items()
    }
    raw_e2e, ours_e2e = summary["raw"]["e2e_tps"], summary["autoforge"]["e2e_tps"]
    share = round(ours_e2e / raw_e2e, 3) if raw_e2e and ours_e2e else None
    raw_cpu, ours_cpu = summary["raw"]["cpu_tps"], summary["autoforge"]["cpu_tps"]
    share_cpu = round(ours_cpu / raw_cpu, 3) if raw_cpu and ours_cpu else None
    print(f"autoforge end-to-end throughput = {share} of raw llama.cpp by wall time, "
          f"{share_cpu} by CPU time (goal >= 0.9)")  # fmt: skip
    out = {"model": args.model, "repeats": args.repeats, "max_tokens": args.max_tokens,
           "prompt_chars": args.prompt_chars, **summary, "share_of_raw": share,
           "share_of_raw_cpu": share_cpu}  # fmt: skip
    finish(out, load)


if __name__ == "__main__":
    main()
