"""Writes BENCHMARKS.md and its SVG charts from the results of Benchmarks/bench.py."""

import json
import math
import os

import svg

HERE = os.path.dirname(os.path.abspath(__file__))


def _num(value, unit=""):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    magnitude = abs(value)
    text = (f"{value:.3f}" if magnitude < 1 else f"{value:.2f}" if magnitude < 10 else f"{value:.1f}"
            if magnitude < 100 else f"{value:,.0f}")
    return text + unit


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return out


def _skipped(section):
    return isinstance(section, dict) and "skipped" in section


def _phase(phases, viewers):
    for phase in phases or []:
        if phase["asked"] == viewers:
            return phase
    return None


def _verdict(ok):
    return "**met**" if ok else "**missed**"


def budgets(results):
    """[(budget, measured, reference, verdict)] for the summary."""
    rows = []
    latency = results.get("latency")
    if latency and not _skipped(latency):
        phase = _phase(latency["stackweb"], 100)
        floor = _phase(latency.get("floor"), 100)
        if phase:
            p50, p99 = phase["any_viewer"]["p50"], phase["any_viewer"]["p99"]
            reference = (f"floor (same client, trivial C server): p50 {_num(floor['any_viewer']['p50'])} ms, "
                         f"p99 {_num(floor['any_viewer']['p99'])} ms" if floor else "")
            rows.append(("move → viewer p50 ≤ 0.5 ms, 100 viewers", f"{_num(p50)} ms (first viewer "
                         f"{_num(phase['first_viewer']['p50'])} ms)", reference, _verdict(p50 <= 0.5)))
            rows.append(("move → viewer p99 ≤ 2 ms, 100 viewers", f"{_num(p99)} ms", reference, _verdict(p99 <= 2)))
    fanout = results.get("fanout")
    if fanout and not _skipped(fanout):
        for viewers, limit in ((1000, 20), (10000, 200)):
            phase = _phase(fanout["stackweb"], viewers)
            floor = next((f for f in fanout.get("floor", []) if phase and f["viewers"] == phase["viewers"]), None)
            if not phase:
                rows.append((f"one change → {viewers:,} viewers ≤ {limit} ms", "not measured", "", "–"))
                continue
            reference = f"floor p50 {_num(floor['last_viewer']['p50'])} ms" if floor else ""
            last = phase["last_viewer"]["p50"]
            if phase["viewers"] < viewers:
                rows.append((f"one change → {viewers:,} viewers ≤ {limit} ms",
                             f"**blocked**: only {phase['viewers']:,} of {viewers:,} viewers could connect "
                             f"({_refusals(phase)}); {phase['viewers']:,} got it in {_num(last)} ms (p50)",
                             reference, "**missed** (blocked)"))
            else:
                rows.append((f"one change → {viewers:,} viewers ≤ {limit} ms",
                             f"{_num(last)} ms p50, {_num(phase['last_viewer']['p90'])} ms p90", reference,
                             _verdict(last <= limit)))
    idle = results.get("idle")
    if idle and not _skipped(idle):
        step = next((s for s in idle["steps"] if s["asked"] == 10000), None)
        if step:
            blocked = step["viewers"] < step["asked"]
            prefix = (f"**blocked** at {step['viewers']:,} viewers ({_refusals(step)}); at {step['viewers']:,}: "
                      if blocked else "")
            rows.append(("10,000 idle viewers: ~0 CPU (≤ 1 % of a core)",
                         f"{prefix}{_num(step['cpu_share'] * 100)} % of a core over {idle['window_s']} s", "",
                         "**missed** (blocked)" if blocked else _verdict(step["cpu_share"] <= 0.01)))
            rows.append(("10,000 idle viewers: ≤ 16 KiB each",
                         f"{prefix}{_num(step['per_viewer_kib'])} KiB per viewer (RSS growth / viewers)", "",
                         "**missed**" if blocked or step["per_viewer_kib"] > 16 else "**met**"))
    static = results.get("static")
    if static and not _skipped(static):
        for path, row in static["table"].items():
            ratio = row["ratio_vs_nginx-1-worker"]
            rows.append((f"static `{path}` req/s ≥ nginx's (ratio ≥ 1.0)",
                         f"ratio {_num(ratio)} vs nginx with 1 worker ({_num(row['ratio_vs_nginx-auto'])} vs "
                         f"`worker_processes auto`)", f"StackWeb {row['stackweb']['rps']:,.0f} req/s",
                         _verdict(ratio >= 1.0)))
    model = results.get("model")
    if model and not _skipped(model):
        worst = max(model["rows"], key=lambda r: r["move_ns_p50"])
        rows.append(("pointer move ≤ 5 µs at any stack size",
                     f"{_num(worst['move_ns_p50'] / 1000)} µs p50 (worst, at {worst['size']:,} cards); "
                     f"{_num(min(r['move_ns_p50'] for r in model['rows']) / 1000)} µs best", "",
                     _verdict(worst["move_ns_p50"] <= 5000)))
    client = results.get("client")
    if client and not _skipped(client) and "100 cards" in client:
        stats = client["100 cards"]
        rows.append(("client p99 frame ≤ 16.7 ms (100 drawn cards)",
                     f"{_num(stats['drawP99'])} ms p99 to draw a frame; frame interval p99 "
                     f"{_num(stats['intervalP99'])} ms", "", _verdict(stats["drawP99"] <= 16.7)))
    rows += _group_budgets(results.get("group"))
    return rows


def _group_budgets(group):
    """The group's budgets for the summary (section 11 has the figures)."""
    if not group or _skipped(group):
        return []
    b, many = GROUP_BUDGETS, group["latency"]["group"]["any_viewer"]
    single = group["latency"]["single"]["any_viewer"]
    rows = [(f"group of 3: move → viewer of another instance p50 ≤ {_num(b['move_p50'])} ms, p99 ≤ "
             f"{_num(b['move_p99'])} ms (100 viewers each)", f"{_num(many['p50'])} / {_num(many['p99'])} ms",
             f"one instance: {_num(single['p50'])} / {_num(single['p99'])} ms",
             _verdict(many["p50"] <= b["move_p50"] and many["p99"] <= b["move_p99"]))]
    fan_out = group.get("fan_out")
    if fan_out:
        spread, alone = fan_out["group"], fan_out["single"]
        rows.append((f"group of 3: one change → 30,000 viewers, last viewer p50 ≤ {_num(b['fan_out_last_p50'])} ms",
                     f"{_num(spread['last_viewer']['p50'])} ms ({spread['viewers']:,} viewers)",
                     f"one instance, {alone['viewers']:,} viewers: {_num(alone['last_viewer']['p50'])} ms",
                     _verdict(spread["viewers"] >= 30000 and spread["last_viewer"]["p50"] <= b["fan_out_last_p50"])))
    worst = group["failover"]["max_s"]
    rows.append((f"group: owner kill -9 → room moves ≤ {_num(b['failover_s'])} s", f"{_num(worst)} s (max of "
                 f"{len(group['failover']['runs_s'])})", "", _verdict(worst is not None and worst <= b["failover_s"])))
    return rows


def _refusals(phase):
    reasons = phase.get("refusals") or {}
    if not reasons:
        return "none refused"
    return ", ".join(f"{count:,} {reason.replace('-', ' ')}" for reason, count in reasons.items())


def _charts(results, charts_dir):
    made = {}
    latency = results.get("latency")
    if latency and not _skipped(latency):
        phases = latency["stackweb"]
        floors = {f["asked"]: f for f in latency.get("floor", [])}
        groups = [f"{p['viewers']:,} viewer{'s' if p['viewers'] != 1 else ''}" for p in phases]
        series = ["StackWeb p50", "StackWeb p99", "floor p50", "floor p99"]
        values = [[p["any_viewer"]["p50"] for p in phases], [p["any_viewer"]["p99"] for p in phases],
                  [floors.get(p["asked"], {}).get("any_viewer", {}).get("p50") for p in phases],
                  [floors.get(p["asked"], {}).get("any_viewer", {}).get("p99") for p in phases]]
        path = os.path.join(charts_dir, "latency.svg")
        svg.bar_chart(path, "Pointer move → SSE event at a viewer", groups, series, values, "ms (log scale)",
                      subtitle="POST sent → event read, every (move, viewer) pair; floor = same client, trivial server",
                      log_scale=True)
        made["latency"] = path
    fanout = results.get("fanout")
    if fanout and not _skipped(fanout):
        stack = fanout["stackweb"]
        floor = fanout.get("floor", [])
        series = [("StackWeb last viewer p50", [(p["viewers"], p["last_viewer"]["p50"]) for p in stack]),
                  ("StackWeb last viewer p90", [(p["viewers"], p["last_viewer"]["p90"]) for p in stack]),
                  ("StackWeb first viewer p50", [(p["viewers"], p["first_viewer"]["p50"]) for p in stack]),
                  ("floor last viewer p50", [(p["viewers"], p["last_viewer"]["p50"]) for p in floor])]
        path = os.path.join(charts_dir, "fanout.svg")
        svg.line_chart(path, "Fan-out: one change → the last of N viewers", series, "viewers connected", "ms",
                       subtitle="crosses: the budgets (1,000 in 20 ms, 10,000 in 200 ms)",
                       budgets=[(1000, 20, "budget 20 ms"), (10000, 200, "budget 200 ms")])
        made["fanout"] = path
    idle = results.get("idle")
    if idle and not _skipped(idle):
        steps = idle["steps"]
        path = os.path.join(charts_dir, "idle-memory.svg")
        svg.bar_chart(path, "Idle viewers: resident memory per viewer", [f"{s['viewers']:,} viewers" for s in steps],
                      ["RSS growth per viewer", "anonymous memory growth per viewer"],
                      [[s["per_viewer_kib"] for s in steps], [s["per_viewer_anon_kib"] for s in steps]], "KiB",
                      subtitle="(RSS with N idle viewers − RSS with none) / N", budget=16)
        made["idle"] = path
    static = results.get("static")
    if static and not _skipped(static):
        table = static["table"]
        paths = list(table)
        servers = ["stackweb", "nginx-1-worker", "nginx-auto"]
        path = os.path.join(charts_dir, "static.svg")
        svg.bar_chart(path, "Static files: requests per second (wrk, keep-alive)", paths,
                      ["StackWeb", "nginx, 1 worker", "nginx, auto (2)"],
                      [[table[p][s]["rps"] for p in paths] for s in servers], "requests/s",
                      subtitle=f"wrk -t1 -c{static['connections']}, median of {static['repeats']} runs of "
                               f"{static['seconds']} s each")
        made["static"] = path
    model = results.get("model")
    if model and not _skipped(model):
        rows = model["rows"]
        path = os.path.join(charts_dir, "model.svg")
        svg.line_chart(path, "StackModel: time per call against stack size",
                       [("pointer move (p50)", [(r["size"], r["move_ns_p50"]) for r in rows]),
                        ("pointer move (best batch)", [(r["size"], r["move_ns_min"]) for r in rows]),
                        ("layout: drawnCards (p50)", [(r["size"], r["layout_ns_p50"]) for r in rows])],
                       "cards in the stack", "ns per call",
                       subtitle="dashed: the 5 µs budget for a move", hlines=[(5000, "budget 5 µs")])
        made["model"] = path
    client = results.get("client")
    if client and not _skipped(client):
        labels = [label for label in ("server cards", "100 cards") if label in client]
        path = os.path.join(charts_dir, "client.svg")
        svg.bar_chart(path, "Headless Chromium while dragging: frame times",
                      [f"{client[label]['cards']} cards drawn" for label in labels],
                      ["draw p50", "draw p99", "frame interval p50", "frame interval p99"],
                      [[client[l]["drawP50"] for l in labels], [client[l]["drawP99"] for l in labels],
                       [client[l]["intervalP50"] for l in labels], [client[l]["intervalP99"] for l in labels]],
                      "ms", subtitle="draw = drawing one frame, rasterised (debug hook, flush: true)", budget=16.7)
        made["client"] = path
    return made


def _link(made, key, alt, report_dir):
    if key not in made:
        return []
    return ["", f"![{alt}]({os.path.relpath(made[key], report_dir)})", ""]


def write(results, report_path, charts_dir, partial=False):
    """The report of one run: every section from `results`, the header naming that run's commit and date.
    `partial`: a run of some items only (`--only`), written outside the committed report."""
    os.makedirs(charts_dir, exist_ok=True)
    report_dir = os.path.dirname(os.path.abspath(report_path))
    made = _charts(results, charts_dir)
    m = results["machine"]
    performance = os.path.relpath(os.path.join(os.path.dirname(HERE), "docs", "performance.md"), report_dir)
    title = "# Benchmarks: a partial run" if partial else "# Benchmarks"
    scope = (f"A partial run of {', '.join(results.get('items', []))} only: not the committed BENCHMARKS.md, which "
             "`make bench` writes whole from one run of every item. " if partial else
             "Written whole by one `make bench` (Benchmarks/bench.py; issue #7) on the commit below: every section "
             "comes from that one run. ")
    out = [title, "",
           scope + "These are measurements, not tests: nothing "
           "fails on a number. The machine is shared and noisy, so every figure is a percentile or a ratio, "
           "and each server figure stands next to a floor measured by the same client in the same run. "
           f"What was decided from such figures, and why, is in [docs/performance.md]({performance}).", "",
           "## Machine and command", ""]
    out += _table(["", ""], [
        ("date", m["date"]), ("command", f"`{results['command']}` (release build: `{results['binary']}`)"),
        ("commit", f"{m['git']}{' + uncommitted changes (Sources, Resources, Benchmarks)' if m['git_dirty'] else ''}"),
        ("CPU", f"{m['nproc']} × {m['cpu']}"), ("memory", f"{m['memory_gib']} GiB"),
        ("kernel / OS", f"{m['kernel']} / {m['os']}"), ("Swift", m["swift"]),
        ("libmicrohttpd", m["libmicrohttpd"]), ("nginx / wrk", f"{m['nginx']} / {m['wrk']}"),
        ("Chromium", m["chromium"]), ("client", f"Benchmarks/sseload.c ({m['gcc']}), Python {m['python']}"),
        ("run time", f"{results.get('elapsed_s', 0):.0f} s; hypervisor steal during the run "
                     f"{_num(results.get('steal', 0) * 100)} % of CPU time"),
        ("other load", "1-minute load average before / after the run: "
                       f"{_num((results.get('loadavg_start') or [0])[0])} / {_num((results.get('loadavg_end') or [0])[0])}"
                       " (the bench itself adds about 1)"),
    ])
    out += ["", "How to read: *p50/p99/p99.9* are nearest-rank percentiles. *Floor*: the same client "
            "(`sseload`, C, one epoll loop) against `sseload serve`, a trivial epoll server that answers the "
            "same routes with no work behind them — what loopback TCP, the kernel and this VM cost by themselves. "
            "Client and server share the 2 cores.", ""]

    out += ["## Budgets", ""]
    out += _table(["budget (2 cores)", "measured", "reference", "verdict"], budgets(results))
    out += ["", f"Why a budget is missed, and what was done or left, is in [docs/performance.md]({performance}).", ""]

    # 1
    out += ["## 1. Pointer move → SSE event at the viewers", ""]
    latency = results.get("latency")
    if not latency or _skipped(latency):
        out += [f"Skipped: {(latency or {}).get('skipped', 'not run')}.", ""]
    else:
        out += [f"One page drags the top card: a `down`, then `move`s POSTed on a keep-alive connection, each sent "
                f"once the previous one reached every viewer and at most every {latency['interval_ms']:g} ms (a "
                f"125 Hz pointer); a move changes the card every time. Latency: POST written → the change read by a "
                f"viewer (SSE over HTTP/1.1: StackWeb sends a close-delimited body, the floor a chunked one). *Any viewer* is every (move, viewer) pair; *first* / *last* "
                f"are per move. `/healthz` is the round trip of the same client on the same connection.", ""]
        floors = {f["asked"]: f for f in latency.get("floor", [])}
        rows = []
        for p in latency["stackweb"]:
            f = floors.get(p["asked"])
            a = p["any_viewer"]
            rows.append((f"{p['viewers']:,}", f"{p['moves']:,}", _num(a["p50"]), _num(a["p99"]), _num(a["p99.9"]),
                         _num(p["first_viewer"]["p50"]), _num(p["last_viewer"]["p50"]), _num(p["last_viewer"]["p99"]),
                         _num(p["answer"]["p50"]), _num(p["server_cpu_ms_per_change"] * 1000, " µs"),
                         f"{_num(p['healthz']['p50'])} / {_num(p['healthz']['p99'])}",
                         f"{_num(f['any_viewer']['p50'])} / {_num(f['any_viewer']['p99'])} / "
                         f"{_num(f['any_viewer']['p99.9'])}" if f else "–",
                         _num(a["p50"] / f["any_viewer"]["p50"], "×") if f else "–"))
        out += _table(["viewers", "moves", "any viewer p50", "p99", "p99.9", "first p50", "last p50", "last p99",
                       "POST answer p50", "server CPU per move", "/healthz p50 / p99",
                       "floor any viewer p50 / p99 / p99.9", "p50 ÷ floor"], rows)
        out += ["", "All times in ms. Lost changes (not at every viewer within 5 s) and refused POSTs: " +
                ", ".join(f"{p['viewers']:,} viewers: {p['lost']} lost, {p['refused']} refused" for p in
                          latency["stackweb"]) + "."]
        out += _link(made, "latency", "latency chart", report_dir)

    # 2
    out += ["## 2. Fan-out: one change → the last of N viewers", ""]
    fanout = results.get("fanout")
    if not fanout or _skipped(fanout):
        out += [f"Skipped: {(fanout or {}).get('skipped', 'not run')}.", ""]
    else:
        out += [f"N viewers on one room, {fanout['changes']} changes (pointer moves) each, one at a time (40 ms "
                f"apart at least); time from the POST to the moment the last viewer has read the change.", ""]
        floors = {f["viewers"]: f for f in fanout.get("floor", [])}
        rows = []
        for p in fanout["stackweb"]:
            f = floors.get(p["viewers"])
            rows.append((f"{p['asked']:,}", f"{p['viewers']:,}", _num(p["last_viewer"]["p50"]),
                         _num(p["last_viewer"]["p90"]), _num(p["last_viewer"]["max"]), _num(p["first_viewer"]["p50"]),
                         _num(p["server_cpu_ms_per_change"]),
                         _num(p["server_cpu_ms_per_change"] * 1000 / max(1, p["viewers"]), " µs"),
                         _num(f["last_viewer"]["p50"]) if f else "–",
                         _num(p["last_viewer"]["p50"] / f["last_viewer"]["p50"], "×") if f else "–",
                         _refusals(p) if p["viewers"] < p["asked"] else ""))
        out += _table(["asked", "connected", "last p50", "last p90", "last max", "first p50", "server CPU ms / change",
                       "CPU ÷ viewers", "floor last p50", "÷ floor", "refused"], rows)
        out += ["", "All times in ms."]
        if any(p["viewers"] < p["asked"] for p in fanout["stackweb"]):
            out += ["", "**Blocked**: connections beyond libmicrohttpd's `MHD_OPTION_CONNECTION_LIMIT` (4096 in "
                    "`ServerLimits.connectionLimit`, the poster's connection included) are accepted by the kernel "
                    "(listen backlog) but never answered: the client waits 10 s per wave of 250 and counts them as "
                    "refused (`no snapshot in time`)."]
        out += _link(made, "fanout", "fan-out chart", report_dir)

    # 3
    out += ["## 3. Idle viewers: CPU and memory", ""]
    idle = results.get("idle")
    if not idle or _skipped(idle):
        out += [f"Skipped: {(idle or {}).get('skipped', 'not run')}.", ""]
    else:
        base = idle["baseline"]
        out += [f"N viewers connected and idle (no changes; heartbeats every 15 s). Server CPU over "
                f"{idle['window_s']} s (so at least one heartbeat); resident memory grown over the same server "
                f"with the room loaded and no viewer (baseline RSS {base['memory_kib']['rss'] / 1024:.1f} MiB, "
                f"idle CPU {_num(base['cpu_share'] * 100)} %).", ""]
        rows = [(f"{s['asked']:,}", f"{s['viewers']:,}", f"{s['memory_kib']['rss'] / 1024:.1f}",
                 _num(s["per_viewer_kib"]), _num(s["per_viewer_anon_kib"]), _num(s["cpu_share"] * 100, " %"),
                 _num(s["cpu_ms"], " ms"), _num(s["bytes_per_viewer"]), f"{s['still_open']:,}",
                 _refusals(s) if s["viewers"] < s["asked"] else "") for s in idle["steps"]]
        out += _table(["asked", "connected", "RSS MiB", "KiB / viewer", "anon KiB / viewer", "CPU (of a core)",
                       "CPU in window", "bytes / viewer in window", "open at end", "refused"], rows)
        out += ["", "CPU time is read from /proc/PID/stat in 10 ms ticks."]
        out += _link(made, "idle", "idle memory chart", report_dir)

    # 4
    out += ["## 4. Static files: StackWeb and nginx", ""]
    static = results.get("static")
    if not static or _skipped(static):
        out += [f"Skipped: {(static or {}).get('skipped', 'not run')}.", ""]
    else:
        out += [f"`wrk -t1 -c{static['connections']} -d{static['seconds']}s` against each server in turn, "
                f"interleaved, {static['repeats']} times; the median run is shown. nginx (Debian's package) is started "
                f"by the bench on loopback with `Resources/web` as its root, access log off, `sendfile on`, "
                f"`keepalive_requests` raised (config in bench-out/nginx-*/nginx.conf); once with 1 worker (StackWeb "
                f"answers on one libmicrohttpd thread) and once with `worker_processes auto` (Debian's default, one "
                f"per core). Hypervisor steal during these runs: {_num(static.get('steal', 0) * 100)} %.", ""]
        rows = []
        for path, row in static["table"].items():
            rows.append((f"`{path}`", f"{static['sizes'][path]:,}", f"{row['stackweb']['rps']:,.0f}",
                         f"{row['nginx-1-worker']['rps']:,.0f}", f"{row['nginx-auto']['rps']:,.0f}",
                         _num(row["ratio_vs_nginx-1-worker"], "×"), _num(row["ratio_vs_nginx-auto"], "×"),
                         f"{_num(row['stackweb']['p50_ms'])} / {_num(row['stackweb']['p99_ms'])}",
                         f"{_num(row['nginx-1-worker']['p50_ms'])} / {_num(row['nginx-1-worker']['p99_ms'])}",
                         ", ".join(f"{r:,.0f}" for r in row["stackweb"]["all_rps"])))
        out += _table(["path", "bytes", "StackWeb req/s", "nginx 1 worker", "nginx auto", "ratio (1 worker)",
                       "ratio (auto)", "StackWeb latency p50 / p99 ms", "nginx (1) p50 / p99 ms",
                       "StackWeb runs req/s"], rows)
        out += _link(made, "static", "static files chart", report_dir)

    # 5
    out += ["## 5. Model: pointer move and layout against stack size", ""]
    model = results.get("model")
    if not model or _skipped(model):
        out += [f"Skipped: {(model or {}).get('skipped', 'not run')}.", ""]
    else:
        out += ["`Sources/StackModel` compiled as its own module with `swiftc -O -wmo -swift-version 6` and "
                "driven through its public API by Benchmarks/model/ModelBench.swift: `handle(.pointer(move))` "
                "during a drag of the top card (200,000 calls in batches of 2,000; percentiles over the "
                "batches' ns per call), `drawnCards(at:)` with nothing moving (the layout), and a flick gesture "
                "(down, three moves, up, and the tick that lands the card at the bottom).", ""]
        rows = [(f"{r['size']:,}", _num(r["move_ns_p50"] / 1000), _num(r["move_ns_p99"] / 1000),
                 _num(r["move_ns_min"] / 1000), _num(r["layout_ns_p50"] / 1000), _num(r["layout_ns_p99"] / 1000),
                 _num(r["flick_ns_p50"] / 1000), _num(r["build_ms"], " ms") if r["build_ms"] >= 1 else "< 1 ms", r["drawn"]) for r in model["rows"]]
        out += _table(["cards", "move p50 µs", "move p99 µs", "move best µs", "layout p50 µs", "layout p99 µs",
                       "flick gesture p50 µs", "Stack(photos:) build", "cards drawn"], rows)
        out += _link(made, "model", "model chart", report_dir)

    # 6
    out += ["## 6. Photos: 24 MP JPEG → screen variant", ""]
    photos = results.get("photos")
    if not photos or _skipped(photos):
        out += [f"Skipped: {(photos or {}).get('skipped', 'not run')}.", ""]
    else:
        out += [f"A generated {photos['photo_pixels']} JPEG ({photos['photo_bytes'] / 1e6:.1f} MB: gradients and "
                f"noise, quality 90) is the only photo; the server starts with an empty variant cache. *First*: the "
                f"first `GET /photos/{{id}}?w=&h=` of that size (libvips decodes, resizes, encodes, writes the cache); "
                f"*cached*: the same request again, 30 times. Peak RSS is the server's VmHWM after the row (it was "
                f"{photos['hwm_before_kib'] / 1024:.0f} MiB before the first variant). The original file itself: "
                f"{_num(photos['original_ms']['p50'])} ms p50.", ""]
        rows = [(r["size"], r["format"], f"{r.get('bytes', 0):,}", _num(r.get("first_ms")),
                 _num(r["cached"]["p50"]) if "cached" in r else "–", _num(r["cached"]["p99"]) if "cached" in r else "–",
                 f"{r['hwm_kib'] / 1024:.0f}" if "hwm_kib" in r else "–") for r in photos["rows"]]
        out += _table(["asked (w×h)", "format", "variant bytes", "first ms", "cached p50 ms", "cached p99 ms",
                       "peak RSS MiB"], rows)
        if photos.get("note"):
            out += ["", f"WebP: {photos['note']}."]
        out += [""]

    # 7
    out += ["## 7. Client: frame times in headless Chromium while dragging", ""]
    client = results.get("client")
    if not client or _skipped(client):
        out += [f"Skipped: {(client or {}).get('skipped', 'not run')}.", ""]
    else:
        out += ["Headless Chromium (`--headless=new --disable-gpu`, software raster, 1280×800), the page opened "
                "with `?debug=1`; its debug hook adds synthetic cards under the server's "
                "(`window.stackweb.addSyntheticCards`) and records every drawn frame (`recordFrames({flush: true})`: "
                "each frame's time includes rasterising it). The drag: pointer events dispatched on the canvas, "
                "one move per animation frame (60 Hz) for "
                f"{client['seconds']:g} s, through the page's own input code, batcher, POSTs and SSE round trip "
                "(W3C actions and DevTools input pace themselves at ~30 Hz here, which would hide dropped frames).",
                ""]
        rows = []
        for label in ("server cards", "100 cards"):
            if label in client:
                s = client[label]
                rows.append((s["cards"], s["frames"], _num(s["drawP50"]), _num(s["drawP99"]), _num(s["drawMax"]),
                             _num(s["intervalP50"]), _num(s["intervalP99"])))
        out += _table(["cards drawn", "frames", "draw p50 ms", "draw p99 ms", "draw max ms", "frame interval p50 ms",
                       "frame interval p99 ms"], rows)
        out += ["", "A frame interval of 33.3 ms is one missed vsync (60 Hz)."]
        out += _link(made, "client", "client frame chart", report_dir)

    out += frames_section(results.get("frames"))
    out += state_section(results.get("state"))
    out += library_section(results.get("library"))
    out += group_section(results.get("group"))
    out += turn_section(results.get("turn"))
    out += uploads_section(results.get("uploads"))
    out += refused_section(results.get("refused"))
    out += shapes_section(results.get("shapes"))

    # profiles
    out += ["## Profiles", ""]
    profile = results.get("profile")
    if not profile or _skipped(profile):
        out += [f"Skipped: {(profile or {}).get('skipped', 'not run')}.", ""]
    else:
        server = profile.get("server", {})
        for key, title in (("move_100_viewers", "server during a drag with 100 viewers"),
                           ("static_main_js", "server under wrk, `GET /main.js`")):
            section = server.get(key)
            if not section:
                continue
            out += [f"`perf record -e cpu-clock -g` on the {title}: share of the server's CPU time (inclusive) "
                    f"of the frames on the request path.", ""]
            out += _table(["inclusive", "self", "frame"],
                          [(f"{t['inclusive']:.1f} %", f"{t['self']:.1f} %", f"`{t['symbol']}`") for t in section["top"]])
            if section.get("dso"):
                out += ["", "Self time by binary: " + ", ".join(f"{d['dso']} {d['share']:.1f} %" for d in section["dso"])
                        + "."]
            out += [""]
        model_profile = profile.get("model", {})
        if model_profile.get("top"):
            out += [f"`valgrind --tool=callgrind` on the model bench, {model_profile['moves']:,} pointer moves on "
                    f"{model_profile['size']:,} cards: instructions per move, inclusive.", ""]
            out += _table(["instructions / move", "share", "function"],
                          [(f"{t['instructions_per_handle']:,.0f}", f"{t['share']:.1f} %", f"`{t['symbol']}`")
                           for t in model_profile["top"]])
            out += [""]

    from bench import ITEMS
    out += ["## Reproduce", "",
            "```sh",
            "make bench                                   # installs what it needs, builds (release), runs every item, writes BENCHMARKS.md",
            "python3 Benchmarks/bench.py --only latency,fanout   # some items (" + ", ".join(ITEMS) + "): "
            "bench-out/partial/BENCHMARKS.md",
            "python3 Benchmarks/bench.py --only state --peer-bin OLD  # state at 20,000 photos, beside an older build",
            "python3 Benchmarks/bench.py --bin /other/stackweb  # another build of the server",
            "python3 Benchmarks/bench.py --report-only          # rewrite BENCHMARKS.md from bench-out/results.json",
            "```", ""]
    with open(report_path, "w") as report:
        report.write("\n".join(out))


# One refresh at 60 Hz, as requestAnimationFrame timestamps measure it (± jitter).
VSYNC_MS = 16.75


def frames_section(frames):
    """Section 8: every animation's frames at 1920×1080 without a GPU, from this run only."""
    out = ["## 8. Frames: every animation at 1920×1080 without a GPU", ""]
    if not frames or _skipped(frames):
        return out + [f"Skipped: {(frames or {}).get('skipped', 'not run')}.", ""]
    budget = frames.get("budget", {"p50": 16.7, "p99": 33.0, "max": 50.0})
    out += ["Headless Chromium (`--headless=new --disable-gpu --force-device-scale-factor=1`: software raster, "
            "what a Raspberry Pi or an old tablet gets without GPU raster), a 1920×1080 viewport at DPR 1, the "
            "release server on the bundled demo photos (12 photos, 10 drawn). Each animation runs in a fresh room and "
            f"tab, {frames.get('repeat', 3)} times; the row is the run with the median p99, and the last column says "
            "how many of the runs met the whole budget. *Frame*: every requestAnimationFrame delta "
            "while the animation runs (a ticker in the page; what a person sees as stutter, whatever caused it). "
            "*Draw*: the page's own time per drawn frame, rasterising included (`recordFrames({flush: true})`). "
            "Gestures are pointer events dispatched on the canvas at 60 Hz through the page's input code; commands "
            "are POSTed as the buttons do; the end of a motion is watched from inside the page (the test driver "
            "does not poll it meanwhile). Budget per frame: "
            f"p50 ≤ {budget['p50']} ms, p99 ≤ {budget['p99']} ms, max ≤ {budget['max']} ms. How the page draws: "
            "docs/architecture.md, \"How the page draws\"; what each of its decisions gained: docs/performance.md.",
            ""]

    def cell(stats, key):
        return "–" if not stats else f"{_num(stats[key]['p50'])} / {_num(stats[key]['p99'])} / {_num(stats[key]['max'])}"

    rows = []
    for name, after in frames["animations"].items():
        raf = after["raf"]
        ok = raf["p50"] <= budget["p50"] and raf["p99"] <= budget["p99"] and raf["max"] <= budget["max"]
        verdict = _verdict(ok)
        if not ok and raf["p50"] <= budget["p50"] and raf["p99"] <= 2 * VSYNC_MS and raf["max"] <= budget["max"]:
            # 33.3 ms is a frame shown twice: p99 over 33.0 by the ticker's rounding, not by a slower frame.
            verdict += " (p99: one frame shown twice)"
        if "runs_within_budget" in after:
            verdict += f"; {after['runs_within_budget']} of {after['runs']} runs within"
        rows.append((name, cell(after, "raf"), cell(after, "draw"), verdict))
    out += _table(["animation", "frame p50/p99/max ms", "draw p50/p99/max ms", "budget"], rows)
    load = [frames.get("loadavg_start"), frames.get("loadavg_end")]
    out += ["", "The frame p50 is 16.7 ms wherever the page keeps up at all (the ticker runs at the display's "
            "rate); p99 and max are what stutter looks like, in steps of one vsync (33.3 ms is one frame shown "
            "twice). The machine is shared: 1-minute load average during this item "
            f"{_num(load[0] or 0)} → {_num(load[1] or 0)} on 2 cores (other engineers building), so a single frame "
            "can lose the CPU for tens of milliseconds; the draw column is the page's own work.", "",
            "```sh",
            "python3 Benchmarks/bench.py --only frames        # this section alone (bench-out/partial/)",
            "git archive REV Resources | tar -x -C /tmp/before   # to compare with the page of another commit:",
            "python3 Benchmarks/bench_frames.py --repeat 5 --before /tmp/before/Resources \\",
            "  --before-json before.json --json after.json   # both pages in one run, alternating",
            "```", ""]
    return out


def state_section(state):
    """`next` with lasting state on a 20,000-photo library in 5 rooms, `/healthz` meanwhile, start-up."""
    out = ["## 9. Lasting state on a 20,000-photo library", ""]
    if not state or _skipped(state):
        return out + [f"Skipped: {(state or {}).get('skipped', 'not run')}.", ""]
    out += [f"`{state['command']}`: {state['photos']:,} photos, {state['rooms']} rooms, {state['commands']} `next` "
            "commands round-robin over the rooms (each answered once its change is on disk) while another client "
            "asks `/healthz` in a loop; start-up is the time to the first answer, with the state already there "
            "for the warm start.", ""]
    rows = []
    for key, label in (("server", "this build"), ("peer", "peer build")):
        side = state.get(key)
        if not side:
            continue
        rows.append((label, _num(side["next_ms"]["p50"]), _num(side["next_ms"]["p99"]),
                     _num(side["healthz_ms"]["p50"]), _num(side["healthz_ms"]["p99"]),
                     _num(side["start_cold_s"]), _num(side["start_warm_s"]), str(side["failures"])))
    out += _table(["binary", "next p50 ms", "next p99 ms", "healthz p50 ms", "healthz p99 ms", "start cold s",
                   "start warm s", "failed"], rows)
    if state.get("next_p50_ratio") is not None:
        out += ["", f"`next` p50 of this build over the peer's: {state['next_p50_ratio']}×."]
    return out + [""]


LIBRARY_BUDGETS = {
    "startup_cold_s": 1.0,
    "startup_warm_s": 2.0,
    "added_photo_ms": 1000,
    "rescan_cpu_s": 0.3,
}


def library_section(library):
    """A 20,000-photo folder as a photo frame meets it: start-up, rescans, a new photo, 24 MP originals."""
    out = ["## 10. A 20,000-photo library and 24 MP originals", ""]
    if not library or _skipped(library):
        return out + [f"Skipped: {(library or {}).get('skipped', 'not run')}.", ""]
    out += [f"`python3 Benchmarks/bench.py --only library` (or `python3 Benchmarks/bench_library.py`): "
            f"{library['photos']:,} generated 640×480 JPEGs with EXIF dates in year/month folders, "
            "`--order date`, then 8 generated 24 MP (6000×4000) JPEGs.", ""]
    rows = []
    for key, label, unit in (("startup_cold_s", "start to first answer, empty cache (median of 3)", "s"),
                             ("indexed_cold_s", "… until every photo is read and indexed (in the background)", "s"),
                             ("startup_warm_s", "start to first answer, warm (photo index)", "s"),
                             ("startup_rss_mib", "RSS after a warm start", "MiB"),
                             ("rescan_cpu_s", "CPU of one rescan of the unchanged library", "CPU-s"),
                             ("added_photo_ms", "a photo copied in → its change event", "ms"),
                             ("sigterm_exit_s", "SIGTERM → exit", "s")):
        if library.get(key) is None:
            continue
        budget = LIBRARY_BUDGETS.get(key)
        verdict = "" if budget is None else _verdict(library[key] <= budget) + f" (≤ {budget} {unit})"
        rows.append((label, f"{_num(library[key])} {unit}", verdict))
    if library.get("startup_cold_runs_s"):
        rows.append(("… each cold start", " / ".join(f"{value} s" for value in library["startup_cold_runs_s"]), ""))
    conversions = library.get("conversions_24mp")
    if conversions:
        rows.append((f"{conversions['count']} concurrent first `?w=1536` of 24 MP originals: peak RSS",
                     f"{conversions['hwm_mib']} MiB (wall {conversions['wall_s']} s)",
                     _verdict(conversions["hwm_mib"] <= 200) + " (≤ 200 MiB)"))
    step = library.get("slideshow_step_24mp")
    if step:
        rows.append(("slideshow step, 24 MP originals: the new front photo at `?w=1024`",
                     f"{step['next_front_ms']} ms ({step['made_ahead']} of 3 made ahead)",
                     f"a photo not made ahead: {step['not_made_ahead_ms']} ms"))
    out += _table(["figure", "value", "budget"], rows)
    return out + [""]


def uploads_section(uploads):
    """Guests' photos: POST to the change at another viewer, ten large ones at once, the rate taken."""
    out = ["## 13. Guests' photos (uploads)", ""]
    if not uploads or _skipped(uploads):
        return out + [f"Skipped: {(uploads or {}).get('skipped', 'not run')}.", ""]
    out += ["`python3 Benchmarks/bench.py --only uploads`: photos made with libvips' `vips` (noise, so as large as a "
            "phone's), each sent with a comment of its own (no two the same bytes).", ""]
    rows = []
    viewer = uploads.get("to_viewer", {})
    if not _skipped(viewer) and viewer:
        rows.append((f"a {viewer['photo_bytes'] / 1e6:.1f} MB 12 MP JPEG: POST → the change at another viewer, p50 "
                     f"({viewer['rounds']} rounds)", f"{_num(viewer['viewer']['p50'])} ms",
                     _verdict(viewer["viewer"]["p50"] <= 1000) + " (≤ 1 s)"))
        rows.append(("… the same photo's first 1280-px conversion alone, p50",
                     f"{_num(viewer['conversion_1280']['p50'])} ms", f"ratio {_num(viewer['ratio_p50'])}"))
    crowd = uploads.get("at_once", {})
    if not _skipped(crowd) and crowd:
        rows.append((f"{crowd['count']} × {crowd['photo_bytes'] / 1e6:.0f} MB at once (one per loopback address): "
                     "RSS growth", f"{_num(crowd['growth_mib'])} MiB (peak {_num(crowd['peak_mib'])} MiB, "
                     f"{_num(crowd['seconds'])} s, statuses {sorted(set(crowd['statuses']))})",
                     _verdict(crowd["growth_mib"] <= 64) + " (≤ 64 MiB)"))
    rate = uploads.get("throughput", {})
    if not _skipped(rate) and rate:
        rows.append((f"a {rate['megabytes']} MB body taken on loopback, p50", f"{_num(rate['mb_per_s']['p50'])} MB/s",
                     _verdict(rate["mb_per_s"]["p50"] >= 100) + " (≥ 100 MB/s)"))
    out += _table(["figure", "value", "budget"], rows)
    return out + [""]


def refused_section(refused):
    """Uploads of files no photo the server shows: CPU per refusal, and ImageMagick's leftovers."""
    out = ["### Refused uploads", ""]
    if not refused or _skipped(refused):
        return out + [f"Skipped: {(refused or {}).get('skipped', 'not run')}.", ""]
    out += ["`python3 Benchmarks/bench.py --only refused` (Benchmarks/bench_refused.py): each kind posted "
            f"{refused['rounds']} times; the server's CPU (user + system) per upload, each answered 415 by its "
            "first bytes.", ""]
    rows = [(f"{kind} ({row['bytes']:,} bytes)", f"{_num(row['cpu_ms'])} ms, statuses {row['statuses']}"
             + (", names a loader" if row["names_a_loader"] else ""),
             _verdict(row["cpu_ms"] <= 50 and row["statuses"] == [415] and not row["names_a_loader"]) + " (≤ 50 ms)")
            for kind, row in refused["kinds"].items()]
    rows.append(("`/tmp/magick-*` files left", str(refused["magick_files_left"]),
                 _verdict(refused["magick_files_left"] == 0) + " (none)"))
    out += _table(["file", "CPU per refused upload", "budget"], rows)
    return out + [""]


GROUP_BUDGETS = {"move_p50": 1.0, "move_p99": 5.0, "fan_out_last_p50": 500.0, "failover_s": 3.5}


def group_section(group):
    """A group of three instances and one redis-server (docs/scale-out.md) beside one instance alone."""
    out = ["## 11. A group of instances through Redis", ""]
    if not group or _skipped(group):
        return out + [f"Skipped: {(group or {}).get('skipped', 'not run')}.", ""]
    latency, fan_out, failover = group["latency"], group.get("fan_out"), group["failover"]
    single, many = latency["single"], latency["group"]
    out += [f"`{group['command']}` (Benchmarks/bench_group.py). Viewers and poster are the C `sseload` client "
            "(one epoll loop), the same client for the single instance beside the group in the same run. "
            f"Move → viewer: a drag of up to {latency['moves']} moves, one every {_num(latency['interval_ms'])} ms at "
            "most and each once the previous one reached every viewer, posted at the room's owner: one instance with "
            f"{latency['viewers_per_instance']} viewers, then {many['instances']} instances and one redis-server with "
            f"{latency['viewers_per_instance']} viewers each; the group's figures are those of the viewers of the two "
            "instances that do not run the room (the owner's own viewers are waited for, not counted).", ""]
    b = GROUP_BUDGETS
    peers = [("one instance, its viewers", single)]
    if "single_all" in latency:
        peers.append((f"one instance with as many viewers as the group ({latency['single_all']['viewers']})",
                      latency["single_all"]))
    if "floor" in latency:
        peers.append(("the floor: a trivial C epoll server, same client", latency["floor"]))
    out += _table(["", "changes", "p50 ms", "p99 ms", "max ms", "lost", "budget"], [
        *[(name, peer["moves"], _num(peer["any_viewer"]["p50"]), _num(peer["any_viewer"]["p99"]),
           _num(peer["any_viewer"]["max"]), peer["lost"], "") for name, peer in peers],
        ("group, viewers of another instance", many["moves"], _num(many["any_viewer"]["p50"]),
         _num(many["any_viewer"]["p99"]), _num(many["any_viewer"]["max"]), many["lost"],
         f"p50 ≤ {_num(b['move_p50'])} ms: {_verdict(many['any_viewer']['p50'] <= b['move_p50'])}; "
         f"p99 ≤ {_num(b['move_p99'])} ms: {_verdict(many['any_viewer']['p99'] <= b['move_p99'])}"),
    ])
    same_load = latency.get("single_all")
    load_ratio = (f"; over one instance with the group's {same_load['viewers']} viewers: p50 "
                  f"{_num(many['any_viewer']['p50'] / same_load['any_viewer']['p50'], '×')}, p99 "
                  f"{_num(many['any_viewer']['p99'] / same_load['any_viewer']['p99'], '×')}" if same_load else "")
    out += ["", f"Group over one instance with {latency['viewers_per_instance']} viewers: p50 "
            f"{_num(latency.get('p50_ratio'), '×')}, p99 {_num(latency.get('p99_ratio'), '×')}{load_ratio}. Through Redis, per pointer post: "
            f"{_num(many['commands_per_move'])} commands and {_num(many['bytes_in_per_move'])} bytes into Redis, "
            f"whatever the viewers (the group's background — leases, presence, blocked reads — is "
            f"{_num(many['background_commands_per_s'])} commands/s, measured idle and taken out).", ""]
    if fan_out:
        alone, spread = fan_out["single"], fan_out["group"]
        out += [f"Fan-out: {fan_out['changes']} moves posted at the owner, one every "
                f"{_num(fan_out['interval_ms'])} ms (an open loop: the viewers are spread over one client process "
                "per instance, each recording when every change reached its viewers, joined by the change's id); "
                "the time from a move's post to the first and the last of all viewers.", ""]
        out += _table(["", "viewers", "last viewer p50 ms", "p90 ms", "max ms", "first viewer p50 ms", "lost",
                       "budget"], [
            ("one instance", f"{alone['viewers']:,}", _num(alone["last_viewer"]["p50"]),
             _num(alone["last_viewer"]["p90"]), _num(alone["last_viewer"]["max"]),
             _num(alone["first_viewer"]["p50"]), alone["lost"], ""),
            (f"{spread['instances']} instances", f"{spread['viewers']:,}", _num(spread["last_viewer"]["p50"]),
             _num(spread["last_viewer"]["p90"]), _num(spread["last_viewer"]["max"]),
             _num(spread["first_viewer"]["p50"]), spread["lost"],
             f"≤ {_num(b['fan_out_last_p50'])} ms: {_verdict(spread['last_viewer']['p50'] <= b['fan_out_last_p50'])}"),
        ])
        out += ["", f"Last viewer p50, three instances over one instance with a third of the viewers: "
                f"{_num(fan_out.get('last_viewer_p50_ratio'), '×')}.", ""]
    runs = ", ".join("–" if r is None else f"{r:.2f}" for r in failover["runs_s"])
    worst = failover["max_s"]
    out += [f"Owner killed (`kill -9`) → the first change seen by a viewer of a surviving instance, input posted "
            f"there every 50 ms: {runs} s (p50 {_num(failover['p50_s'])} s, max {_num(worst)} s; budget "
            f"≤ {b['failover_s']} s: {_verdict(worst is not None and worst <= b['failover_s'])}).", ""]
    return out


def turn_section(turn):
    """Section 12: what one turned photo-sized card costs a software canvas, each way it can be drawn:
    the floor under section 8's misses."""
    out = ["## 12. Turning a card without a GPU: the floor under section 8", ""]
    if not turn or _skipped(turn):
        return out + [f"Skipped: {(turn or {}).get('skipped', 'not run')}.", ""]
    card = turn["card"]
    out += [f"One card the size of the pile's at 1920×1080 ({card['w']}×{card['h']} device pixels, with its shadow "
            f"{card['pixels']:,} pixels) on an opaque 1920×1080 canvas, in the same headless Chromium as section 8 "
            "(`--disable-gpu`, DPR 1). *Draws*: one draw, rasterising included (a one-pixel read before and after "
            "forces it), every way round-robin so that the machine's load falls on all alike; the ratio is against "
            "the straight copy measured in the same rounds (`Benchmarks/turn/turn.js`).", ""]
    draws = sorted(turn["draws"].items(), key=lambda item: item[1]["p50"])
    rows = [(name, _num(stats["p50"]), _num(stats["p90"]), f"{stats['ns_per_px']}", f"{stats['x_straight']}×")
            for name, stats in draws]
    out += _table(["way of drawing the card", "p50 ms", "p90 ms", "ns per pixel (p50)", "against straight"], rows)
    out += ["", "*Frames*: requestAnimationFrame deltas of a loop that repaints the backdrop and the card each frame, "
            "the card swinging ±6° and sliding ±120 px, drawn by the page's canvas, by the compositor (a canvas "
            "layer turned with a CSS transform), or by WebGL"
            + (f" ({turn['renderer']})" if turn.get("renderer") else "")
            + ", against the same loop moving the card straight; alternating, twice each.", ""]
    order = ["canvas, card straight", "canvas, card turned", "CSS-turned layer", "WebGL"]
    loops = sorted(turn["loops"].items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    rows = [(name, _num(stats["p50"]), _num(stats["p99"]), _num(stats["max"]),
             f"{stats['doubled']} of {stats['n']} ({100 * stats['doubled'] / stats['n']:.1f} %)")
            for name, stats in loops]
    out += _table(["loop", "frame p50 ms", "p99 ms", "max ms", "frames shown twice or more"], rows)
    ratios = [stats["x_straight"] for name, stats in turn["draws"].items() if name.startswith("turned")]
    turned_loop = turn["loops"].get("canvas, card turned")
    share = turned_loop["doubled"] / turned_loop["n"] if turned_loop else 0
    out += ["", f"A turned image costs a software canvas {min(ratios):.1f}–{max(ratios):.1f} times a straight copy, "
            "filtered or not, and none of the other ways is cheaper: the shears' strips and the script's pixel loop "
            "cost as much, the compositor turns the layer at the same price on its own thread, and WebGL without a "
            f"GPU runs on SwiftShader. With one turned photo-sized card a frame, {100 * share:.1f} % of the frames "
            "are shown twice on this machine, so a 60-frame animation that turns such a card in every frame gets "
            f"through without one {100 * (1 - share) ** 60:.0f} % of the time, and a 60-frame run's p99 is its "
            "slowest frame: section 8's p99 misses (docs/architecture.md, \"How the page draws\").", "",
            f"1-minute load average at the end: {_num(turn.get('loadavg', 0))} on 2 cores.", "",
            "```sh",
            "python3 Benchmarks/bench.py --only turn          # this section",
            "python3 Benchmarks/bench_turn.py --json turn.json",
            "```", ""]
    return out


def shapes_section(shapes):
    """Section 13: a change laid out and encoded once per shape class present, against one class."""
    out = ["## 14. Screens of every shape: viewers over four shape classes against one", ""]
    if not shapes or _skipped(shapes):
        return out + [f"Skipped: {(shapes or {}).get('skipped', 'not run')}.", ""]
    out += [f"One server, one run: {shapes['viewers']:,} viewers of a room all reporting a 1920×1080 window, and "
            f"{shapes['viewers']:,} of another spread evenly over 1920×1080, 2560×1080, 390×844 and 1080×1920 (four "
            f"shape classes, each change laid out and encoded four times), the same {shapes['changes']}-move drag in "
            "each, alternately (`Benchmarks/bench_shapes.py`).", ""]
    rows = []
    for index, measured in enumerate(shapes["rounds"]):
        one, four, ratio = measured["one"], measured["four"], measured["ratio"]
        rows.append((str(index + 1), _num(one["server_cpu_ms_per_change"]), _num(four["server_cpu_ms_per_change"]),
                     f"{ratio['server_cpu_ms_per_change']:.2f}×", _num(one["last_viewer"]["p50"]),
                     _num(four["last_viewer"]["p50"]), f"{ratio['last_viewer_p50']:.2f}×"))
    out += _table(["round", "CPU ms per change, 1 class", "4 classes", "ratio", "last viewer p50 ms, 1 class",
                   "4 classes", "ratio"], rows)
    return out + [""]
