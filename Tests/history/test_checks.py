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


def retry(key, first_seq, status, body=None, start=5.0, phase="at once", acked_at=3.0, instance="web-2"):
    attempt_ = {"instance": instance, "start": start, "end": start + 0.1, "status": status,
                "body": body if body is not None else json.dumps({"seq": first_seq})}
    if status is None:
        attempt_ = {"instance": instance, "start": start, "end": start + 0.1, "status": None, "error": "timeout"}
    return {"key": key, "command": {"command": "style", "style": "grid"}, "first_seq": first_seq,
            "first_instance": "web-1", "acked_at": acked_at, "phase": phase, "fault": None, "attempt": attempt_}


def wipe(start, end):
    return {"fault": "restart-redis-empty", "start": start, "end": end, "target": "redis"}


def test_retries_of_acknowledged_keys():
    """200 with the first seq, 504 and no answer are what a retry of an applied change may get; a 503
    (not applied: false) and 200 with another seq are violations — but not across a Redis wipe."""
    data = good_history()
    data["ack_retries"] = [retry("a", 2, 200), retry("a", 2, 504, body='{"outcome":"unknown"}'),
                           retry("b", 3, None, phase="during a fault")]
    assert violations(data) == {}, violations(data)
    data["ack_retries"] += [retry("a", 2, 503, body='{"outcome":"not-applied"}', phase="after a fault"),
                            retry("b", 3, 200, body='{"seq":9}')]
    found = run_checks(data)["8 acknowledged key retried"][0]
    assert sorted(v["rule"] for v in found) == ["8 503 for an applied change", "8 another seq"], found
    data["faults"] = [wipe(4.0, 4.5)]
    assert "8 acknowledged key retried" not in violations(data)


def mismatch(key, first_seq, status, body=None, start=5.0):
    probe = retry(key, first_seq, status, body=body, start=start)
    probe["body_sent"] = {"command": "style", "style": "deck"}
    return probe


def test_a_key_reused_with_another_body():
    """422 is the answer; no answer, 503 and 504 say nothing; the first request's result or a new seq
    is a violation."""
    data = good_history()
    data["key_mismatches"] = [mismatch("a", 2, 422, body='{"error":"x"}'), mismatch("b", 3, 504, body="{}"),
                              mismatch("b", 3, None)]
    assert violations(data) == {}, violations(data)
    data["key_mismatches"] += [mismatch("a", 2, 200), mismatch("b", 3, 200, body='{"seq":7}')]
    found = run_checks(data)["9 key reused with another body"][0]
    assert sorted(v["rule"] for v in found) == ["9 answered with the other request's result",
                                                "9 applied as a new command"], found


def cold_round(reads, acked=True, phase="first", start=5.0):
    return {"round": 1, "room": "cold-0", "writer": "web-1", "reader": "web-3", "reader_cold": True,
            "phase": phase, "start": start, "acked": acked, "expect": {"style": "grid", "current": 5, "seq": 2},
            "commands": [], "reads": reads}


def cold_read(kind, status, seq=None, style="grid", current=5, start=5.5):
    read = {"kind": kind, "instance": "web-3", "status": status, "start": start, "end": start + 0.05}
    if seq is not None:
        read["state"] = {"seq": seq, "style": style, "count": 12, "current": current, "cards": []}
    return read


def test_cold_reads():
    """A cold read may take a moment (polled) or fail outright (unavailable); a private stack — seq
    0, pile, current 0 — is a violation, from a GET or a stream's first snapshot."""
    data = good_history()
    data["cold_reads"] = [
        cold_round([cold_read("get", 200, 1, "pile", 0), cold_read("get", 200, 2),
                    cold_read("stream", 200, 3)]),
        cold_round([cold_read("get", 503), cold_read("get", None), cold_read("stream", 504)]),
        cold_round([cold_read("get", 200, 0, "pile", 0)], acked=False),
    ]
    assert violations(data) == {}, violations(data)
    data["cold_reads"] += [cold_round([cold_read("get", 200, 0, "pile", 0), cold_read("stream", 200, 2)]),
                           cold_round([cold_read("get", 200, 2), cold_read("stream", 200, 0, "pile", 0)],
                                      phase="later"),
                           cold_round([cold_read("get", 404)])]
    found = run_checks(data)["10 cold reads"][0]
    assert sorted(v["rule"] for v in found) == ["10 GET first", "10 GET first", "10 stream later"], found


def card(card_id, photo, opacity=None):
    entry = {"id": card_id, "photo": photo, "position": 0, "opacity": 1}
    if opacity is not None:
        entry["anim"] = {"start": 0, "duration": 300, "from": {"opacity": 1}, "to": {"opacity": opacity}}
    return entry


def drawn_history():
    """One reader: a snapshot of c1 and c2; c2 fading out, then removed while c3 comes; a resume that
    replays change 3 (ignored: not newer) and restates the room."""
    events = [event("web-1", 1, 1, "snapshot", count=2, time=1.0, cards=[card("c1", "p1"), card("c2", "p2")]),
              event("web-1", 1, 2, "change", count=1, time=2.0, cards=[card("c2", "p2", opacity=0)]),
              event("web-1", 1, 3, "change", count=2, time=3.0, cards=[card("c3", "p3")], removed=["c2"]),
              event("web-1", 2, 3, "change", count=2, time=4.0, cards=[card("c3", "p3")], removed=["c2"]),
              event("web-1", 2, 3, "snapshot", count=2, time=4.1, cards=[card("c1", "p1"), card("c3", "p3")])]
    raw = {"seq": 3, "style": "pile", "count": 2, "current": 0, "cards": [card("c1", "p1"), card("c3", "p3")]}
    state = {"seq": 3, "style": "pile", "count": 2, "current": 0, "cards": [["c1", "p1", 0], ["c3", "p3", 0]]}
    return {"events": events, "commands": [], "reads": [], "faults": [], "crashes": [], "notes": [],
            "readers": {"web-1": "web-1"},
            "connections": [{"reader": "web-1", "connection": 2, "resume_from": 3, "status": 200,
                             "first": {"id": 3, "type": "change"}}],
            "final": {"owner": "web-1", "gets": {"web-1": {"state": state, "raw": raw}},
                      "readers_last_id": {"web-1": 3}}}


def test_the_drawn_room():
    """The page's fold of a reader's events equals the room; a restarted server numbering again from 0
    that replays its new changes after an old Last-Event-ID leaves a ghost card and a missing one."""
    data = drawn_history()
    assert violations(data) == {}, violations(data)
    data["events"] = data["events"][:3]  # resumed after 3, the server (restarted) renumbered from 0:
    data["events"] += [event("web-1", 2, 4, "change", count=3, time=4.0, cards=[card("c9", "p9")]),
                       event("web-1", 2, 5, "change", count=2, time=4.1, cards=[card("c4", "p4")],
                             removed=["c9"])]
    data["final"]["gets"]["web-1"]["raw"]["cards"] = [card("c1", "p1"), card("c4", "p4"), card("c5", "p5")]
    data["final"]["gets"]["web-1"]["raw"]["seq"] = 5
    found = run_checks(data)["11 drawn room"][0]
    assert len(found) == 1 and "ghosts ['c3']" in found[0]["message"] and "missing ['c5']" in found[0]["message"]


def test_photos_served():
    data = good_history()
    data["photo_probes"] = [{"reason": "final", "instance": "web-1", "photo": "p1", "status": 200},
                            {"reason": "final", "instance": "web-2", "photo": "p1", "status": None}]
    assert violations(data) == {}, violations(data)
    data["photo_probes"] += [{"reason": "after a Redis wipe", "instance": "web-3", "photo": p, "status": 404}
                             for p in ("p1", "p2")]
    found = run_checks(data)["12 photos served"][0]
    assert len(found) == 1 and "web-3" in found[0]["message"], found


def test_a_redis_wipe_may_lose_acks_but_never_reuses_ids():
    """Acknowledged changes before a wipe may be taken back by a snapshot after it; an id handed out
    again with another payload, and an ack's seq going back, are still violations."""
    data = good_history()
    data["events"].append(event("web-1", 1, 4, "snapshot", style="pile", current=1, time=5.0))
    data["final"] = final(4, style="pile", current=1)
    data["faults"] = [wipe(4.0, 4.5)]
    assert violations(data) == {}, violations(data)
    data["events"].append(event("web-3", 2, 2, "change", style="deck", current=1, time=6.0))
    data["commands"].append(command("z", {"command": "style", "style": "deck"}, [attempt(200, 5.9, 6.0, seq=2)], 5.9))
    found = violations(data)
    assert found.get("2 one payload per id") and found.get("3 real-time order"), found


def test_a_resume_that_goes_back():
    """After Last-Event-ID L, a change below L is a violation; a snapshot below L restates the room."""
    data = good_history()
    data["connections"][0]["first"] = {"id": 1, "type": "snapshot"}
    assert "2 one payload per id" not in violations(data)
    data["connections"][0]["first"] = {"id": 1, "type": "change"}
    assert violations(data).get("2 one payload per id") == 1
