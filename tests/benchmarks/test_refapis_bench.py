"""benchmarks/refapis.py: synthesize per reference API folder, score, summarize."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import refapis

LENDING = Path(refapis.__file__).resolve().parent / "refapis_own" / "lending"


def test_summary_has_means_and_medians_of_figures_and_times() -> None:
    rows = [
        {"decision_balanced_accuracy": a, "write_effect_agreement": w, "accepts_kept": 0.5,
         "refusals_kept": 0.5, "synth_wall_s": t, "synth_cpu_s": t / 2,
         "tools_documented": 10, "tools_present": p}
        for a, w, t, p in ((0.4, 0.0, 2.0, 10), (0.6, 0.3, 4.0, 8), (0.8, 0.6, 9.0, 9))
    ]  # fmt: skip
    s = refapis.summarize(rows)
    assert s["apis"] == 3 and s["median_decision_balanced_accuracy"] == 0.6
    assert s["mean_write_effect_agreement"] == 0.3 and s["median_synth_wall_s"] == 4.0
    assert s["mean_synth_cpu_s"] == 2.5 and s["tools_missing"] == 3


def test_model_options_pass_through() -> None:
    ap = refapis.argparse.Namespace(llm=None, llm_model="small", no_cache=True)
    assert refapis.llm_args(ap) == ["--llm-model", "small", "--no-cache"]
    ap = refapis.argparse.Namespace(llm="none", llm_model=None, no_cache=False)
    assert refapis.llm_args(ap) == ["--llm", "none"]


def test_rules_only_run_on_one_api_prints_a_row_with_the_null_env(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = refapis.main([str(LENDING), "--out", str(tmp_path), "--n", "120"])
    row = result["rows"][0]
    # synthesis exits 1 when the written environment fails its check (a stated rule that no
    # guard carries); the environment is still written and scored
    assert row["api"] == "lending" and row["synth_exit"] in (0, 1) and row["probes"] == 120
    assert row["tools_documented"] == 12 and row["tools_present"] <= 12
    assert row["null_env"] == {"decision_balanced_accuracy": 0.5, "write_effect_agreement": 0.0}
    assert row["synth_wall_s"] > 0 and "load_at_start" in row
    assert (tmp_path / "lending" / "tools.py").is_file()
    out = capsys.readouterr().out
    assert "lending" in out and "load average" in out


def test_a_folder_without_a_reference_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        refapis.main([str(tmp_path)])
