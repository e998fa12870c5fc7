"""Screens of every shape: what it costs to lay a change out and encode it once per shape class
present. One server, one run: a room whose viewers all report one window size (one class), and a
room whose viewers are spread over four (a 16:9 TV, a 21:9 screen, a portrait phone, a portrait
tablet), the same drag in each, alternately; the figure is the ratio of the two.
"""

import os

from bench_viewers import _drag_phases
from common import StackWebServer, log

ONE_SHAPE = ("1920x1080",)
FOUR_SHAPES = ("1920x1080", "2560x1080", "390x844", "1080x1920")


def run(binary, exe, out_dir, viewers=1000, changes=200, rounds=3):
    """`rounds` alternations of the two rooms, each `changes` drag moves to `viewers` viewers."""
    results = {"viewers": viewers, "changes": changes, "rounds": []}
    with StackWebServer(binary, stderr_path=os.path.join(out_dir, "server-shapes.log")) as server:
        for round_number in range(rounds):
            measured = {}
            for tag, shapes in (("one", ONE_SHAPE), ("four", FOUR_SHAPES)):
                room = f"bench-shapes-{tag}-{round_number}"
                phase = _drag_phases(exe, server.port, server.pid, room, (viewers,), changes, 40.0, 20.0, 200,
                                     f"shapes ({tag})", shapes=shapes)[0]
                measured[tag] = phase
            ratio = {key: measured["four"][key] / max(1e-9, measured["one"][key])
                     for key in ("server_cpu_ms_per_change",)}
            ratio["last_viewer_p50"] = (measured["four"]["last_viewer"]["p50"]
                                        / max(1e-9, measured["one"]["last_viewer"]["p50"]))
            log(f"shapes: {viewers} viewers, 4 shapes against 1: server CPU per change "
                f"{measured['four']['server_cpu_ms_per_change']:.3f} / {measured['one']['server_cpu_ms_per_change']:.3f} ms "
                f"= {ratio['server_cpu_ms_per_change']:.2f}×, last viewer p50 "
                f"{measured['four']['last_viewer']['p50']:.3f} / {measured['one']['last_viewer']['p50']:.3f} ms "
                f"= {ratio['last_viewer_p50']:.2f}×")
            results["rounds"].append({"one": measured["one"], "four": measured["four"], "ratio": ratio})
    return results
