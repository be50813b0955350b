"""The tool dependency graph as a standalone SVG (for the HTML report), no graphviz needed.

Layered left-to-right layout: strongly connected tools share a layer, layers follow the longest
path through the condensed (acyclic) graph, and a few barycenter sweeps order each layer to
reduce crossings. Read tools are blue, state-changing tools orange; edges that go back or stay
within a layer are drawn dashed. Hovering an edge shows its field mappings.
"""

from __future__ import annotations

from html import escape

import networkx as nx

from autoforge.tasks.graph.dependency import ToolGraph

NODE_W, NODE_H, GAP_X, GAP_Y, PAD = 190, 34, 90, 22, 20
FILL = {"read": "#dbeafe", "write": "#fde3c8"}
STROKE = {"read": "#2563eb", "write": "#c2410c"}


def layers(graph: ToolGraph) -> list[list[str]]:
    """Tools grouped into layers, each ordered to keep edges short."""
    g = graph.to_networkx()
    cond = nx.condensation(g)
    depth: dict[int, int] = {}
    for comp in nx.topological_sort(cond):
        depth[comp] = max((depth[p] + 1 for p in cond.predecessors(comp)), default=0)
    grouped: dict[int, list[str]] = {}
    for comp, level in depth.items():
        grouped.setdefault(level, []).extend(sorted(cond.nodes[comp]["members"]))
    result = [sorted(grouped[level]) for level in sorted(grouped)]
    position = {name: i for layer in result for i, name in enumerate(layer)}

    def bary(name: str) -> float:
        preds = [position[p] for p in g.predecessors(name) if p in position]
        return sum(preds) / len(preds) if preds else position[name]

    for _ in range(4):
        for layer in result[1:]:
            layer.sort(key=bary)
            position.update({name: i for i, name in enumerate(layer)})
    return result


def graph_svg(graph: ToolGraph, title: str | None = None) -> str:
    """The SVG document (a string) drawing ``graph``."""
    grid = layers(graph)
    xy: dict[str, tuple[float, float]] = {}
    for col, layer in enumerate(grid):
        for row, name in enumerate(layer):
            xy[name] = (PAD + col * (NODE_W + GAP_X), PAD + 24 + row * (NODE_H + GAP_Y))
    width = PAD * 2 + max(1, len(grid)) * (NODE_W + GAP_X) - GAP_X
    height = PAD * 2 + 24 + max((len(layer) for layer in grid), default=1) * (NODE_H + GAP_Y)
    head = escape(title or f"Tool dependency graph: {graph.env_id}")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker></defs>',
        f'<text x="{PAD}" y="{PAD + 4}" font-size="14" font-weight="bold">{head}</text>',
    ]
    parts += [_edge(e.source, e.target, e.reason, xy) for e in graph.edges]
    for node in graph.nodes:
        x, y = xy[node.name]
        parts.append(
            f"<g><title>{escape(node.description or node.name)}</title>"
            f'<rect x="{x}" y="{y}" width="{NODE_W}" height="{NODE_H}" rx="6" '
            f'fill="{FILL[node.access]}" stroke="{STROKE[node.access]}"/>'
            f'<text x="{x + NODE_W / 2}" y="{y + NODE_H / 2 + 4}" text-anchor="middle">'
            f"{escape(node.name)}</text></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _edge(source: str, target: str, reason: str, xy: dict[str, tuple[float, float]]) -> str:
    (sx, sy), (tx, ty) = xy[source], xy[target]
    forward = tx > sx
    if forward:
        x1, y1, x2, y2 = sx + NODE_W, sy + NODE_H / 2, tx, ty + NODE_H / 2
        bend = (x2 - x1) / 2
        path = f"M{x1},{y1} C{x1 + bend},{y1} {x2 - bend},{y2} {x2},{y2}"
        style = 'stroke="#555"'
    else:
        x1, y1, x2, y2 = sx + NODE_W / 2, sy + NODE_H, tx + NODE_W / 2, ty + NODE_H
        drop = 30 + abs(ty - sy) / 4
        path = f"M{x1},{y1} C{x1},{y1 + drop} {x2},{y2 + drop} {x2},{y2}"
        style = 'stroke="#999" stroke-dasharray="4 3"'
    return (
        f'<path d="{path}" fill="none" {style} marker-end="url(#arrow)">'
        f"<title>{escape(source)} -&gt; {escape(target)}: {escape(reason)}</title></path>"
    )
