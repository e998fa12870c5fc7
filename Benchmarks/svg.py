"""Small SVG charts for BENCHMARKS.md: grouped bars and log-log lines, no plotting library."""

import math
from xml.sax.saxutils import escape

PALETTE = ["#3366cc", "#dc3912", "#ff9900", "#109618", "#990099", "#0099c6"]
FONT = 'font-family="Helvetica, Arial, sans-serif"'


def _nice_ticks(top, count=5):
    """Round tick values from 0 to at least `top`."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    ticks = [0.0]
    while ticks[-1] < top:
        ticks.append(ticks[-1] + step)
    return ticks


def _fmt(value):
    if value == 0:
        return "0"
    if abs(value) >= 1e6:
        return f"{value / 1e6:g}M"
    if abs(value) >= 1e3:
        return f"{value / 1e3:g}k"
    return f"{value:g}"


def _frame(width, height, title, subtitle=None):
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold" {FONT}>'
             f'{escape(title)}</text>']
    if subtitle:
        parts.append(f'<text x="{width / 2}" y="37" text-anchor="middle" font-size="11" fill="#555" {FONT}>'
                     f'{escape(subtitle)}</text>')
    return parts


def _legend(parts, names, x, y):
    for i, name in enumerate(names):
        parts.append(f'<rect x="{x}" y="{y + i * 16}" width="11" height="11" fill="{PALETTE[i % len(PALETTE)]}"/>')
        parts.append(f'<text x="{x + 16}" y="{y + i * 16 + 10}" font-size="11" {FONT}>{escape(name)}</text>')


def bar_chart(path, title, groups, series, values, unit, subtitle=None, budget=None, log_scale=False):
    """Grouped bars: `values[s][g]` for series s in group g (None = missing). `budget`: a dashed line."""
    width, height = 720, 360
    left, right, top, bottom = 70, 170, 50, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    present = [v for row in values for v in row if v is not None and v > 0]
    highest = max(present + ([budget] if budget else [])) if present else 1
    parts = _frame(width, height, title, subtitle)
    if log_scale:
        lowest = min(present + ([budget] if budget else []))
        lo, hi = math.floor(math.log10(lowest)), math.ceil(math.log10(highest))
        hi = max(hi, lo + 1)

        def y_of(v):
            return top + plot_h - (math.log10(max(v, 10 ** lo)) - lo) / (hi - lo) * plot_h

        ticks = [10 ** e for e in range(lo, hi + 1)]
    else:
        ticks = _nice_ticks(highest * 1.05)

        def y_of(v):
            return top + plot_h - v / ticks[-1] * plot_h

    for tick in ticks:
        y = y_of(tick)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" {FONT}>{_fmt(tick)}</text>')
    parts.append(f'<text x="16" y="{top + plot_h / 2}" font-size="11" {FONT} text-anchor="middle" '
                 f'transform="rotate(-90 16 {top + plot_h / 2})">{escape(unit)}</text>')
    group_w = plot_w / max(1, len(groups))
    bar_w = group_w * 0.8 / max(1, len(series))
    for g, group in enumerate(groups):
        gx = left + g * group_w + group_w * 0.1
        for s in range(len(series)):
            value = values[s][g]
            if value is None:
                continue
            y = y_of(value) if value > 0 else top + plot_h
            parts.append(f'<rect x="{gx + s * bar_w:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" '
                         f'height="{top + plot_h - y:.1f}" fill="{PALETTE[s % len(PALETTE)]}">'
                         f'<title>{escape(series[s])} {escape(str(group))}: {value:.4g} {escape(unit)}</title></rect>')
        parts.append(f'<text x="{left + g * group_w + group_w / 2:.1f}" y="{top + plot_h + 18}" text-anchor="middle" '
                     f'font-size="11" {FONT}>{escape(str(group))}</text>')
    if budget:
        y = y_of(budget)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#000" '
                     f'stroke-dasharray="6 4"/>')
        parts.append(f'<text x="{left + plot_w - 4}" y="{y - 4:.1f}" text-anchor="end" font-size="11" {FONT}>'
                     f'budget {_fmt(budget)}</text>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#333"/>')
    _legend(parts, series, left + plot_w + 15, top + 5)
    parts.append("</svg>")
    with open(path, "w") as out:
        out.write("\n".join(parts) + "\n")


def line_chart(path, title, series, unit_x, unit_y, subtitle=None, budgets=(), log_x=True, log_y=True, hlines=()):
    """Lines through points: `series` is [(name, [(x, y), ...])]; `budgets` [(x, y, label)] as markers;
    `hlines` [(y, label)] as dashed horizontal lines."""
    width, height = 720, 380
    left, right, top, bottom = 70, 190, 50, 55
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [x for _, pts in series for x, y in pts if y is not None and y > 0] + [b[0] for b in budgets]
    ys = ([y for _, pts in series for x, y in pts if y is not None and y > 0] + [b[1] for b in budgets]
          + [h[0] for h in hlines])
    if not xs:
        xs, ys = [1, 10], [1, 10]

    def axis(values, log):
        if log:
            lo, hi = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
            hi = max(hi, lo + 1)
            return (lambda v: (math.log10(v) - lo) / (hi - lo)), [10 ** e for e in range(lo, hi + 1)]
        ticks = _nice_ticks(max(values) * 1.05)
        return (lambda v: v / ticks[-1]), ticks

    fx, ticks_x = axis(xs, log_x)
    fy, ticks_y = axis(ys, log_y)

    def px(x):
        return left + fx(x) * plot_w

    def py(y):
        return top + plot_h - fy(y) * plot_h

    parts = _frame(width, height, title, subtitle)
    for tick in ticks_y:
        parts.append(f'<line x1="{left}" y1="{py(tick):.1f}" x2="{left + plot_w}" y2="{py(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{py(tick) + 4:.1f}" text-anchor="end" font-size="11" {FONT}>'
                     f'{_fmt(tick)}</text>')
    for tick in ticks_x:
        parts.append(f'<line x1="{px(tick):.1f}" y1="{top}" x2="{px(tick):.1f}" y2="{top + plot_h}" stroke="#eee"/>')
        parts.append(f'<text x="{px(tick):.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11" {FONT}>'
                     f'{_fmt(tick)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle" font-size="11" {FONT}>'
                 f'{escape(unit_x)}</text>')
    parts.append(f'<text x="16" y="{top + plot_h / 2}" font-size="11" {FONT} text-anchor="middle" '
                 f'transform="rotate(-90 16 {top + plot_h / 2})">{escape(unit_y)}</text>')
    for i, (name, points) in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        shown = [(x, y) for x, y in points if y is not None and y > 0]
        if len(shown) > 1:
            d = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for j, (x, y) in enumerate(shown))
            parts.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="2"/>')
        for x, y in shown:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{color}">'
                         f'<title>{escape(name)}: {_fmt(x)} -> {y:.4g}</title></circle>')
    for x, y, label in budgets:
        parts.append(f'<path d="M{px(x) - 6:.1f},{py(y):.1f} L{px(x) + 6:.1f},{py(y):.1f} M{px(x):.1f},{py(y) - 6:.1f} '
                     f'L{px(x):.1f},{py(y) + 6:.1f}" stroke="#000" stroke-width="2"/>')
        near_right = px(x) > left + plot_w * 0.8
        parts.append(f'<text x="{px(x) + (-8 if near_right else 8):.1f}" y="{py(y) - 6:.1f}" font-size="10" '
                     f'text-anchor="{"end" if near_right else "start"}" {FONT}>{escape(label)}</text>')
    for y, label in hlines:
        parts.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + plot_w}" y2="{py(y):.1f}" stroke="#000" '
                     f'stroke-dasharray="6 4"/>')
        parts.append(f'<text x="{left + plot_w - 4}" y="{py(y) - 4:.1f}" text-anchor="end" font-size="11" {FONT}>'
                     f'{escape(label)}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    _legend(parts, [name for name, _ in series], left + plot_w + 15, top + 5)
    parts.append("</svg>")
    with open(path, "w") as out:
        out.write("\n".join(parts) + "\n")
