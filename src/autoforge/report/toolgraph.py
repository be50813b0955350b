"""The tool dependency graph for the report: a circular SVG drawing and an adjacency matrix.

Tool graphs are dense and cyclic (``get_order`` feeds ``cancel_order``, whose result feeds
``get_order`` again), so a layered drawing stacks most tools in one column. Here the tools sit
on a circle, read tools first and then the state-changing ones, and each edge is a curve bent to
its left, so ``A -> B`` and ``B -> A`` stay apart. Hovering an edge highlights it and shows its
field mappings; the matrix lists every edge exactly.
"""

from __future__ import annotations

import math
from html import escape

from autoforge.report.html import Markup, table, tag
from autoforge.tasks import ToolGraph

FILL = {"read": "#dbeafe", "write": "#fde3c8"}
STROKE = {"read": "#2563eb", "write": "#c2410c"}
H = 28


def _width(name: str) -> float:
    return min(200.0, 7.0 * len(name) + 18)


def _positions(graph: ToolGraph) -> tuple[dict[str, tuple[float, float]], float, float]:
    nodes = sorted(graph.nodes, key=lambda n: (n.access != "read", n.name))
    n = max(1, len(nodes))
    widest = max((_width(x.name) for x in nodes), default=100)
    radius = max(190.0, n * 60 / math.pi)
    rx, ry = radius + widest / 2, radius
    cx, cy = rx + widest / 2 + 10, ry + H + 20
    xy = {}
    for i, node in enumerate(nodes):
        angle = -math.pi / 2 + 2 * math.pi * i / n
        xy[node.name] = (cx + rx * math.cos(angle), cy + ry * math.sin(angle))
    return xy, 2 * cx, 2 * cy


def _clip(
    center: tuple[float, float], toward: tuple[float, float], w: float
) -> tuple[float, float]:
    """Where the ray from a box's center toward ``toward`` leaves the box (w x H)."""
    dx, dy = toward[0] - center[0], toward[1] - center[1]
    if dx == 0 and dy == 0:
        return center
    t = min((w / 2 + 3) / abs(dx) if dx else math.inf, (H / 2 + 3) / abs(dy) if dy else math.inf)
    return center[0] + dx * t, center[1] + dy * t


def _edge(graph_xy: dict[str, tuple[float, float]], source: str, target: str, hover: str) -> str:
    (x1, y1), (x2, y2) = graph_xy[source], graph_xy[target]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    bend = 0.18 * length
    control = (mx + dy / length * bend, my - dx / length * bend)  # to the left of the chord
    a = _clip((x1, y1), control, _width(source))
    b = _clip((x2, y2), control, _width(target))
    return (
        f'<g class="tg-edge"><title>{escape(hover)}</title>'
        f'<path d="M{a[0]:.1f},{a[1]:.1f} Q{control[0]:.1f},{control[1]:.1f} '
        f'{b[0]:.1f},{b[1]:.1f}" fill="none" marker-end="url(#tg-arrow)"/></g>'
    )


def tool_graph_svg(graph: ToolGraph) -> Markup:
    """The circular drawing of ``graph`` (labels escaped)."""
    xy, width, height = _positions(graph)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="system-ui, sans-serif" '
        'font-size="12" role="img">',
        "<style>.tg-edge path{stroke:#9ca3af;stroke-width:1.2}"
        ".tg-edge:hover path{stroke:#dc2626;stroke-width:2.5}</style>",
        '<defs><marker id="tg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/>'
        "</marker></defs>",
    ]
    for e in graph.edges:
        maps = "; ".join(f"{m.output} → {m.param}" for m in e.mappings)
        parts.append(_edge(xy, e.source, e.target, f"{e.source} → {e.target}: {maps}"))
    for node in graph.nodes:
        x, y = xy[node.name]
        w = _width(node.name)
        parts.append(
            f"<g><title>{escape(node.description or node.name)}</title>"
            f'<rect x="{x - w / 2:.1f}" y="{y - H / 2:.1f}" width="{w:.1f}" height="{H}" rx="6" '
            f'fill="{FILL[node.access]}" stroke="{STROKE[node.access]}"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle">{escape(node.name)}</text></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def adjacency_table(graph: ToolGraph) -> Markup:
    """Rows: source tools; columns: target tools; a mark where an edge exists."""
    names = [n.name for n in sorted(graph.nodes, key=lambda n: (n.access != "read", n.name))]
    edges = {(e.source, e.target): e for e in graph.edges}
    rows = []
    for i, source in enumerate(names):
        cells: list[Markup | str] = [tag("code", f"{i + 1}. {source}")]
        for target in names:
            edge = edges.get((source, target))
            hover = "; ".join(f"{m.output} → {m.param}" for m in edge.mappings) if edge else None
            cells.append(tag("span", "●", title=hover) if edge else "")
        rows.append(cells)
    headers = ["from \\ to", *[str(i + 1) for i in range(len(names))]]
    key = ", ".join(f"{i + 1} = {n}" for i, n in enumerate(names))
    return table(headers, rows, caption=f"columns: {key}", cls="grid matrix")
