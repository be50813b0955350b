"""The attack suite's bookkeeping: which layer stops each payload.

A payload test names its layer with ``@pytest.mark.stopped_by("layer")`` (or a module-level
``LAYER = "layer"`` for a whole file); the tests written before this convention are named in
``LEGACY_LAYERS``. Tests that check a limit leaves ordinary input alone are ``"control"``: not
payloads, not counted. The layer goes into each test report (``user_properties``, so also into
JUnit XML) and the run ends with a count of payloads per layer; ``test_catalogue.py`` checks that
every test here has a known layer and that the suite holds at least 100 payloads.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

#: Every layer a payload may be stopped by, outermost first.
LAYERS = {
    "doc-loader": "safe YAML/JSON loading of tool documents (sizes, depth, aliases, encodings)",
    "ingest": "importer checks of tool documents (names, shapes, types)",
    "http-guard": "the request guard of serve (host, origin, body size/time/depth, headers)",
    "serve-api": "serve's own checks (tokens, owners, quotas, ranges, error bodies)",
    "schema-validation": "argument validation against the tool's schema in the host",
    "python-sandbox": "the in-process checks of tool code (AST, names, wrappers, freezing)",
    "runtime-limits": "the runtime's time and size limits on a call",
    "os-boundary": "the worker process: uid, namespaces, seccomp, rlimits, read-only root",
    "episode-isolation": "one episode's state and objects kept from another's",
    "forge-lock": "the lock a forge run holds on its --out",
    "control": "not a payload: checks that a limit leaves ordinary input alone",
}

#: Layers of the tests written before ``stopped_by`` (by test function name).
LEGACY_LAYERS = {
    # test_attacks_docs.py
    "test_billion_laughs_fails_fast_with_a_clean_error": "doc-loader",
    "test_self_referencing_alias_is_refused": "doc-loader",
    "test_nesting_over_the_limit_is_refused": "doc-loader",
    "test_aliases_cannot_nest_past_the_limit": "doc-loader",
    "test_integer_over_4300_digits_is_refused": "doc-loader",
    "test_latin1_files_are_refused_with_the_place": "doc-loader",
    "test_latin1_policy_of_a_bench_domain_is_refused": "doc-loader",
    "test_ordinary_aliases_and_depth_still_load": "control",
    "test_ingest_cli_reports_a_bomb_as_a_doc_error": "doc-loader",
    # test_attacks_server.py
    "test_body_over_the_cap_is_a_json_413": "http-guard",
    "test_body_trickled_slowly_gets_408": "http-guard",
    "test_body_nested_1000_deep_is_a_json_4xx": "http-guard",
    "test_an_unexpected_exception_is_a_json_500_without_details": "http-guard",
    "test_call_log_is_bounded_and_big_arguments_are_truncated": "serve-api",
    "test_an_error_response_does_not_amplify_the_body": "serve-api",
    "test_foreign_host_and_origin_are_refused_on_loopback": "http-guard",
    "test_configured_host_and_origin_are_allowed": "control",
    "test_episode_ids_are_bound_to_the_token_that_opened_them": "serve-api",
    "test_per_token_session_quota": "serve-api",
    "test_mcp_sessions_of_different_tokens_get_different_episodes": "serve-api",
    "test_mcp_http_app_is_guarded": "http-guard",
    "test_a_stuck_call_gets_504_and_only_its_episode_is_busy": "runtime-limits",
    "test_health_answers_within_50ms_while_a_tool_call_hangs": "runtime-limits",
    "test_slow_or_silent_clients_are_dropped": "http-guard",
    "test_huge_headers_get_a_json_431": "http-guard",
    # test_attacks_runtime.py
    "test_os_layers_stop_an_escaped_payload": "os-boundary",
    "test_wraps_globals_escape_is_refused_at_load": "python-sandbox",
    "test_wraps_globals_escape_in_the_checker": "python-sandbox",
    "test_wraps_and_partial_at_call_time_hand_out_nothing": "python-sandbox",
    "test_two_argument_iter_and_size_bombs_are_refused": "python-sandbox",
    "test_timed_out_write_is_never_committed_by_the_next_call": "runtime-limits",
    "test_self_containing_record_is_a_recorded_error": "runtime-limits",
    "test_second_timeout_during_a_slow_free_does_not_escape": "runtime-limits",
    "test_records_kept_by_one_episode_do_not_change_another": "episode-isolation",
    "test_module_level_bound_methods_closures_and_partials_are_refused": "python-sandbox",
    "test_missing_layers_are_reported_loudly": "control",
    "test_deeply_nested_tool_code_is_a_clean_violation": "python-sandbox",
    "test_decimal_context_does_not_leak_between_episodes": "episode-isolation",
    "test_crash_and_hang_payloads_leave_the_host_and_other_episodes_alive": "os-boundary",
    "test_boundary_is_the_os_layer_by_default": "control",
    "test_bad_env_files_give_clean_load_errors": "python-sandbox",
}

_COUNTS: Counter[str] = Counter()
_HERE = Path(__file__).resolve().parent


def layer_of(item: pytest.Item) -> str | None:
    """The layer a collected test names: its marker, its module's ``LAYER``, or the table."""
    marker = item.get_closest_marker("stopped_by")
    if marker is not None and marker.args:
        return str(marker.args[0])
    module = getattr(item, "module", None)
    if module is not None and isinstance(getattr(module, "LAYER", None), str):
        return str(module.LAYER)
    name = getattr(item, "originalname", None) or item.name
    return LEGACY_LAYERS.get(name)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "stopped_by(layer): the layer that stops this attack payload (tests/security)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    catalogue = []
    for item in items:
        if _HERE not in item.path.parents:
            continue
        layer = layer_of(item)
        layer = layer if layer in LAYERS else f"unknown:{layer}"
        item.user_properties.append(("stopped_by", layer))
        catalogue.append({"nodeid": item.nodeid, "layer": layer})
    out = os.environ.get("AUTOFORGE_PAYLOAD_CATALOGUE")
    if out:  # test_catalogue.py collects the suite in a subprocess and reads this
        Path(out).write_text(json.dumps(catalogue, indent=1), encoding="utf-8")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        layer = dict(report.user_properties).get("stopped_by")
        if layer not in (None, "control"):
            _COUNTS[str(layer)] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _COUNTS:
        parts = ", ".join(f"{layer} {n}" for layer, n in sorted(_COUNTS.items()))
        total = sum(_COUNTS.values())
        terminalreporter.write_line(f"attack payloads stopped, by layer: {parts} ({total} in all)")
