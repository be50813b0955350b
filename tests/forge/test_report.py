"""The HTML report: self-contained, everything escaped, and complete for full and partial runs."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from autoforge.forge import ForgeOptions, render_forge_report, run_forge
from autoforge.report.charts import bars, histogram
from autoforge.report.html import Markup, esc, table, tag
from autoforge.tasks.model import TaskSet

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class _Scan(HTMLParser):
    """Collects tags, external references and text of a document."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.external: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _scan(html: str) -> _Scan:
    scan = _Scan()
    scan.feed(html)
    return scan


def test_building_blocks_escape_text_and_keep_markup() -> None:
    assert esc("<b>&") == "&lt;b&gt;&amp;"
    assert esc(Markup("<b>x</b>")) == "<b>x</b>"
    cell = tag("td", EVIL, title='"quoted"')
    assert "<script" not in cell and "&quot;quoted&quot;" in cell
    html = table(["a", "n"], [[EVIL, 1234], [tag("code", "ok"), 2.5]], numeric=(1,))
    assert "<script" not in html and "<code>ok</code>" in html and "1,234" in html
    assert "2.50" in html and 'class="num"' in html


def test_charts_count_values_and_escape_labels() -> None:
    svg = histogram([2, 2, 5], "calls")
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', svg)]
    assert len(heights) == 4  # values 2..5, gaps included
    assert heights[0] > 0 and heights[1] == heights[2] == 0 and heights[0] == 2 * heights[3]
    assert "<title>2: 2</title>" in svg and "<title>5: 1</title>" in svg
    assert "<script" not in bars([(EVIL, 3)], EVIL)
    assert "no data" in bars([], "empty")


async def test_report_is_self_contained_and_escapes_docs_text(
    tmp_path: Path, bookstore_dir: Path
) -> None:
    env_dir = tmp_path / "evil_env"
    shutil.copytree(bookstore_dir, env_dir)
    spec = json.loads((env_dir / "environment.json").read_text())
    spec["description"] = EVIL
    spec["tools"][0]["description"] = EVIL
    spec["state_schema"]["collections"][0]["description"] = EVIL
    (env_dir / "environment.json").write_text(json.dumps(spec))
    out = tmp_path / "run"
    await run_forge(ForgeOptions(out=out, env_dir=env_dir, tasks=4, exports=False))
    html = (out / "report.html").read_text()
    scan = _scan(html)
    assert "script" not in scan.tags and "img" not in scan.tags and "link" not in scan.tags
    assert scan.external == []  # no external assets: only in-page anchors
    text = "".join(scan.text)
    assert EVIL in text  # shown as text, not interpreted
    tasks = TaskSet(out / "tasks.jsonl").load()
    assert len(tasks) == 4
    for task in tasks:
        assert f'id="task-{task.id}"' in html
        assert task.scenario.question in text
        for call in task.gold_calls:
            assert call.name in text
    assert html.count("<svg") >= 4 + 1 + 6  # DAG per task, tool graph, histograms
    for section in ("Overview", "Stages", "Environment", "Tool graph", "Difficulty", "Rejections"):
        assert f"<h2>{section}</h2>" in html
    assert "verified" in text and "replay FAILED" not in text


async def test_report_of_a_partial_run_and_of_a_failed_replay(tmp_path: Path) -> None:
    out = tmp_path / "run"
    await run_forge(ForgeOptions(out=out, env_dir=Path("example:bookstore"), tasks=2,
                                 until="ingest"))  # fmt: skip
    html = render_forge_report(out)
    assert "the environment stage has not finished" in html and "no tasks yet" in html
    await run_forge(ForgeOptions(out=out, env_dir=Path("example:bookstore"), tasks=2,
                                 exports=False))  # fmt: skip
    verify = json.loads((out / "verify.json").read_text())
    verify["verdicts"][0].update(ok=False, reason="final hash differs")
    verify["verified"] -= 1
    (out / "verify.json").write_text(json.dumps(verify))
    html = render_forge_report(out)
    assert "replay FAILED" in html and "1/2" in html


def test_task_dag_and_tool_graph_drawings_match_their_graphs() -> None:
    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.report.dag import blueprint_svg
    from autoforge.report.toolgraph import adjacency_table, tool_graph_svg
    from autoforge.tasks import build_graph, generate_tasks

    env = Environment.load(example_path("bookstore"))
    tasks, _ = generate_tasks(env, 2, "hard", seed=3)
    for task in tasks:
        svg = blueprint_svg(task)
        bp = task.blueprint
        boxes = len(bp.nodes) + len(bp.fact_names_used())
        assert svg.count("<rect") == boxes
        assert svg.count("<path d=") >= bp.dag().number_of_edges()
        assert svg.count('stroke="#16a34a"') == len(bp.outputs)  # values to tell the user
    graph = build_graph(env.spec)
    svg = tool_graph_svg(graph)
    assert svg.count('class="tg-edge"') == len(graph.edges)
    assert svg.count("<rect") == len(graph.nodes)
    assert adjacency_table(graph).count("●") == len(graph.edges)


async def test_report_lists_the_rules_with_their_sentences(tmp_path: Path) -> None:
    out = tmp_path / "run"
    await run_forge(ForgeOptions(out=out, env_dir=Path("example:bookstore"), tasks=2,
                                 exports=False))  # fmt: skip
    text = "".join(_scan(render_forge_report(out)).text)
    assert "Rules the docs state" in text
    assert "extracted from the environment's docs and policy" in text  # the example has none
    assert "orders.status of order_id must be one of pending" in text
    assert "Only `pending` orders can be cancelled" in text  # the policy sentence it came from
    recorded = {"version": 1, "origin": "synthesis", "rules": [{
        "tool": "add_review", "kind": "range", "param": "rating", "low": 1, "high": 3,
        "sentence": "Ratings go from 1 to 3.", "source": "policy"}]}  # fmt: skip
    (out / "env" / "rules.json").write_text(json.dumps(recorded))
    text = "".join(_scan(render_forge_report(out)).text)
    assert "recorded by synthesis (rules.json)" in text
    assert "rating must be from 1 to 3" in text and "Ratings go from 1 to 3." in text
    assert "orders.status of order_id" not in text  # the recorded rules, not re-extracted
