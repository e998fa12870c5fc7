"""The checks of a recorded history (see README.md for the rules). Each check takes the history dict
written by runner.Run and returns a list of violations: dicts with a `message` and the offending
records. Nothing here talks to a server: a saved history.json can be checked again with
`python3 Tests/history/run_history.py --check FILE`.
"""

import json
from collections import defaultdict

# Fields of an event's data that legitimately differ between two deliveries of the same event:
# `serverTime` (a snapshot is encoded for each viewer that joins, at that moment), `viewers` (the
# presence count as last known at encoding), and every card's transform (`x`, `y`, … and `anim`,
# which a snapshot gives as of its `serverTime`). A change is encoded once by the owner and its bytes
# forwarded as they are, so two changes with one id are compared whole, but for `viewers`.
PER_DELIVERY = {"serverTime", "viewers"}
STATE_FIELDS = ("style", "count", "current", "stacked", "playing")
LATE_APPLY_SECONDS = 20.0  # how long after its answer a command may still show up (input stream)


# --- Preparing the history ----------------------------------------------------------------------------


def numbered(event):
    return event["type"] in ("snapshot", "change") and isinstance(event.get("id"), int) \
        and isinstance(event.get("data"), dict)


def state(data):
    return (data.get("style"), data.get("count"), data.get("current"))


def fading(card):
    return ((card.get("anim") or {}).get("to") or {}).get("opacity", 1) == 0


def card_places(data):
    """id → (photo, position) of the cards an event lists, without those fading out (a removed card
    keeps its old position while it fades)."""
    return {c.get("id"): (c.get("photo"), c.get("position")) for c in data.get("cards") or []
            if isinstance(c, dict) and not fading(c)}


def short(event):
    data = event.get("data") or {}
    return {"reader": event.get("reader"), "connection": event.get("connection"), "id": event.get("id"),
            "type": event.get("type"), "time": round(event.get("time", 0), 3), "style": data.get("style"),
            "count": data.get("count"), "current": data.get("current")}


def short_command(command):
    attempts = [{"instance": a.get("instance"), "status": a.get("status"), "body": (a.get("body") or a.get("error"))
                 and (a.get("body") or a.get("error"))[:120], "t": [round(a["start"], 3), round(a["end"], 3)]}
                for a in command["attempts"]]
    return {"client": command["client"], "key": command["key"], "command": command["command"], "attempts": attempts}


def ack_seq(command):
    """(seq, attempt) of the first 200 answer of a logical command, or (None, None)."""
    for attempt in command["attempts"]:
        if attempt.get("status") == 200:
            try:
                return int(json.loads(attempt["body"])["seq"]), attempt
            except (ValueError, KeyError, TypeError):
                return None, attempt
    return None, None


def ack_end(command):
    """When the first 200 answer of a command arrived; when its last attempt ended, for a command
    of unknown outcome (whenever it was applied, it was by then)."""
    _, attempt = ack_seq(command)
    return (attempt or command["attempts"][-1]).get("end", 0)


def sent(attempt):
    """An attempt whose connection was refused never reached a server."""
    return not (attempt.get("status") is None and str(attempt.get("error", "")).startswith("ConnectionRefused"))


def outcome(command):
    """acked | unknown (a 504, a timeout or a broken connection after connecting, and no 200) |
    not-applied (503 only, perhaps with a refusal) | refused (4xx only) | not-sent. Attempts whose
    connection was refused are left out: they reached no server."""
    statuses = [a.get("status") for a in command["attempts"] if sent(a)]
    if not statuses:
        return "not-sent"
    if 200 in statuses:
        return "acked"
    if any(s is None or s == 504 or (s is not None and s >= 500 and s != 503) for s in statuses):
        return "unknown"
    if 503 in statuses:
        return "not-applied"
    return "refused"


class History:
    """Indexes over the recorded history, shared by the checks."""

    def __init__(self, data):
        self.data = data
        self.events = [e for e in data["events"] if numbered(e)]
        self.by_id = defaultdict(list)
        for event in self.events:
            self.by_id[event["id"]].append(event)
        self.observed_ids = sorted(self.by_id)
        # Each reader connection's numbered events in the order received.
        self.connections = defaultdict(list)
        for event in self.events:
            self.connections[(event["reader"], event["connection"])].append(event)
        self.commands = data["commands"]
        self.acks = []
        for command in self.commands:
            seq, attempt = ack_seq(command)
            if attempt is not None:
                self.acks.append({"command": command, "seq": seq, "end": attempt["end"], "start": command["start"]})
        self.acks_by_seq = defaultdict(list)
        for ack in self.acks:
            self.acks_by_seq[ack["seq"]].append(ack)
        self._gap_free_pairs = None
        # Redis restarted empty: (start, end) of each wipe. Without persistence, what was acknowledged
        # before it may be lost; ids handed out must still never come again.
        self.wipes = [(f["start"], f["end"]) for f in data.get("faults", [])
                      if f.get("fault") == "restart-redis-empty" and not f.get("skipped")]

    def across_wipe(self, acked_at, seen_at=float("inf")):
        """Did Redis come back empty after `acked_at` (an acknowledgement) and before `seen_at`?"""
        return any(acked_at <= end and start <= seen_at for start, end in self.wipes)

    def observed_between(self, low, high):
        """Is any id strictly between low and high observed by any reader?"""
        import bisect
        index = bisect.bisect_right(self.observed_ids, low)
        return index < len(self.observed_ids) and self.observed_ids[index] < high

    def adjacent_pairs(self):
        """(P, E): consecutive numbered events on one connection, E.id ≥ P.id, with no id between them
        seen by any reader — so E is what followed P in the room, as far as anyone could see."""
        if self._gap_free_pairs is None:
            pairs = []
            for events in self.connections.values():
                for previous, event in zip(events, events[1:]):
                    if event["id"] >= previous["id"] and not self.observed_between(previous["id"], event["id"]):
                        pairs.append((previous, event))
            self._gap_free_pairs = pairs
        return self._gap_free_pairs

    def spanned(self, seq):
        """Did a reader connection see ids below and above `seq` one after the other?"""
        for events in self.connections.values():
            for previous, event in zip(events, events[1:]):
                if previous["id"] < seq < event["id"]:
                    return True
        return False


def same_delivery(a, b):
    """Do two numbered events with one id carry the same payload? (see PER_DELIVERY)"""
    da, db = a["data"], b["data"]
    if a["type"] == "change" and b["type"] == "change":
        strip = lambda d: {k: v for k, v in d.items() if k not in PER_DELIVERY}  # noqa: E731
        return strip(da) == strip(db)
    if any(da.get(f) != db.get(f) for f in STATE_FIELDS):
        return False
    places_a, places_b = card_places(da), card_places(db)
    return all(places_a[c] == places_b[c] for c in places_a.keys() & places_b.keys())


# --- The checks ---------------------------------------------------------------------------------------


def check_acknowledged_effects(history):
    """(1) Every acknowledged lasting command's effect is in the final history.

    For each command answered 200 {"seq": N}:
      a. N is observed: some reader received an event with id N. If none did although a reader
         connection received an id below N and then one above N one after the other (a continuous
         stream, which delivers every event of the room), N was never published: violation. If no
         reader spanned N it is counted as unverified, not as a violation.
      b. The event N carries the command's effect, where the effect is identifiable: `style s` →
         its `style` is s; `goto k` → its `current` is k; `insert p at 0` → it lists a card of
         photo p (the front card is drawn in every style, so the change lists it).
      c. Nothing later takes it back: for every snapshot S that followed an event P on one reader
         connection with no id between them observed anywhere (gap-free adjacency), S's style,
         count and current equal P's. A snapshot (a takeover, a return of Redis, a resume) restates
         the room; it must not change it. The acks reported with it are those with seq between
         the last observed event whose state S equals (where the new owner restored from) and P.
         An owner shows its own viewers a change at once, before the group has kept it; a change the
         group did not keep is taken back by the next snapshot (a rebase after a refusal, or the
         next owner's takeover) — it was never applied. So a snapshot that takes back changes is a
         violation only when acknowledged changes are among them (see `taken_back`).
      d. The owner's final GET has seq ≥ every acknowledged seq.
    Across a Redis wipe (`restart-redis-empty`: no persistence) acknowledged changes may be lost: an
    ack that arrived before a wipe ended is not held to a, nor to c for a snapshot after the wipe
    began (counted as `lost_across_a_wipe`). d still holds: ids are never handed out again.
    """
    violations, unverified, excused = [], 0, 0
    for ack in history.acks:
        command, seq = ack["command"], ack["seq"]
        body = command["command"]
        if seq is None:
            violations.append({"rule": "1a no seq", "message": "a 200 answer without an integer seq", "command": short_command(command)})
            continue
        variants = history.by_id.get(seq)
        if not variants:
            if history.spanned(seq) and history.across_wipe(ack["end"]):
                excused += 1
            elif history.spanned(seq):
                violations.append({"rule": "1a not delivered", "message": f"acked seq {seq} was never delivered, though a reader's stream "
                                              f"passed over it", "command": short_command(command)})
            else:
                unverified += 1
            continue
        kind = body["command"]
        reason = None
        if kind == "style" and not any(e["data"].get("style") == body["style"] for e in variants):
            reason = f"style {body['style']!r} acked as seq {seq}, but event {seq} has style " \
                     f"{sorted({str(e['data'].get('style')) for e in variants})}"
        elif kind == "goto" and not any(e["data"].get("current") == body["index"] for e in variants):
            reason = f"goto {body['index']} acked as seq {seq}, but event {seq} has current " \
                     f"{sorted({str(e['data'].get('current')) for e in variants})}"
        elif kind == "insert" and body.get("at") == 0 and not any(
                any(c.get("photo") == body["photo"] for c in e["data"]["cards"]) for e in variants):
            reason = f"insert of {body['photo']} acked as seq {seq}, but event {seq} lists no card of it"
        if reason:
            violations.append({"rule": "1b effect missing", "message": reason, "command": short_command(command),
                               "events": [short(e) for e in variants[:3]]})
    reported = set()
    for previous, event in history.adjacent_pairs():
        if event["type"] != "snapshot" or not undoes(previous, event):
            continue
        signature = (previous["id"], event["id"], state(previous["data"]), state(event["data"]))
        if signature in reported:
            continue
        reported.add(signature)
        since = restored_from(history, previous, event)
        lost = sorted((a for a in history.acks if a["seq"] is not None and (since is None or a["seq"] > since)
                       and a["seq"] <= previous["id"]), key=lambda a: -a["seq"])
        kept = [a for a in lost if not history.across_wipe(a["end"], event["time"])]
        excused += len(lost) - len(kept)
        lost = kept
        lost = [short_command(a["command"]) | {"seq": a["seq"]} for a in lost]
        undelivered = [a["seq"] for a in history.acks if a["seq"] is not None and previous["id"] < a["seq"] < event["id"]
                       and not history.across_wipe(a["end"], event["time"])]
        if undelivered:
            violations.append({
                "rule": "1c snapshot after undelivered acks",
                "message": f"snapshot {event['id']} says {state(event['data'])}, the room was "
                           f"{state(previous['data'])} at event {previous['id']} just before it, and the acked "
                           f"seqs {sorted(undelivered)[:8]} between them reached no reader",
                "before": short(previous), "snapshot": short(event)})
            continue
        if not lost:
            continue
        violations.append({
            "rule": "1c taken back by a snapshot",
            "message": f"snapshot {event['id']} says (style, count, current) = {state(event['data'])}, but the "
                       f"room was {state(previous['data'])} at event {previous['id']} just before it: acknowledged "
                       f"changes were taken back ({'its state is that of event ' + str(since) if since else 'a state no event had'}"
                       f"; {len(lost)} acks since, latest first)",
            "before": short(previous), "snapshot": short(event), "acks_taken_back": lost[:6]})
    # The same, from the snapshot's own word, for changes no reader saw next to it.
    taken = {(a["key"], a["seq"]) for v in violations for a in v.get("acks_taken_back", [])}
    for snapshot, kept in fresh_starts(history):
        lost = [a for a in history.acks if a["seq"] is not None and kept < a["seq"] < snapshot["id"]
                and (a["command"]["key"], a["seq"]) not in taken and not history.across_wipe(a["end"], snapshot["time"])]
        if lost:
            taken.update((a["command"]["key"], a["seq"]) for a in lost)
            violations.append({
                "rule": "1c taken back by a snapshot",
                "message": f"snapshot {snapshot['id']} keeps the history through {kept}, but acknowledged "
                           f"changes were numbered in between ({len(lost)} acks, latest first)",
                "snapshot": short(snapshot),
                "acks_taken_back": [short_command(a["command"]) | {"seq": a["seq"]}
                                    for a in sorted(lost, key=lambda a: -a["seq"])][:6]})
    final = history.data.get("final", {})
    owner = final.get("owner")
    owner_get = (final.get("gets", {}).get(owner) or {}).get("state") if owner else None
    if owner_get and isinstance(owner_get.get("seq"), int):
        beyond = [a for a in history.acks if a["seq"] is not None and a["seq"] > owner_get["seq"]]
        if beyond:
            violations.append({"rule": "1d beyond the final state", "message": f"{len(beyond)} acks carry a seq above the owner's final seq "
                                          f"{owner_get['seq']}",
                               "acks": [short_command(a["command"]) | {"seq": a["seq"]} for a in beyond[:8]]})
    info = {"unverified_acks": unverified}
    if history.wipes:
        info["lost_across_a_wipe"] = excused
    return violations, info


def check_ids_unique(history):
    """(2) No id carries two different payloads, and ids only grow on a stream.

    Two numbered events (snapshot/change) with the same id must carry the same payload: two changes
    are compared whole except `viewers`; when a snapshot is involved, the room fields (style, count,
    current, stacked, playing) and the photo and position of every card both list (fading cards
    aside) are compared — `serverTime`, `viewers` and card transforms are per delivery.
    On one connection, ids strictly increase, except a snapshot that repeats the id just received
    (a restatement, compared as above); after a resume with Last-Event-ID L the first numbered
    event has an id ≥ L, or is a snapshot (ids never go back: not across a takeover, a restart of a
    single instance with `--state`, nor a Redis that came back empty; a snapshot restates the room, and
    if it reuses an id, the payload comparison above finds it).
    """
    violations = []
    for event_id, events in sorted(history.by_id.items()):
        distinct = []
        for event in events:
            if not any(same_delivery(event, other) for other in distinct):
                distinct.append(event)
        if len(distinct) > 1:
            violations.append({"rule": "2 two payloads", "message": f"id {event_id} carries {len(distinct)} different payloads",
                               "payloads": [short(e) for e in distinct[:4]]})
    for (reader, number), events in history.connections.items():
        for previous, event in zip(events, events[1:]):
            if event["id"] < previous["id"] or (event["id"] == previous["id"] and event["type"] != "snapshot"):
                violations.append({"rule": "2 ids not increasing", "message": f"ids went from {previous['id']} to {event['id']} on {reader}'s "
                                              f"connection {number}", "events": [short(previous), short(event)]})
    for connection in history.data["connections"]:
        first, resume = connection.get("first"), connection.get("resume_from")
        if resume is None or not first or not isinstance(first.get("id"), int):
            continue
        if first["id"] < resume and first.get("type") != "snapshot":
            violations.append({"rule": "2 ids went back at a resume", "message": f"{connection['reader']} resumed after {resume} and got "
                                          f"{first['type']} {first['id']}: ids went back without a snapshot",
                               "connection": connection})
    return violations, {}


def check_no_silent_gaps(history):
    """(2b) No silent gap: on one connection (and across a resume), a change follows the previous
    numbered event with no id between them that another reader observed. A viewer that missed
    events must get a snapshot instead."""
    violations = []
    last_by_reader = {}
    for (reader, number), events in sorted(history.connections.items()):
        previous = last_by_reader.get(reader)
        for event in events:
            if previous is not None and event["type"] == "change" and \
                    history.observed_between(previous["id"], event["id"]):
                kind = "across a resume" if previous["connection"] != number else "on one connection"
                violations.append({"message": f"{reader} got change {event['id']} right after {previous['id']} "
                                              f"({kind}), but other readers saw ids between",
                                   "events": [short(previous), short(event)]})
            previous = event
        last_by_reader[reader] = previous
    # Not a violation, a liveness figure: resumes answered 200 whose stream ended before any event
    # (the viewer got neither the missed events nor a snapshot, and had to try again).
    empty = sum(1 for c in history.data["connections"] if c.get("resume_from") is not None
                and c.get("status") == 200 and not c.get("first"))
    return violations, {"empty_resumes": empty}


def is_noop_ack(history, ack):
    """A style or goto acked with the seq of a state that already had its target, or a previous acked
    with the seq of a swipe-style state at its first card: it may have been a no-op answered with
    the room's current seq."""
    body = ack["command"]["command"]
    variants = history.by_id.get(ack["seq"], [])
    if body["command"] == "style":
        return any(e["data"].get("style") == body["style"] for e in variants)
    if body["command"] == "goto":
        return any(e["data"].get("current") == body["index"] for e in variants)
    if body["command"] == "previous":  # the swipe style stops at its first card (a nudge)
        return any(e["data"].get("style") == "swipe" and e["data"].get("current") == 0 for e in variants)
    return False


def check_real_time_order(history):
    """(3) Acks and reads in real-time order.

    a. If command A's 200 arrived before command B was first sent (both 200, different keys),
       seq(A) < seq(B) — or seq(A) == seq(B) when B is a style/goto whose target the state at that
       seq already had (a no-op answered with the current seq; see README).
    b. No two 200 answers of different keys carry the same seq, unless all but one of them are such
       possible no-ops.
    c. A 200 GET at any instance that began after an ack's arrival has seq ≥ that ack's seq (it
       reflects every acknowledged command that completed before the read began).
    """
    violations = []
    acks = sorted((a for a in history.acks if a["seq"] is not None), key=lambda a: a["end"])
    ends = [a["end"] for a in acks]
    prefix = []  # prefix[i]: the ack with the largest seq among acks[0..i]
    best = None
    for ack in acks:
        if best is None or ack["seq"] > best["seq"]:
            best = ack
        prefix.append(best)
    import bisect

    def latest_before(moment):
        index = bisect.bisect_left(ends, moment) - 1
        return prefix[index] if index >= 0 else None

    for ack in acks:
        before = latest_before(ack["start"])
        if before is None or before["command"]["key"] == ack["command"]["key"]:
            continue
        if before["seq"] > ack["seq"] or (before["seq"] == ack["seq"] and not is_noop_ack(history, ack)):
            violations.append({"rule": "3a order", "message": f"ack seq {ack['seq']} for a command sent after another's ack of seq "
                                          f"{before['seq']} had arrived",
                               "earlier": short_command(before["command"]) | {"seq": before["seq"]},
                               "later": short_command(ack["command"]) | {"seq": ack["seq"]}})
    for seq, group in sorted(history.acks_by_seq.items(), key=lambda item: (item[0] is None, item[0] or 0)):
        keys = {a["command"]["key"] for a in group}
        if seq is None or len(keys) < 2:
            continue
        real = [a for a in group if not is_noop_ack(history, a)]
        if len(real) > 1:
            violations.append({"rule": "3b duplicate seq", "message": f"{len(keys)} different commands were all acked as seq {seq}",
                               "commands": [short_command(a["command"]) for a in group[:6]]})
    for read in history.data["reads"]:
        if read.get("status") != 200:
            continue
        before = latest_before(read["start"])
        seq = read["state"].get("seq")
        if before is not None and isinstance(seq, int) and seq < before["seq"]:
            violations.append({"rule": "3c stale read", "message": f"stale read at {read['instance']}: seq {seq} though seq "
                                          f"{before['seq']} had been acked before the read began",
                               "read": {k: read[k] for k in ("instance", "start", "end")} |
                                       {"state": {k: read['state'][k] for k in ('seq', 'style', 'count', 'current')}},
                               "ack": short_command(before["command"]) | {"seq": before["seq"]}})
    return violations, {}


def _matches(body, previous, event):
    """Could command `body` have turned state `previous` into `event`? (by its identifiable effect)"""
    p, e = previous["data"], event["data"]
    kind = body["command"]
    if kind == "style":
        return e.get("style") == body["style"] != p.get("style")
    if kind == "goto":
        return e.get("current") == body["index"] != p.get("current") and e.get("count") == p.get("count")
    if kind == "insert":
        return e.get("count") == (p.get("count") or 0) + 1 and (body.get("at") != 0 or any(
            c.get("photo") == body["photo"] for c in e.get("cards") or [] if isinstance(c, dict)))
    if kind == "remove":
        ids = {c.get("id") for c in e.get("cards") or [] if isinstance(c, dict) and fading(c)}
        return e.get("count") == (p.get("count") or 0) - 1 and (body["id"] in ids or body["id"] in e.get("removed", []))
    if kind in ("next", "previous", "shuffle"):
        return e.get("count") == p.get("count") and e.get("style") == p.get("style") \
            and e.get("current") != p.get("current")
    return False


def undoes(previous, snapshot):
    """Does a snapshot that followed `previous` take anything back: it says it keeps the history
    only through an id before `previous`, or (saying nothing) it shows another state?"""
    kept = snapshot["data"].get("keptThrough") if isinstance(snapshot["data"], dict) else None
    if isinstance(kept, int):
        return kept < previous["id"]
    return state(previous["data"]) != state(snapshot["data"])


def restored_from(history, previous, snapshot):
    """The id of the last event whose state a snapshot that changes the room restores. A snapshot
    that starts the room's history afresh says so itself (`keptThrough`: the history is kept through
    that id, and what was numbered after it was not kept); otherwise the last observed event up to
    `previous` with the snapshot's state (None if none had it)."""
    kept = snapshot["data"].get("keptThrough") if isinstance(snapshot["data"], dict) else None
    if isinstance(kept, int):
        return kept
    restored = [i for i in history.observed_ids if i <= previous["id"] if i < snapshot["id"] and any(
        state(e["data"]) == state(snapshot["data"]) for e in history.by_id[i])]
    return restored[-1] if restored else None


def taken_back(history):
    """Ids of changes a snapshot took back: for every snapshot S that followed an event P (gap-free
    adjacency) with another state, the changes after the last observed event whose state S equals,
    up to P. They were shown by an owner and not kept by the group (never applied), or, with
    acknowledged changes among them, a violation of (1c)."""
    if getattr(history, "_taken_back", None) is not None:
        return history._taken_back
    ids = set()
    for previous, event in history.adjacent_pairs():
        if event["type"] != "snapshot" or not undoes(previous, event):
            continue
        since = restored_from(history, previous, event)
        ids.update(i for i in history.observed_ids if (since is None or i > since) and i <= previous["id"])
    for snapshot, kept in fresh_starts(history):
        ids.update(i for i in history.observed_ids if kept < i < snapshot["id"])
    history._taken_back = ids
    return ids


def fresh_starts(history):
    """Each snapshot that starts the room's history afresh with its `keptThrough`, once per id. Every
    id numbered between the two was not kept, whichever readers saw it: an owner killed with changes
    shown only to its own viewers has no reader that sees both them and the next owner's snapshot."""
    seen = {}
    for event in history.events:
        if event["type"] != "snapshot" or event["id"] is None or not isinstance(event["data"], dict):
            continue
        kept = event["data"].get("keptThrough")
        if isinstance(kept, int) and event["id"] not in seen:
            seen[event["id"]] = (event, kept)
    return [seen[i] for i in sorted(seen)]


def attribute_changes(history):
    """Each change that moved the room's state (style, count or current) away from the event before it
    (gap-free adjacency) is attributed to a cause: the command acked with its seq; else a command
    whose outcome is unknown (504, timeout), sent before the change was seen and matching it (each
    used once); else it is a violation: of (4) when the only matching commands were answered 503
    (or refused), of (5) when they were acked with another seq (applied twice). Changes nothing
    explains are listed as `unexplained` (informative: the server changed state by itself)."""
    if getattr(history, "_attribution", None) is not None:
        return history._attribution
    first_seen = {}
    for previous, event in history.adjacent_pairs():
        if event["type"] != "change" or event["id"] == previous["id"]:
            continue
        if state(previous["data"]) == state(event["data"]):
            continue
        key = (event["id"], json.dumps(event["data"], sort_keys=True))
        if key not in first_seen or event["time"] < first_seen[key][1]["time"]:
            first_seen[key] = (previous, event)
    used = set()
    result = {"applied_503": [], "applied_twice": [], "unexplained": [], "taken_back": 0, "reapplied_across_a_wipe": 0}
    undone = taken_back(history)
    for previous, event in sorted(first_seen.values(), key=lambda pair: pair[1]["time"]):
        if event["id"] in undone:
            # Shown by an owner, not kept by the group, taken back by a snapshot: not applied.
            result["taken_back"] += 1
            continue
        if any(_matches(a["command"]["command"], previous, event) or a["command"]["command"]["command"] in (
                "insert", "remove", "shuffle") for a in history.acks_by_seq.get(event["id"], [])):
            continue
        candidates = [c for c in history.commands if outcome(c) != "not-sent"
                      and c["start"] <= event["time"] <= c["end"] + LATE_APPLY_SECONDS
                      and _matches(c["command"], previous, event)]

        def distance(command):
            return min(abs(event["time"] - a["start"]) for a in command["attempts"])

        candidates.sort(key=distance)
        unknown = [c for c in candidates if outcome(c) == "unknown" and c["key"] not in used]
        if unknown:
            used.add(unknown[0]["key"])
            continue
        # A command that was refused: every attempt 503 (first), or refused with a 4xx while the change
        # happened during that attempt or soon after it.
        refused = [c for c in candidates if outcome(c) == "not-applied" and c["key"] not in used]
        refused += [c for c in candidates if outcome(c) == "refused" and c["key"] not in used and any(
            a["start"] <= event["time"] <= a["end"] + LATE_APPLY_SECONDS for a in c["attempts"] if sent(a))]
        if refused:
            used.add(refused[0]["key"])
            result["applied_503"].append({"message": f"change {event['id']} {state(previous['data'])} → "
                                                     f"{state(event['data'])} matches only commands that were "
                                                     f"answered 503/refused (not applied)",
                                          "before": short(previous), "change": short(event),
                                          "candidates": [short_command(c) for c in refused[:3]]})
            continue
        # A command retried with its key and acked under another seq (or of unknown outcome, its one
        # application already counted): its effect is here a second time.
        twice = [c for c in candidates if outcome(c) in ("acked", "unknown")
                 and sum(1 for a in c["attempts"] if sent(a)) > 1]
        if twice and all(history.across_wipe(ack_end(c), event["time"]) for c in twice):
            # Redis came back empty between their acknowledgement and this change: their keys' answers
            # went with it, and a retry after the wipe (the acknowledged-key retries of check 8) may
            # apply them again. Without persistence the group promises ids, not keys (check 8).
            result["reapplied_across_a_wipe"] += 1
            continue
        if twice:
            entry = {"message": f"change {event['id']} {state(previous['data'])} → {state(event['data'])} "
                                f"matches only retried commands already applied under another seq",
                     "before": short(previous), "change": short(event),
                     "candidates": [short_command(c) | {"seq": ack_seq(c)[0]} for c in twice[:3]]}
            result["applied_twice"].append(entry)
            if all(any(a.get("status") == 503 and a["start"] <= event["time"] for a in c["attempts"]) for c in twice):
                result["applied_503"].append(entry | {"message": entry["message"] + ": their attempt answered "
                                                                                    "503 was applied"})
            continue
        result["unexplained"].append({"before": short(previous), "change": short(event)})
    history._attribution = result
    return result


def check_503_not_applied(history):
    """(4) No command answered 503 is applied. A change whose identifiable effect (a style, a goto's
    place, an insert of its photo, a remove of its card, a next/previous/shuffle's move) matches only
    commands whose every attempt was answered 503 (or refused), and no command acked with that seq
    nor one of unknown outcome, was applied although answered 503. See attribute_changes."""
    result = attribute_changes(history)
    return result["applied_503"], {"unexplained_changes": len(result["unexplained"]), "taken_back": result["taken_back"]}


def check_retry_applied_once(history):
    """(5) A retry with the same key is applied once: every 200 of one key carries the same body
    (the same seq); and no change is explained only by a command already acked under another seq
    (see attribute_changes)."""
    violations = []
    for command in history.commands:
        bodies = {a.get("body") for a in command["attempts"] if a.get("status") == 200}
        if len(bodies) > 1:
            violations.append({"message": f"key {command['key']} got different 200 answers: {sorted(bodies)}",
                               "command": short_command(command)})
    attribution = attribute_changes(history)
    violations += attribution["applied_twice"]
    return violations, {"reapplied_across_a_wipe": attribution["reapplied_across_a_wipe"]}


def check_final_convergence(history):
    """(6) After healing, every instance's final GET equals the owner's in style, count, current and
    the photos of the drawn cards in position order; and every reader's last event id is the
    owner's final seq (viewers converge too)."""
    violations = []
    final = history.data.get("final", {})
    gets = final.get("gets", {})
    owner = final.get("owner")
    if owner not in gets or "state" not in gets[owner]:
        return [{"message": f"no final GET from the owner {owner!r}", "final": {k: v for k, v in final.items()
                                                                              if k != "gets"}}], {}

    def view(s):
        return {"style": s["style"], "count": s["count"], "current": s["current"],
                "photos": [c[1] for c in s["cards"]]}

    reference = view(gets[owner]["state"])
    for instance, got in sorted(gets.items()):
        if "state" not in got:
            violations.append({"message": f"{instance} did not answer the final GET: {got.get('error')}"})
        elif view(got["state"]) != reference:
            violations.append({"message": f"{instance}'s final GET differs from the owner {owner}'s",
                               "instance": view(got["state"]) | {"seq": got["state"]["seq"]},
                               "owner": reference | {"seq": gets[owner]["state"]["seq"]}})
    owner_seq = gets[owner]["state"]["seq"]
    for reader, last in sorted((final.get("readers_last_id") or {}).items()):
        if last != owner_seq:
            violations.append({"message": f"the reader of {reader} ended at id {last}, the owner at seq {owner_seq}"})
    return violations, {}


def check_current_in_range(history):
    """(7) 0 ≤ current < count (or current == 0 when count == 0) in every snapshot and change event and
    every GET (during the run and final)."""
    violations = []

    def bad(s):
        count, current = s.get("count"), s.get("current")
        if not isinstance(count, int) or not isinstance(current, int):
            return True
        return not (0 <= current < count or (count == 0 and current == 0))

    for event in history.events:
        if bad(event["data"]):
            violations.append({"message": f"event {event['id']}: current {event['data'].get('current')} with "
                                          f"count {event['data'].get('count')}", "event": short(event)})
    reads = [r for r in history.data["reads"] if r.get("status") == 200]
    reads += [{"instance": i, "state": g["state"], "final": True} for i, g in
              history.data.get("final", {}).get("gets", {}).items() if "state" in g]
    for read in reads:
        if bad(read["state"]):
            violations.append({"message": f"GET at {read['instance']}: current {read['state'].get('current')} "
                                          f"with count {read['state'].get('count')} (seq {read['state'].get('seq')})"})
    return violations, {}


def check_no_crashes(history):
    """(0) No instance exits by itself: every exit the nemesis did not cause is listed (the run
    starts the instance again and goes on)."""
    return [{"message": f"{c['instance']} exited by itself (status {c['returncode']})", "log": c["log"]}
            for c in history.data.get("crashes", [])], {}


def answer_seq(attempt):
    try:
        return int(json.loads(attempt.get("body") or "")["seq"])
    except (ValueError, KeyError, TypeError):
        return None


def short_attempt(attempt):
    return {"instance": attempt.get("instance"), "status": attempt.get("status"),
            "body": (attempt.get("body") or attempt.get("error") or "")[:160],
            "t": [round(attempt.get("start", 0), 3), round(attempt.get("end", 0), 3)]}


def check_acknowledged_retries(history):
    """(8) A retry of an acknowledged key is answered as what happened. Each `ack_retries` record is
    one attempt, same key and body as a command already answered 200 {"seq": N}, sent to another
    instance at once, during the next fault or after it. It must be answered 200 with seq N, or 504
    (the outcome unknown: honest), or not at all (a timeout, a broken connection) or 429. A 503 is a
    violation (`"outcome":"not-applied"`: false, the change was applied, and a client believing it
    applies it twice with a new key); so is 200 with another seq, and any other status. Across a
    Redis wipe (acknowledged before a wipe ended, retried after it began) the key may be forgotten:
    not judged (`across_a_wipe`)."""
    violations, statuses, across = [], defaultdict(int), 0
    for retry in history.data.get("ack_retries", []):
        attempt = retry["attempt"]
        status = attempt.get("status")
        statuses[str(status)] += 1
        if status in (None, 504, 429) or (status == 200 and answer_seq(attempt) == retry["first_seq"]):
            continue
        if history.across_wipe(retry["acked_at"], attempt["start"]):
            across += 1
            continue
        if status == 503:
            rule, message = "8 503 for an applied change", "answered 503 (not applied)"
        elif status == 200:
            rule, message = "8 another seq", f"answered seq {answer_seq(attempt)}"
        else:
            rule, message = "8 unexpected status", f"answered {status}"
        violations.append({"rule": rule, "message": f"key {retry['key']} ({retry['command']}) was acknowledged as seq "
                                                    f"{retry['first_seq']} by {retry['first_instance']}; its retry "
                                                    f"{retry['phase']} was {message}",
                           "fault": retry.get("fault"), "retry": short_attempt(attempt)})
    return violations, {"retries_by_status": dict(statuses), "across_a_wipe": across}


def check_key_reused_with_another_body(history):
    """(9) A key reused with another body is refused: 422 (the IETF Idempotency-Key draft), never
    answered with the other request's result (200 with its seq) nor applied as a new command (200 with
    another seq). No answer (timeout, broken connection), 429, 503 and 504 are inconclusive (counted);
    any other status is a violation. Across a Redis wipe the first use may be forgotten: not judged."""
    violations, inconclusive, refused = [], 0, 0
    for probe in history.data.get("key_mismatches", []):
        attempt = probe["attempt"]
        status = attempt.get("status")
        if status == 422:
            refused += 1
            continue
        if status in (None, 429, 503, 504):
            inconclusive += 1
            continue
        if history.across_wipe(probe["acked_at"], attempt["start"]):
            inconclusive += 1
            continue
        seq = answer_seq(attempt) if status == 200 else None
        if status == 200 and seq == probe["first_seq"]:
            rule, what = "9 answered with the other request's result", f"200 with the first request's seq {seq}"
        elif status == 200:
            rule, what = "9 applied as a new command", f"200 with seq {seq}"
        else:
            rule, what = "9 unexpected status", f"{status}"
        violations.append({"rule": rule, "message": f"key {probe['key']}, acknowledged for {probe['command']} as seq "
                                                    f"{probe['first_seq']}, sent with {probe['body_sent']}: {what}",
                           "attempt": short_attempt(attempt)})
    return violations, {"refused_422": refused, "inconclusive": inconclusive}


def check_cold_reads(history):
    """(10) Reads are the room's at every instance. A cold-reader round acknowledges `style s` and
    `goto k` in a room at one instance, then reads it at an instance that has not touched that room
    since it started (no viewer, no POST): a GET, polled up to a few seconds, and a new stream's
    opening as a page draws it (its first snapshot, folded with the changes that follow it at once:
    a viewer at an instance that does not run the room starts from the group's last snapshot and the
    changes after it), polled likewise; and both again about 30 s later. Each kind of read must
    show the room as acknowledged — seq ≥ the acks' seqs, style s, current k — in some answer of
    its poll. A violation when none did and some answer was a 200 (or a 404) showing another room:
    a private stack. When every answer failed (503, 504, no answer) the read is counted as
    `unavailable`. Rounds whose commands were not all acknowledged, and reads after a Redis wipe
    that came after the round began, are not judged."""
    violations, unavailable, unjudged, judged = [], 0, 0, 0
    for record in history.data.get("cold_reads", []):
        if not record.get("acked"):
            unjudged += 1
            continue
        for kind in ("get", "stream"):
            reads = [r for r in record["reads"] if r["kind"] == kind]
            if not reads:
                continue
            if history.across_wipe(cold_acked_at(record), reads[-1]["end"]):
                unjudged += 1
                continue
            judged += 1
            if any(shows_state(r.get("state"), record["expect"]) for r in reads):
                continue
            wrong = [r for r in reads if r.get("status") in (200, 404)]
            if not wrong:
                unavailable += 1
                continue
            last = wrong[-1]
            shown = {k: (last.get("state") or {}).get(k) for k in ("seq", "style", "count", "current")}
            violations.append({
                "rule": f"10 {'stream' if kind == 'stream' else 'GET'} {record['phase']}",
                "message": f"room {record['room']} acknowledged at {record['writer']} as {record['expect']}; "
                           f"{'a stream' if kind == 'stream' else 'GET'} at {record['reader']} "
                           f"({'never had it' if record.get('reader_cold') else record['phase'] + ' read'}) "
                           f"answered {last.get('status')} {shown} in {len(reads)} tries",
                "round": record["round"]})
    return violations, {"judged": judged, "unavailable": unavailable, "not_judged": unjudged}


def cold_acked_at(record):
    """When a cold-reader round's first command was acknowledged (its later read is judged from
    then: what was acknowledged before a Redis wipe may be gone after it)."""
    acked = [a["end"] for c in record.get("commands", []) for a in c.get("attempts", []) if a.get("status") == 200]
    return min(acked) if acked else record["start"]


def shows_state(state, expect):
    """Does a read's state show the acknowledged room: seq at least the acks', their style and place?"""
    if not state or expect.get("seq") is None or not isinstance(state.get("seq"), int):
        return False
    return state["seq"] >= expect["seq"] and state.get("style") == expect["style"] \
        and state.get("current") == expect["current"]


def visible(card):
    """A card the page draws: its opacity, where its motion ends, is not 0."""
    to = (card.get("anim") or {}).get("to") or {}
    return to.get("opacity", card.get("opacity", 1)) != 0


def drawn_room(events):
    """What a page that received `events` (one reader's, in order, across its reconnections) draws,
    folded as the page's scene does: a snapshot replaces everything, whatever its seq; a change is
    ignored before any snapshot and when its seq is not above the scene's, else drops its `removed`
    cards and upserts its cards by id. Returns (seq, count, current, {card id: photo} of visible cards)."""
    scene = None
    for event in events:
        data = event.get("data")
        if not isinstance(data, dict):
            continue
        if event["type"] == "snapshot":
            scene = {"seq": data.get("seq", -1), "count": data.get("count"), "current": data.get("current"),
                     "cards": {c["id"]: c for c in data.get("cards") or [] if isinstance(c, dict) and "id" in c}}
        elif event["type"] == "change" and scene is not None:
            seq = data.get("seq")
            if isinstance(seq, (int, float)) and seq <= scene["seq"]:
                continue
            for removed in data.get("removed") or []:
                scene["cards"].pop(removed, None)
            for card in data.get("cards") or []:
                if isinstance(card, dict) and "id" in card:
                    scene["cards"][card["id"]] = card
            for key in ("seq", "count", "current"):
                if key in data:
                    scene[key] = data[key]
    if scene is None:
        return None
    cards = {i: c.get("photo") for i, c in scene["cards"].items() if visible(c)}
    return scene["seq"], scene["count"], scene["current"], cards


def check_drawn_room(history):
    """(11) What each viewer draws is the room. Every reader's events (all its connections, resumes
    included) are folded as the page folds them (`drawn_room`) into the cards it would draw; after
    healing, that must equal the room, the owner's final GET (an instance's own stale GET is check
    6's): the same visible cards by id and photo, the same count and current. Ghost cards (drawn,
    not in the room) and missing ones are listed."""
    violations = []
    final = history.data.get("final", {})
    gets = final.get("gets", {})
    room_get = (gets.get(final.get("owner")) or {}).get("raw")
    by_reader = defaultdict(list)
    for event in history.data["events"]:
        if event["type"] in ("snapshot", "change"):
            by_reader[event["reader"]].append(event)
    for reader, events in sorted(by_reader.items()):
        raw = room_get
        drawn = drawn_room(events)
        if not isinstance(raw, dict) or drawn is None:
            continue
        _, count, current, cards = drawn
        room = {c["id"]: c.get("photo") for c in raw.get("cards") or [] if isinstance(c, dict) and visible(c)}
        if (count, current, cards) == (raw.get("count"), raw.get("current"), room):
            continue
        ghosts = sorted(i for i in cards if room.get(i) != cards[i])
        missing = sorted(i for i in room if cards.get(i) != room[i])
        violations.append({"message": f"{reader} draws {len(cards)} cards (count {count}, current {current}), the room "
                                      f"at seq {raw.get('seq')} has {len(room)} (count {raw.get('count')}, current "
                                      f"{raw.get('current')}): ghosts {ghosts[:8]}, missing {missing[:8]}",
                           "drawn_seq": drawn[0]})
    return violations, {}


def check_photos_served(history):
    """(12) A photo shown is served everywhere: every photo id a snapshot listed, fetched at every
    instance after a Redis wipe (an instance restarted after it included) and at the end, answers
    200. No answer (a restarting instance) is not judged; any other status is a violation, one per
    instance and probe."""
    failed = defaultdict(list)
    probes = history.data.get("photo_probes", [])
    for probe in probes:
        if probe.get("status") not in (None, 200):
            failed[(probe["reason"], probe["instance"])].append((probe["photo"], probe["status"]))
    violations = [{"message": f"{instance}, {reason}: {len(bad)} photo ids shown in snapshots answered "
                              f"{sorted({s for _, s in bad})}", "photos": [p for p, _ in bad[:6]]}
                  for (reason, instance), bad in sorted(failed.items())]
    return violations, {"probes": len(probes)}


CHECKS = [
    ("0 no crashes", check_no_crashes),
    ("1 acknowledged effects kept", check_acknowledged_effects),
    ("2 one payload per id", check_ids_unique),
    ("2b no silent gaps", check_no_silent_gaps),
    ("3 real-time order", check_real_time_order),
    ("4 503 not applied", check_503_not_applied),
    ("5 retry applied once", check_retry_applied_once),
    ("6 final convergence", check_final_convergence),
    ("7 current in range", check_current_in_range),
    ("8 acknowledged key retried", check_acknowledged_retries),
    ("9 key reused with another body", check_key_reused_with_another_body),
    ("10 cold reads", check_cold_reads),
    ("11 drawn room", check_drawn_room),
    ("12 photos served", check_photos_served),
]


def run_checks(data):
    history = History(data)
    return {name: check(history) for name, check in CHECKS}


def statistics(data):
    commands = data["commands"]
    statuses = defaultdict(int)
    for command in commands:
        for attempt in command["attempts"]:
            statuses[str(attempt.get("status"))] += 1
    outcomes = defaultdict(int)
    for command in commands:
        outcomes[outcome(command)] += 1
    faults = defaultdict(int)
    for fault in data["faults"]:
        faults[fault["fault"] + (" (skipped)" if fault.get("skipped") else "")] += 1
    return {"commands": len(commands), "attempts": sum(len(c["attempts"]) for c in commands),
            "acked": outcomes["acked"], "unknown": outcomes["unknown"], "not_applied_503": outcomes["not-applied"],
            "refused": outcomes["refused"], "answers_by_status": dict(statuses),
            "retried": sum(1 for c in commands if len(c["attempts"]) > 1),
            "reads": len(data["reads"]), "events": sum(1 for e in data["events"] if numbered(e)),
            "resumes": sum(1 for c in data["connections"] if c.get("resume_from") is not None
                           and c.get("status") == 200 and c.get("first")),
            "crashes": len(data.get("crashes", [])),
            "faults": dict(faults), "wall_seconds": round(data.get("wall_seconds") or 0, 1)}


def report(data, results, examples=1):
    """A printable summary: statistics, then each check's violation count and first examples."""
    lines = ["history summary: " + json.dumps(statistics(data))]
    for name, (violations, info) in results.items():
        extra = f" {json.dumps(info)}" if info else ""
        rules = defaultdict(list)
        for violation in violations:
            rules[violation.get("rule", "")].append(violation)
        by_rule = ", ".join(f"{rule}: {len(group)}" for rule, group in rules.items() if rule)
        lines.append(f"  check {name}: {len(violations)} violation(s){' (' + by_rule + ')' if by_rule else ''}{extra}")
        shown = [group[0] for group in rules.values()] + [v for v in violations if v not in
                                                          [group[0] for group in rules.values()]]
        for violation in shown[:max(examples, len(rules))]:
            lines.append("      e.g. " + json.dumps(violation, default=str)[:1500])
    return "\n".join(lines)
