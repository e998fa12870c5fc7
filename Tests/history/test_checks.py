"""The checks themselves, on small made-up histories: each fires on what it is for, and stays quiet
on what a correct group legitimately does (replays seen twice, presence without ids, a snapshot
repeating the current id, a no-op answered with the current seq, a retry answered by replay)."""

import copy
import json

from checks import run_checks


def event(reader, connection, seq, kind, style="pile", count=12, current=0, time=0.0, cards=None, **extra):
    data = {"seq": seq, "serverTime": 1000.0 + seq, "style": style, "count": count, "current": current,
            "playing": False, "stacked": False, "cards": cards or []}
    if kind == "snapshot":
        data |= {"room": "main", "viewers": 3}
    data |= extra
    return {"reader": reader, "connection": connection, "time": time, "id": seq, "type": kind, "data": data}


def command(key, body, attempts, start):
    return {"client": 1, "key": key, "command": body, "start": start, "end": attempts[-1]["end"],
            "attempts": attempts}


def attempt(status, start, end, seq=None, body=None, instance="web-1"):
    text = json.dumps({"seq": seq}) if seq is not None else (body or '{"error":"x"}')
    return {"instance": instance, "start": start, "end": end, "status": status, "body": text}


def final(seq, style="grid", count=12, current=1):
    state = {"seq": seq, "style": style, "count": count, "current": current, "cards": [["c1", "p1", 0]]}
    return {"owner": "web-1", "gets": {i: {"state": copy.deepcopy(state)} for i in ("web-1", "web-2", "web-3")},
            "readers_last_id": {"web-1": seq, "web-2": seq, "web-3": seq}}


def good_history():
    """Three readers, a style acked as 2, a goto acked as 3, a retry answered by replay, a no-op style
    answered with the current seq, a replay seen twice, presence events, a snapshot repeating an id."""
    events = []
    for reader in ("web-1", "web-2", "web-3"):
        events += [event(reader, 1, 1, "snapshot", time=1.0),
                   {"reader": reader, "connection": 1, "time": 1.0, "id": None, "type": "presence",
                    "data": {"viewers": 3}},
                   event(reader, 1, 2, "change", style="grid", time=2.1),
                   event(reader, 1, 3, "change", style="grid", current=1, time=3.1)]
    # web-2's stream ended after 2 and resumed: the replay of 3, then a snapshot repeating 3.
    events = [e for e in events if not (e["reader"] == "web-2" and e["id"] == 3)]
    events += [event("web-2", 2, 3, "change", style="grid", current=1, time=4.0),
               event("web-2", 2, 3, "snapshot", style="grid", current=1, time=4.1)]
    commands = [
        command("a", {"command": "style", "style": "grid"}, [attempt(200, 2.0, 2.05, seq=2)], 2.0),
        command("b", {"command": "goto", "index": 1},
                [attempt(504, 2.5, 3.0), attempt(200, 3.2, 3.25, seq=3, instance="web-2")], 2.5),
        command("c", {"command": "style", "style": "grid"}, [attempt(200, 3.5, 3.55, seq=3)], 3.5),
        command("d", {"command": "next"}, [attempt(503, 3.6, 3.7)], 3.6),
    ]
    reads = [{"client": 1, "instance": "web-3", "start": 3.6, "end": 3.7, "status": 200,
              "state": {"seq": 3, "style": "grid", "count": 12, "current": 1, "cards": []}}]
    connections = [{"reader": "web-2", "connection": 2, "resume_from": 2, "status": 200,
                    "first": {"id": 3, "type": "change"}}]
    return {"events": events, "commands": commands, "reads": reads, "connections": connections, "faults": [],
            "crashes": [], "final": final(3, current=1), "notes": []}


def violations(data):
    return {name: len(found) for name, (found, _) in run_checks(data).items() if found}


def test_a_correct_history_has_no_violations():
    assert violations(good_history()) == {}


def test_a_snapshot_taking_back_an_acked_change():
    data = good_history()
    data["events"].append(event("web-1", 1, 4, "snapshot", style="pile", current=1, time=5.0))
    data["final"] = final(4, style="pile", current=1)
    data["final"]["readers_last_id"] = {"web-1": 4, "web-2": 4, "web-3": 4}
    found = violations(data)
    assert found.get("1 acknowledged effects kept") == 1, found


def test_an_acked_seq_whose_event_lacks_the_effect():
    data = good_history()
    data["commands"].append(command("e", {"command": "goto", "index": 5}, [attempt(200, 3.8, 3.9, seq=3)], 3.8))
    found = violations(data)
    assert found.get("1 acknowledged effects kept") == 1 and found.get("3 real-time order") == 1, found


def test_an_id_reused_with_another_payload():
    data = good_history()
    data["events"].append(event("web-3", 2, 3, "change", style="deck", current=1, time=6.0))
    assert violations(data).get("2 one payload per id") == 1


def test_a_silent_gap():
    data = good_history()
    data["events"] = [e for e in data["events"] if not (e["reader"] == "web-3" and e["id"] == 2)]
    assert violations(data).get("2b no silent gaps") == 1


def test_acks_out_of_real_time_order_and_stale_reads():
    data = good_history()
    data["commands"].append(command("f", {"command": "next"}, [attempt(200, 4.0, 4.1, seq=2)], 4.0))
    data["commands"].append(command("f2", {"command": "shuffle"}, [attempt(200, 4.0, 4.1, seq=2)], 4.0))
    data["reads"].append({"client": 1, "instance": "web-2", "start": 4.0, "end": 4.1, "status": 200,
                          "state": {"seq": 1, "style": "pile", "count": 12, "current": 0, "cards": []}})
    found = run_checks(data)["3 real-time order"][0]
    assert sorted(v["rule"] for v in found) == ["3a order", "3a order", "3b duplicate seq", "3c stale read"], found


def test_a_503_applied():
    data = good_history()
    data["commands"].append(command("g", {"command": "style", "style": "deck"}, [attempt(503, 4.0, 4.1)], 4.0))
    for reader in ("web-1", "web-3"):
        data["events"].append(event(reader, 1, 4, "change", style="deck", current=1, time=4.2))
    data["events"].append(event("web-2", 2, 4, "change", style="deck", current=1, time=4.2))
    data["final"] = final(4, style="deck", current=1)
    assert violations(data) == {"4 503 not applied": 1}


def test_a_retry_applied_twice():
    data = good_history()
    data["commands"].append(command("h", {"command": "style", "style": "deck"},
                                    [attempt(504, 4.0, 4.5), attempt(200, 5.0, 5.1, seq=6)], 4.0))
    for reader, connection in (("web-1", 1), ("web-2", 2), ("web-3", 1)):
        data["events"] += [event(reader, connection, 4, "change", style="deck", current=1, time=4.2),
                           event(reader, connection, 5, "change", style="pile", current=1, time=5.05),
                           event(reader, connection, 6, "change", style="deck", current=1, time=5.06)]
    data["commands"].append(command("i", {"command": "style", "style": "pile"}, [attempt(200, 4.9, 5.1, seq=5)], 4.9))
    data["final"] = final(6, style="deck", current=1)
    found = violations(data)
    assert found.get("5 retry applied once") == 1, found


def test_diverging_final_reads_and_current_out_of_range():
    data = good_history()
    data["final"]["gets"]["web-2"]["state"]["current"] = -1
    found = violations(data)
    assert found.get("6 final convergence") == 1 and found.get("7 current in range") == 1, found


def test_changes_shown_then_undone_by_a_snapshot_that_says_so():
    """An owner showed two changes (the first answered 503, the second bringing the room back to the
    same summary), then a snapshot keeping the history through 3 only: neither was applied — unless
    an acknowledged change is among them."""
    data = good_history()
    data["commands"].append(command("u", {"command": "style", "style": "deck"}, [attempt(503, 4.0, 4.6)], 4.0))
    data["events"] += [event("web-1", 1, 4, "change", style="deck", current=1, time=4.2),
                       event("web-1", 1, 5, "change", style="grid", current=1, time=4.3),
                       event("web-1", 1, 6, "snapshot", style="grid", current=1, time=4.5, keptThrough=3)]
    data["final"] = final(6, current=1)
    assert violations(data) == {}, violations(data)
    data["commands"].append(command("v", {"command": "style", "style": "grid"}, [attempt(200, 4.25, 4.3, seq=5)], 4.25))
    found = violations(data)
    assert found.get("1 acknowledged effects kept") == 1, found


def test_changes_an_owner_showed_only_its_own_viewers_before_it_died():
    """The owner (web-1) showed a change answered 503 to its own viewer only, and was killed; the
    next owner's snapshot, seen elsewhere, keeps the history through the id before it. No reader saw
    the two side by side: the snapshot's word alone says the change was not applied — and an ack
    among such changes is taken back, a violation."""
    data = good_history()
    data["commands"].append(command("w", {"command": "style", "style": "deck"}, [attempt(503, 4.0, 4.6)], 4.0))
    data["events"].append(event("web-1", 1, 4, "change", style="deck", current=1, time=4.2))
    for reader, connection in (("web-2", 2), ("web-3", 1)):
        data["events"].append(event(reader, connection, 20, "snapshot", style="grid", current=1, time=5.0,
                                    keptThrough=3))
    data["final"] = final(20, current=1)
    assert violations(data) == {}, violations(data)
    data["commands"].append(command("x", {"command": "style", "style": "deck"}, [attempt(200, 4.1, 4.3, seq=4)], 4.1))
    found = run_checks(data)["1 acknowledged effects kept"][0]
    assert [v["rule"] for v in found] == ["1c taken back by a snapshot"], found
