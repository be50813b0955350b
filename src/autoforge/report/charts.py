"""Inline SVG bar charts (histograms, counts by category) with no plotting library.

Each function returns a standalone ``<svg>`` element as :class:`~autoforge.report.html.Markup`
with every label escaped; bars carry a ``<title>`` so hovering shows the exact count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape

from autoforge.report.html import Markup

BAR = "#3b82f6"
FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def histogram(values: Iterable[int], title: str, *, color: str = BAR) -> Markup:
    """A vertical bar per integer value from min to max (gaps shown as empty bars)."""
    counts = Counter(values)
    if not counts:
        return bars([], title)
    low, high = min(counts), max(counts)
    data = [(str(v), counts.get(v, 0)) for v in range(low, high + 1)]
    return bars(data, title, color=color)


def bars(
    data: Sequence[tuple[str, int | float]],
    title: str,
    *,
    color: str = BAR,
    width: int = 300,
    height: int = 170,
) -> Markup:
    """Vertical bars for ``(label, value)`` pairs, labelled below and valued above."""
    pad_l, pad_b, pad_t = 8, 34, 40
    n = max(1, len(data))
    slot = (width - 2 * pad_l) / n
    top = max((v for _, v in data), default=0) or 1
    plot_h = height - pad_b - pad_t
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} role="img">',
        f'<text x="{pad_l}" y="16" font-size="12" font-weight="600">{escape(title)}</text>',
    ]
    if not data:
        parts.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle" '
                     'fill="#6b7280">no data</text>')  # fmt: skip
    base = height - pad_b
    for i, (label, value) in enumerate(data):
        h = plot_h * value / top
        x = pad_l + i * slot + slot * 0.15
        w = slot * 0.7
        cx = x + w / 2
        parts.append(
            f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{w:.1f}" height="{max(h, 0):.1f}" '
            f'fill="{color}" rx="2"><title>{escape(label)}: {value:g}</title></rect>'
        )
        if value:
            parts.append(f'<text x="{cx:.1f}" y="{base - h - 3:.1f}" text-anchor="middle">'
                         f"{value:g}</text>")  # fmt: skip
        parts.append(_label(cx, base + 14, label, slot))
    parts.append(f'<line x1="{pad_l}" y1="{base}" x2="{width - pad_l}" y2="{base}" '
                 'stroke="#9ca3af"/>')  # fmt: skip
    parts.append("</svg>")
    return Markup("".join(parts))


def _label(x: float, y: float, label: str, slot: float) -> str:
    max_chars = max(3, int(slot / 6))
    short = label if len(label) <= max_chars else label[: max_chars - 1] + "…"
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" fill="#374151">{escape(short)}</text>'
    )


def hbars(
    data: Sequence[tuple[str, int | float]],
    title: str,
    *,
    color: str = "#f97316",
    width: int = 560,
) -> Markup:
    """Horizontal bars for ``(label, value)`` pairs (long labels, e.g. rejection reasons)."""
    row, pad_t, label_w = 22, 28, 170
    height = pad_t + row * max(1, len(data)) + 8
    top = max((v for _, v in data), default=0) or 1
    plot_w = width - label_w - 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} role="img">',
        f'<text x="4" y="16" font-size="12" font-weight="600">{escape(title)}</text>',
    ]
    if not data:
        parts.append(f'<text x="4" y="{pad_t + 14}" fill="#6b7280">none</text>')
    for i, (label, value) in enumerate(data):
        y = pad_t + i * row
        w = plot_w * value / top
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{label_w}" y="{y + 3}" width="{max(w, 1):.1f}" height="{row - 7}" '
            f'fill="{color}" rx="2"><title>{escape(label)}: {value:g}</title></rect>'
            f'<text x="{label_w + w + 4:.1f}" y="{y + 14}">{value:g}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
