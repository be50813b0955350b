"""A task's blueprint DAG as a small top-to-bottom SVG (for the report's task gallery).

Rows follow the dependency levels: the user-known facts on top (four per row), then the tool
calls and reasoning steps in the order they can run. Read calls are blue, state-changing calls
orange, reasoning steps violet; the values the agent must tell the user have a green border.
Hovering a node or an edge shows the details (arguments, operator, the output path that flows).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import networkx as nx

from autoforge.report.html import Markup
from autoforge.tasks import Blueprint, CallNode, FactRef, ReasonNode, Task, iter_refs

W, H, GX, GY, PAD = 150, 38, 22, 34, 10
FACTS_PER_ROW = 4  # more facts wrap, so a wide task keeps a readable scale
STYLE = {
    "fact": ("#f3f4f6", "#9ca3af"),
    "read": ("#dbeafe", "#2563eb"),
    "write": ("#fde3c8", "#c2410c"),
    "reason": ("#ede9fe", "#7c3aed"),
}


@dataclass
class _Node:
    id: str
    kind: str
    label: str
    sub: str
    hover: str
    output: bool = False


def _path_text(path: list[str | int]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def reasoning_text(node: ReasonNode) -> str:
    """``argmax(unit_price)`` style one-liner of a reasoning step."""
    field = _path_text(list(node.spec.field))
    cmp = f" {node.spec.cmp}" if node.spec.cmp else ""
    return f"{node.spec.op}({field}){cmp}" if field or cmp else node.spec.op


def _nodes(task: Task, bp: Blueprint) -> dict[str, _Node]:
    writes = {c.node for c in task.gold_calls if c.writes}
    out: dict[str, _Node] = {}
    for name in bp.fact_names_used():
        value = task.user_facts.get(name, task.session.get(name))  # session: the agent's
        out[f"fact:{name}"] = _Node(
            f"fact:{name}", "fact", name, _short(value), f"{name} = {value}"
        )
    for node in bp.nodes:
        if isinstance(node, CallNode):
            kind = "write" if node.id in writes else "read"
            args = ", ".join(node.args)
            out[node.id] = _Node(node.id, kind, node.tool, f"{node.id} · {kind}",
                                 f"{node.id}: {node.tool}({args})")  # fmt: skip
        else:
            text = reasoning_text(node)
            out[node.id] = _Node(node.id, "reason", text, f"{node.id} · over {node.noun}s",
                                 f"{node.id}: {text} over {node.noun}s")  # fmt: skip
        out[node.id].output = node.id in bp.outputs
    return out


def _short(value: object, limit: int = 22) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _graph(bp: Blueprint) -> nx.DiGraph:
    g = nx.DiGraph()
    for node in bp.nodes:
        g.add_node(node.id)
        for arg, binding in bp.bindings(node).items():
            for ref in iter_refs(binding):
                if isinstance(ref, FactRef):
                    g.add_edge(f"fact:{ref.name}", node.id, label=f"{arg}")
                else:
                    path = _path_text(list(ref.path))
                    g.add_edge(ref.node, node.id, label=f"{arg} ← {path or 'value'}")
    return g


def _rows(g: nx.DiGraph) -> list[list[str]]:
    facts = sorted(n for n in g if n.startswith("fact:"))
    rest = g.subgraph(n for n in g if not n.startswith("fact:"))
    rows = [sorted(gen) for gen in nx.topological_generations(rest)]
    fact_rows = [facts[i : i + FACTS_PER_ROW] for i in range(0, len(facts), FACTS_PER_ROW)]
    rows = fact_rows + rows
    position = {n: i for row in rows for i, n in enumerate(row)}
    for _ in range(3):
        for row in rows[1:]:
            row.sort(key=lambda n: _bary(g, n, position))
            position.update({n: i for i, n in enumerate(row)})
    return rows


def _bary(g: nx.DiGraph, node: str, position: dict[str, int]) -> float:
    preds = [position[p] for p in g.predecessors(node) if p in position]
    return sum(preds) / len(preds) if preds else float(position.get(node, 0))


def blueprint_svg(task: Task, max_width: int = 600) -> Markup:
    """The SVG drawing of ``task``'s blueprint (facts, calls, reasoning steps, data flow)."""
    if task.blueprint is None:
        return Markup("")
    nodes, g = _nodes(task, task.blueprint), _graph(task.blueprint)
    rows = _rows(g)
    widest = max((len(r) for r in rows), default=1)
    width = max(PAD * 2 + widest * (W + GX) - GX, 200)
    height = PAD * 2 + len(rows) * (H + GY) - GY
    xy: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(rows):
        offset = (width - (len(row) * (W + GX) - GX)) / 2
        for i, name in enumerate(row):
            xy[name] = (offset + i * (W + GX), PAD + r * (H + GY))
    shown = min(width, max_width)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{shown}" '
        f'height="{height * shown / width:.0f}" viewBox="0 0 {width} {height}" '
        'font-family="system-ui, sans-serif" font-size="11" role="img">',
        '<defs><marker id="dag-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker>'
        "</defs>",
    ]
    for source, target, data in g.edges(data=True):
        parts.append(_edge(xy[source], xy[target], f"{source} → {target}: {data['label']}"))
    for name, (x, y) in xy.items():
        parts.append(_box(nodes[name], x, y))
    parts.append("</svg>")
    return Markup("".join(parts))


def _edge(a: tuple[float, float], b: tuple[float, float], hover: str) -> str:
    x1, y1 = a[0] + W / 2, a[1] + H
    x2, y2 = b[0] + W / 2, b[1]
    bend = max(12.0, (y2 - y1) / 2)
    return (
        f'<path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} {x2:.1f},{y2 - bend:.1f} '
        f'{x2:.1f},{y2:.1f}" fill="none" stroke="#9ca3af" stroke-width="1.2" '
        f'marker-end="url(#dag-arrow)"><title>{escape(hover)}</title></path>'
    )


def _box(node: _Node, x: float, y: float) -> str:
    fill, stroke = STYLE[node.kind]
    border = ' stroke-width="3" stroke="#16a34a"' if node.output else f' stroke="{stroke}"'
    rx = 17 if node.kind == "fact" else 6
    return (
        f"<g><title>{escape(node.hover)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{W}" height="{H}" rx="{rx}" fill="{fill}"{border}/>'
        f'<text x="{x + W / 2:.1f}" y="{y + 15:.1f}" text-anchor="middle" font-weight="600">'
        f"{escape(_short(node.label))}</text>"
        f'<text x="{x + W / 2:.1f}" y="{y + 29:.1f}" text-anchor="middle" fill="#4b5563" '
        f'font-size="10">{escape(_short(node.sub, 26))}</text></g>'
    )
