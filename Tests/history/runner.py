"""A history run: 1 redis-server, 3 instances, 4 client threads sending lasting commands (and some
reads) to random instances, one SSE reader per instance, and a nemesis injecting one fault at a time;
or (the single mode) one instance with `--state FILE`, two readers, and a nemesis of restarts.
Beside them the unlucky users: retries of acknowledged keys (and a key reused with another body),
cold readers of fresh rooms at an instance that never had them, and probes of the photos shown.
Everything observed is recorded with monotonic times in one dict (saved as JSON), which
`checks.py` then judges.

Environment:
  STACKWEB_BIN               the binary (default: .build/debug/stackweb of the repository)
  STACKWEB_HISTORY_MODE      `group` (default: Redis and 3 instances) or `single` (one `--state` instance)
  STACKWEB_HISTORY_CLIENTS   the extra clients, comma-separated (default: all): `ack-retries`,
                             `key-mismatch`, `cold-readers`, `photo-probes`; empty for none
  STACKWEB_NEMESIS_FAULTS    only these faults, comma-separated (default: all of the mode)
  STACKWEB_NEMESIS_SEED      the seed of every random choice (default: drawn and printed)
  STACKWEB_NEMESIS_SECONDS   run this many seconds of random faults instead of the fixed schedule
  STACKWEB_NEMESIS=off       a control run: the same clients and readers, no faults
"""

import http.client
import json
import os
import queue
import random
import socket
import tempfile
import threading
import time
import uuid
from pathlib import Path

from checks import ack_seq, shows_state
from cluster import REPO_ROOT, ROOM, Instance, Redis, poll

PHOTOS = REPO_ROOT / "Resources/demo-photos"
CLIENTS = 4
INSTANCES = 3
REQUEST_TIMEOUT = 8.0  # a forwarded command waits up to 3 s for an owner; Redis may be stopped 4 s
RETRIES = 3  # after the first attempt, on 503 / 504 / timeout / connection error, with the same key
STYLES = ["pile", "angles", "grid", "deck", "swipe", "frame"]
# The client's mix: lasting commands, and reads (GET of the room) at a random instance.
WEIGHTS = {"next": 18, "previous": 10, "goto": 14, "style": 14, "insert": 12, "remove": 10, "shuffle": 5,
           "read": 12}
LEASE_SECONDS = 3.0

# The fixed schedule: (fault, how long it lasts) with QUIET seconds between faults. The Redis wipe
# comes late: acknowledged changes before it may be lost (check 1 does not reach across it).
FIXED_SCHEDULE = [
    ("kill-owner", 1.0),
    ("stop-owner", 5.0),
    ("stop-redis", 4.0),
    ("restart-redis-shutdown", 3.5),
    ("kill-nonowner", 1.0),
    ("kill-owner", 2.0),
    ("restart-redis-kill", 3.5),
    ("restart-redis-empty", 2.0),
    ("stop-owner", 5.0),
]
# The single mode's: ten restarts of the one instance, SIGTERM and kill -9 in turn.
SINGLE_SCHEDULE = [("term-restart", 0.5), ("kill-restart", 0.5)] * 5
QUIET = 6.0
SINGLE_QUIET = 4.0
CALM_SECONDS = 40.0  # STACKWEB_NEMESIS=off: the load alone, for this long (or STACKWEB_NEMESIS_SECONDS)
WARMUP = 4.0
FAULTS = ["kill-owner", "stop-owner", "stop-redis", "restart-redis-shutdown", "restart-redis-kill", "kill-nonowner",
          "restart-redis-empty"]
SINGLE_FAULTS = ["term-restart", "kill-restart"]
FAULT_SECONDS = {"kill-owner": 1.0, "stop-owner": 5.0, "stop-redis": 4.0, "restart-redis-shutdown": 1.0,
                 "restart-redis-kill": 1.0, "kill-nonowner": 1.0, "restart-redis-empty": 1.0,
                 "term-restart": 0.5, "kill-restart": 0.5}
EXTRA_CLIENTS = ("ack-retries", "key-mismatch", "cold-readers", "photo-probes")
ACK_RETRY_SHARE = 0.25  # of acknowledged keys, resent at once to another instance, and at the next fault
MISMATCH_SHARE = 1 / 15  # of acknowledged keys, sent again with another body (422 expected)
RETRIES_PER_FAULT = 12  # pending acknowledged keys resent during the next fault and after it (a sample)
SLOW_VIEWER_WAIT = 8.0  # the single mode's second viewer waits up to this long before resuming
COLD_NAMES = [f"cold-{n}" for n in range(8)]  # reused: the server keeps at most 64 rooms
COLD_EVERY = 6.0  # seconds between two cold-reader rounds
COLD_POLL = 3.0  # a cold read is polled this long for the group's room
COLD_LATER = 30.0  # and read again this long after


def run_mode():
    return os.environ.get("STACKWEB_HISTORY_MODE") or "group"


def extra_clients():
    """The extra clients asked for by STACKWEB_HISTORY_CLIENTS (default: all)."""
    text = os.environ.get("STACKWEB_HISTORY_CLIENTS")
    if text is None:
        return set(EXTRA_CLIENTS)
    chosen = {name.strip() for name in text.split(",") if name.strip()}
    unknown = chosen - set(EXTRA_CLIENTS)
    if unknown:
        raise ValueError(f"STACKWEB_HISTORY_CLIENTS: unknown {sorted(unknown)}; known: {EXTRA_CLIENTS}")
    return chosen


def chosen_faults(faults):
    """The faults of `faults` that STACKWEB_NEMESIS_FAULTS lets through (default: all)."""
    text = os.environ.get("STACKWEB_NEMESIS_FAULTS")
    if not text:
        return list(faults)
    chosen = {name.strip() for name in text.split(",") if name.strip()}
    return [f for f in faults if (f[0] if isinstance(f, tuple) else f) in chosen]


def now():
    return time.monotonic()


class Recorder:
    """The run's history: a dict of lists, appended to under one lock."""

    def __init__(self, seed, mode):
        self.lock = threading.Lock()
        self.t0 = now()
        self.data = {"seed": seed, "mode": mode, "room": ROOM, "t0": self.t0, "instances": {}, "commands": [],
                     "reads": [], "events": [], "connections": [], "faults": [], "crashes": [], "final": {},
                     "notes": [], "ack_retries": [], "key_mismatches": [], "cold_reads": [], "photo_probes": [],
                     "readers": {}}

    def add(self, kind, record):
        with self.lock:
            self.data[kind].append(record)

    def note(self, text):
        self.add("notes", {"time": now(), "text": text})


# --- HTTP -------------------------------------------------------------------------------------------


def http_request(port, method, path, body=None, headers=None, timeout=REQUEST_TIMEOUT):
    """(status, headers dict, body text) or raises OSError / http.client exceptions."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Content-Type": "application/json"} if body is not None else {}
        all_headers.update(headers or {})
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


def get_room(port, timeout=5.0):
    status, _, text = http_request(port, "GET", f"/api/rooms/{ROOM}", timeout=timeout)
    if status != 200:
        raise OSError(f"GET answered {status}: {text[:200]}")
    return json.loads(text)


def summary_state(data):
    """The fields of a snapshot/change/GET the checks compare."""
    cards = sorted((c for c in data.get("cards", []) if isinstance(c, dict)), key=lambda c: c.get("position", 0))
    return {"seq": data.get("seq"), "style": data.get("style"), "count": data.get("count"),
            "current": data.get("current"), "cards": [[c.get("id"), c.get("photo"), c.get("position")] for c in cards]}


def send_command(instance, room, body, key):
    """One attempt of a command: {instance, start, end, status, body or error, retry_after}."""
    entry = {"instance": instance.id, "start": now()}
    try:
        status, headers, text = http_request(
            instance.port, "POST", f"/api/rooms/{room}/commands", body, {"Idempotency-Key": key})
        entry.update(status=status, body=text[:500], retry_after=headers.get("retry-after"))
    except (OSError, http.client.HTTPException) as error:
        entry.update(status=None, error=f"{type(error).__name__}: {error}"[:200])
    entry["end"] = now()
    return entry


def send_with_retries(pick_instance, room, body, key, rng, stopping):
    """A command with its key, retried (same key, an instance picked each time) on 503, 504, a timeout
    or a broken connection, up to RETRIES times; returns the attempts."""
    attempts = []
    for attempt in range(1 + RETRIES):
        entry = send_command(pick_instance(), room, body, key)
        attempts.append(entry)
        if entry["status"] not in (503, 504, None):
            break
        if stopping.is_set() and attempt >= 1:
            break
        delay = 0.3
        try:
            delay = min(1.0, float(entry.get("retry_after") or 0.3))
        except ValueError:
            pass
        time.sleep(delay + rng.uniform(0, 0.2))
    return attempts


def acked_seq(attempts):
    """(seq, attempt) of the first 200 answer, or (None, None)."""
    return ack_seq({"attempts": attempts})


# --- Clients ------------------------------------------------------------------------------------------


class Knowledge:
    """What clients know of the room (from reads and events), to pick plausible arguments: the
    latest count and the ids of the cards in the stack, updated only by newer seqs."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seq = -1
        self.count = 12
        self.card_ids = set()
        self.photos = []

    def update(self, data):
        with self.lock:
            cards = [c for c in data.get("cards") or [] if isinstance(c, dict) and "id" in c]
            for c in cards:
                if c.get("photo") and c["photo"] not in self.photos:
                    self.photos.append(c["photo"])
            seq = data.get("seq")
            if not isinstance(seq, int) or seq < self.seq:
                return
            self.seq = seq
            if isinstance(data.get("count"), int):
                self.count = data["count"]
            if "room" in data:  # a snapshot or GET lists every drawn card
                self.card_ids = set()
            for c in cards:
                if fading(c):
                    self.card_ids.discard(c["id"])
                else:
                    self.card_ids.add(c["id"])
            for removed in data.get("removed") or []:
                self.card_ids.discard(removed)


def fading(card):
    return ((card.get("anim") or {}).get("to") or {}).get("opacity", 1) == 0


class Client(threading.Thread):
    def __init__(self, number, run, rng):
        super().__init__(name=f"client-{number}", daemon=True)
        self.number = number
        self.run_ = run
        self.rng = rng

    def run(self):
        run = self.run_
        names = list(WEIGHTS)
        weights = [WEIGHTS[n] for n in names]
        while not run.stopping.is_set():
            kind = self.rng.choices(names, weights)[0]
            if kind == "read":
                self.read()
            else:
                self.command(kind)
            run.stopping.wait(self.rng.uniform(0.05, 0.2))

    def pick_instance(self):
        return self.rng.choice(self.run_.instances)

    def body_for(self, kind):
        knowledge = self.run_.knowledge
        with knowledge.lock:
            count, ids, photos = knowledge.count, sorted(knowledge.card_ids), list(knowledge.photos)
        if kind == "goto":
            # The last place often: where an off-by-one would show.
            index = count - 1 if self.rng.random() < 0.3 else self.rng.randrange(max(1, count))
            return {"command": "goto", "index": max(0, index)}
        if kind == "style":
            return {"command": "style", "style": self.rng.choice(STYLES)}
        if kind == "insert":
            if count >= 20:
                return {"command": "next"}
            photo = self.rng.choice(photos) if photos else "unknown"
            return {"command": "insert", "photo": photo, "at": self.rng.randrange(3)}
        if kind == "remove":
            if count <= 8 or not ids:
                return {"command": "next"}
            return {"command": "remove", "id": self.rng.choice(ids)}
        return {"command": kind}

    def command(self, kind):
        run = self.run_
        body = self.body_for(kind)
        key = f"k{self.number}-{uuid.UUID(int=self.rng.getrandbits(128)).hex[:20]}"
        record = {"client": self.number, "key": key, "command": body, "start": now()}
        record["attempts"] = send_with_retries(self.pick_instance, ROOM, body, key, self.rng, run.stopping)
        record["end"] = now()
        run.recorder.add("commands", record)
        if run.ack_retries is not None:
            run.ack_retries.acked(record, self.rng)

    def read(self):
        run = self.run_
        instance = self.pick_instance()
        entry = {"client": self.number, "instance": instance.id, "start": now()}
        try:
            status, _, text = http_request(instance.port, "GET", f"/api/rooms/{ROOM}", timeout=5.0)
            entry["status"] = status
            if status == 200:
                data = json.loads(text)
                entry["state"] = summary_state(data)
                run.knowledge.update(data)
            else:
                entry["body"] = text[:300]
        except (OSError, http.client.HTTPException, ValueError) as error:
            entry.update(status=None, error=f"{type(error).__name__}: {error}"[:200])
        entry["end"] = now()
        run.recorder.add("reads", entry)


# --- Unlucky users: retries of acknowledged keys, a key reused with another body -----------------------


def mismatched_body(body, rng):
    """Another command than `body`, for the same key: a style other than its own."""
    styles = [s for s in STYLES if s != body.get("style")]
    return {"command": "style", "style": rng.choice(styles)}


class AckRetries:
    """A user whose answer got lost: after an acknowledgement, sometimes (ACK_RETRY_SHARE) the same key
    and body again at another instance, at once; and again during the next fault and after it. And,
    sometimes (MISMATCH_SHARE), the same key with another body. Each is one attempt, recorded beside
    the first answer's seq (`ack_retries`, `key_mismatches`)."""

    WORKERS = 4

    def __init__(self, run, retries, mismatches):
        self.run_ = run
        self.retries = retries
        self.mismatches = mismatches
        self.lock = threading.Lock()
        self.pending = []  # acknowledged keys to resend at the next fault
        self.current = []  # the sample resent during the fault in progress, again after it
        self.queue = queue.Queue()
        self.workers = [threading.Thread(target=self.work, name=f"ack-retry-{n}", daemon=True)
                        for n in range(self.WORKERS)]

    def start(self):
        for worker in self.workers:
            worker.start()

    def finish(self, timeout=30):
        for _ in self.workers:
            self.queue.put(None)
        for worker in self.workers:
            worker.join(timeout=timeout)

    def acked(self, record, rng):
        """Called by a client once its command is answered (acknowledged or not)."""
        seq, attempt = acked_seq(record["attempts"])
        if attempt is None or seq is None:
            return
        acked = {"key": record["key"], "command": record["command"], "first_seq": seq,
                 "first_instance": attempt["instance"], "acked_at": attempt["end"]}
        if self.mismatches and rng.random() < MISMATCH_SHARE:
            body = mismatched_body(record["command"], rng)
            entry = send_command(self.other_instance(attempt["instance"], rng), ROOM, body, record["key"])
            self.run_.recorder.add("key_mismatches", acked | {"body_sent": body, "attempt": entry})
        if not self.retries or rng.random() >= ACK_RETRY_SHARE:
            return
        self.resend(acked, "at once", None, rng)
        with self.lock:
            self.pending.append(acked)

    def other_instance(self, instance_id, rng):
        others = [i for i in self.run_.instances if i.id != instance_id]
        return rng.choice(others or self.run_.instances)

    def resend(self, acked, phase, fault, rng):
        entry = send_command(self.other_instance(acked["first_instance"], rng), ROOM, acked["command"], acked["key"])
        self.run_.recorder.add("ack_retries", acked | {"phase": phase, "fault": fault, "attempt": entry})

    def fault_started(self, fault, rng):
        """The nemesis injects `fault` (its name and start): the pending keys (a sample) are resent now."""
        with self.lock:
            sample = self.pending if len(self.pending) <= RETRIES_PER_FAULT else rng.sample(self.pending,
                                                                                             RETRIES_PER_FAULT)
            self.pending, self.current = [], sample
        for acked in sample:
            self.queue.put((acked, "during a fault", fault, random.Random(rng.getrandbits(64))))

    def fault_ended(self, fault, rng):
        with self.lock:
            sample, self.current = self.current, []
        for acked in sample:
            self.queue.put((acked, "after a fault", fault, random.Random(rng.getrandbits(64))))

    def work(self):
        while True:
            item = self.queue.get()
            if item is None:
                return
            self.resend(*item)


# --- Cold readers ----------------------------------------------------------------------------------------


class ColdReaders(threading.Thread):
    """A user who opens a room somewhere else: every COLD_EVERY s a room (a name reused from COLD_NAMES)
    gets a style and a goto acknowledged at one instance, then is read (GET, and the first snapshot of
    its stream) at an instance that has not touched that name since it started — polled up to
    COLD_POLL s — and again COLD_LATER s later. In the single mode the one instance is both."""

    def __init__(self, run, rng):
        super().__init__(name="cold-readers", daemon=True)
        self.run_ = run
        self.rng = rng
        self.touched = {}  # (instance id, name) → the instance's start count when it touched the name
        self.busy = {}  # name → when its later read is due
        self.rounds = 0

    def run(self):
        run = self.run_
        while not run.stopping.wait(self.rng.uniform(0.5, 1.0) * COLD_EVERY):
            self.later_reads()
            self.round()
        self.later_reads()

    def is_cold(self, instance, name):
        return self.touched.get((instance.id, name)) != instance.starts

    def touch(self, instance, name):
        self.touched[(instance.id, name)] = instance.starts

    def round(self):
        run = self.run_
        choices = [(name, writer, reader) for name in COLD_NAMES if name not in self.busy
                   for writer in run.instances for reader in run.instances
                   if (writer is not reader or len(run.instances) == 1) and self.is_cold(reader, name)]
        if not choices:
            run.recorder.note("cold readers: no room name left that an instance has not touched")
            return
        name, writer, reader = self.rng.choice(choices)
        self.rounds += 1
        style = self.rng.choice([s for s in STYLES if s != "pile"])
        index = self.rng.randrange(1, 8)
        self.touch(writer, name)
        record = {"round": self.rounds, "room": name, "writer": writer.id, "reader": reader.id,
                  "reader_cold": self.is_cold(reader, name) and writer is not reader, "start": now(),
                  "commands": []}
        for body in ({"command": "style", "style": style}, {"command": "goto", "index": index}):
            key = f"cold-{self.rounds}-{body['command']}-{uuid.UUID(int=self.rng.getrandbits(128)).hex[:12]}"
            attempts = send_with_retries(lambda: writer, name, body, key, self.rng, run.stopping)
            seq, _ = acked_seq(attempts)
            record["commands"].append({"key": key, "command": body, "seq": seq, "attempts": attempts})
        record["expect"] = {"style": style, "current": index,
                            "seq": max((c["seq"] for c in record["commands"] if c["seq"] is not None), default=None)}
        record["acked"] = all(c["seq"] is not None for c in record["commands"])
        self.touch(reader, name)
        record["reads"] = self.read(reader, name, record["expect"])
        record["phase"] = "first"
        run.recorder.add("cold_reads", record)
        if record["acked"]:
            self.busy[name] = (now() + COLD_LATER, record, reader)

    def later_reads(self):
        for name, (due, first, reader) in list(self.busy.items()):
            if now() < due and not self.run_.stopping.is_set():
                continue
            del self.busy[name]
            if now() < due:  # the run ends before it is due: not read again
                continue
            record = {key: first[key] for key in ("round", "room", "writer", "reader", "commands", "expect", "acked")}
            record |= {"phase": "later", "start": now(), "reader_cold": False,
                       "reads": self.read(reader, name, first["expect"])}
            self.run_.recorder.add("cold_reads", record)

    def read(self, instance, name, expect):
        """GETs, then first snapshots of streams, at `instance`, each polled until one shows `expect`
        or COLD_POLL s passed. Every answer is recorded."""
        reads = []
        for kind, reader in (("get", self.get), ("stream", self.opening)):
            deadline = now() + COLD_POLL
            while True:
                entry = {"kind": kind, "instance": instance.id, "start": now()}
                entry |= reader(instance, name, expect)
                entry["end"] = now()
                reads.append(entry)
                if shows_state(entry.get("state"), expect) or now() >= deadline:
                    break
                time.sleep(0.2)
        return reads

    @staticmethod
    def get(instance, name, expect):
        try:
            status, _, text = http_request(instance.port, "GET", f"/api/rooms/{name}", timeout=COLD_POLL)
            if status != 200:
                return {"status": status, "body": text[:200]}
            return {"status": status, "state": summary_state(json.loads(text))}
        except (OSError, http.client.HTTPException, ValueError) as error:
            return {"status": None, "error": f"{type(error).__name__}: {error}"[:200]}

    @staticmethod
    def opening(instance, name, expect):
        """A new stream's opening as a page draws it: its first snapshot (which must be of the
        group's history, not a private one), folded with the changes that follow it at once — a
        viewer at an instance that does not run the room starts from the group's last snapshot and
        the changes after it. Read until an event reaches the acknowledged seq, or COLD_POLL s."""
        try:
            status, events = opening_events(instance.port, name, timeout=COLD_POLL, until_seq=expect.get("seq"))
        except (OSError, ValueError) as error:
            return {"status": None, "error": f"{type(error).__name__}: {error}"[:200]}
        snapshots = [e for e in events if e[1] == "snapshot"]
        if status != 200 or not snapshots:
            return {"status": status, "error": "no snapshot" if status == 200 else None}
        first = events.index(snapshots[0])
        folded = summary_state(events[first][2])
        for _, kind, data in events[first + 1:]:
            if kind in ("change", "snapshot"):
                folded = summary_state(data)
        return {"status": status, "id": snapshots[0][0], "type": "snapshot", "state": folded,
                "first": summary_state(snapshots[0][2])}


def opening_events(port, room, timeout, until_seq=None):
    """(status, [(id, type, data)…]) of a new stream of `room`: its events until one has an id at
    least `until_seq`, or until `timeout` s pass with nothing more."""
    events = []
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Accept: text/event-stream\r\n\r\n".encode())
            stream = sock.makefile("rb")
            parts = stream.readline().decode(errors="replace").split()
            status = int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None
            while True:
                line = stream.readline()
                if not line or line in (b"\r\n", b"\n"):
                    break
            if status != 200:
                return status, events
            fields = {}
            while True:
                line = stream.readline()
                if not line:
                    return status, events
                line = line.decode(errors="replace").rstrip("\r\n")
                if line == "" and "data" in fields:
                    raw = fields.get("id")
                    event_id = int(raw) if raw and raw.isdigit() else raw
                    events.append((event_id, fields.get("event", "message"), json.loads(fields["data"])))
                    fields = {}
                    if until_seq is not None and isinstance(event_id, int) and event_id >= until_seq:
                        return status, events
                    continue
                if line == "" or line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value
    except socket.timeout:
        return (200 if events else None), events


# --- Photo probes -----------------------------------------------------------------------------------------


def probe_photos(run, reason):
    """GET /photos/{id} at every instance for every photo id a snapshot has shown so far (after a Redis
    wipe: an id shown must still be served everywhere, at an instance restarted since too)."""
    with run.recorder.lock:
        photos = sorted({c["photo"] for e in run.recorder.data["events"] if e["type"] == "snapshot"
                         and isinstance(e.get("data"), dict) for c in e["data"].get("cards") or []
                         if isinstance(c, dict) and isinstance(c.get("photo"), str)})
    for instance in run.instances:
        for photo in photos:
            entry = {"reason": reason, "instance": instance.id, "photo": photo, "start": now(),
                     "instance_start": instance.starts}
            try:
                status, _, _ = http_request(instance.port, "GET", f"/photos/{photo}", timeout=5.0)
                entry["status"] = status
            except (OSError, http.client.HTTPException) as error:
                entry.update(status=None, error=f"{type(error).__name__}: {error}"[:200])
            entry["end"] = now()
            run.recorder.add("photo_probes", entry)


# --- SSE readers --------------------------------------------------------------------------------------


class Reader(threading.Thread):
    """One viewer of one instance: records every event; when the stream ends, connects again to the
    same instance with Last-Event-ID (the last id it saw), and records the resume — after 0.2 s, or,
    for a slow viewer (a phone asleep, a network down), once the room's GET shows a seq past its
    last id (at most `slow` seconds): a server that numbers again from 0 after a restart has then
    handed out the resumed id a second time, and replays what follows it."""

    def __init__(self, instance, run, label=None, slow=None):
        self.label = label or instance.id  # the reader's name in the history
        self.slow = slow
        super().__init__(name=f"reader-{self.label}", daemon=True)
        self.instance = instance
        self.run_ = run
        self.last_id = None
        self.connection_number = 0
        self.last_event_time = None

    def run(self):
        while not self.run_.readers_stop.is_set():
            try:
                self.stream()
            except (OSError, http.client.HTTPException) as error:
                self.run_.recorder.note(f"reader {self.label}: {type(error).__name__}: {error}")
            self.run_.readers_stop.wait(0.2)
            if self.slow and self.last_id is not None:
                self.wait_for_room_past(self.last_id, self.slow)

    def wait_for_room_past(self, last_id, seconds):
        deadline = now() + seconds
        while now() < deadline and not self.run_.readers_stop.is_set():
            try:
                seq = get_room(self.instance.port, timeout=1.0).get("seq")
                if isinstance(seq, int) and seq > last_id:
                    return
            except (OSError, http.client.HTTPException, ValueError):
                pass
            self.run_.readers_stop.wait(0.1)

    def stream(self):
        run = self.run_
        self.connection_number += 1
        number = self.connection_number
        record = {"reader": self.label, "connection": number, "resume_from": self.last_id, "start": now(),
                  "first": None, "end": None, "ended_by": None}
        headers = {"Accept": "text/event-stream"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        sock = None
        try:
            sock = socket.create_connection(("127.0.0.1", self.instance.port), timeout=2.0)
            request = f"GET /api/rooms/{ROOM}/events HTTP/1.1\r\nHost: 127.0.0.1:{self.instance.port}\r\n"
            request += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
            sock.sendall(request.encode())
            stream = sock.makefile("rb")
            status_line = stream.readline().decode(errors="replace")
            parts = status_line.split()
            status = int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None
            record["status"] = status
            while True:  # the response's headers
                line = stream.readline()
                if not line or line in (b"\r\n", b"\n"):
                    break
            if status != 200:
                record["ended_by"] = f"status {status}"
                return
            # Heartbeats come every 15 s; a stopped instance sends nothing for a while: wait long.
            sock.settimeout(20.0)
            fields = {}
            while not run.readers_stop.is_set():
                try:
                    line = stream.readline()
                except socket.timeout:
                    record["ended_by"] = "timeout"
                    return
                if not line:
                    record["ended_by"] = "eof"
                    return
                line = line.decode(errors="replace").rstrip("\r\n")
                if line == "":
                    if "data" in fields:
                        self.event(record, number, fields)
                    fields = {}
                    continue
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "data":
                    fields["data"] = fields["data"] + "\n" + value if "data" in fields else value
                else:
                    fields[name] = value
            record["ended_by"] = "stop"
        except OSError as error:
            record["ended_by"] = record["ended_by"] or f"{type(error).__name__}: {error}"[:200]
        finally:
            record["end"] = now()
            if sock is not None:
                sock.close()
            run.recorder.add("connections", record)

    def event(self, record, number, fields):
        run = self.run_
        try:
            data = json.loads(fields["data"])
        except ValueError:
            data = {"unparsed": fields["data"][:500]}
        raw_id = fields.get("id")
        event_id = None
        if raw_id is not None:
            try:
                event_id = int(raw_id)
            except ValueError:
                event_id = raw_id
        entry = {"reader": self.label, "connection": number, "time": now(), "id": event_id,
                 "type": fields.get("event", "message"), "data": data}
        if record["first"] is None and event_id is not None:
            record["first"] = {"id": event_id, "type": entry["type"]}
        if isinstance(event_id, int):
            self.last_id = event_id
        self.last_event_time = entry["time"]
        run.recorder.add("events", entry)
        if entry["type"] in ("snapshot", "change") and isinstance(data, dict):
            run.knowledge.update(data)


# --- Nemesis ------------------------------------------------------------------------------------------


class Nemesis(threading.Thread):
    def __init__(self, run, rng, seconds=None):
        super().__init__(name="nemesis", daemon=True)
        self.run_ = run
        self.rng = rng
        self.seconds = seconds
        self.error = None
        self.wipes = 0

    def run(self):
        try:
            self.schedule()
        except Exception as error:  # noqa: BLE001 - recorded, the test fails on it
            self.error = error
            self.run_.recorder.note(f"nemesis failed: {type(error).__name__}: {error}")
        finally:
            self.run_.nemesis_done.set()

    def schedule(self):
        run = self.run_
        if run.stopping.wait(WARMUP):
            return
        if os.environ.get("STACKWEB_NEMESIS") == "off":  # a control run: the same load, no faults
            run.stopping.wait(self.seconds or CALM_SECONDS)
            return
        single = run.mode == "single"
        if self.seconds is None:
            for fault, duration in chosen_faults(SINGLE_SCHEDULE if single else FIXED_SCHEDULE):
                self.inject(fault, duration)
                if run.stopping.wait(SINGLE_QUIET if single else QUIET):
                    return
            return
        faults = chosen_faults(SINGLE_FAULTS if single else FAULTS)
        deadline = now() + self.seconds
        while now() < deadline and not run.stopping.is_set():
            fault = self.rng.choice(faults)
            duration = FAULT_SECONDS[fault] * self.rng.uniform(0.8, 1.6)
            if fault == "stop-owner":
                duration = max(duration, LEASE_SECONDS + 1.5)
            self.inject(fault, duration)
            run.stopping.wait(self.rng.uniform(3.0, 8.0))

    def owner(self):
        """The owner named by the lease, waiting (polling) up to 6 s for one to exist."""
        run = self.run_
        try:
            owner_id = poll(run.owner_id, timeout=6, interval=0.1, message="a lease holder")
        except TimeoutError:
            return None
        return next((i for i in run.instances if i.id == owner_id), None)

    def inject(self, fault, duration):
        run = self.run_
        record = {"fault": fault, "start": now(), "duration": duration}
        retries = run.ack_retries
        if retries is not None:
            retries.fault_started({"fault": fault, "start": record["start"]}, self.rng)
        try:
            self.injected(record, fault, duration)
        finally:
            record["end"] = now()
            run.recorder.add("faults", record)
            if retries is not None:
                retries.fault_ended({"fault": fault, "start": record["start"]}, self.rng)

    def restart(self, target, fault):
        """kill -9 (or SIGTERM, waiting for the exit) of an instance, started again on its port."""
        run = self.run_
        with run.lifecycle:
            target.killing = True
            if fault == "term-restart":
                exited = target.terminate(timeout=10)
            else:
                target.kill()
                exited = False
        time.sleep(0.2)
        with run.lifecycle:
            target.start()
            target.killing = False
        return exited

    def injected(self, record, fault, duration):
        run = self.run_
        if fault in ("term-restart", "kill-restart"):
            target = run.instances[0]
            record["target"] = target.id
            record["exited_by_itself"] = self.restart(target, fault)
            time.sleep(duration)
        elif fault == "restart-redis-empty":
            record["target"] = "redis"
            self.wipe_redis(record, duration)
        elif fault in ("kill-owner", "stop-owner", "kill-nonowner"):
            owner = self.owner()
            if owner is None:
                record["skipped"] = "no owner in Redis"
                return
            target = owner
            if fault == "kill-nonowner":
                target = self.rng.choice([i for i in run.instances if i is not owner])
            record["target"] = target.id
            record["owner"] = owner.id
            if fault == "stop-owner":
                target.stop_signal()
                time.sleep(duration)
                target.cont_signal()
            else:
                with run.lifecycle:
                    target.killing = True
                    target.kill()
                time.sleep(duration)
                with run.lifecycle:
                    target.start()
                    target.killing = False
        elif fault == "stop-redis":
            record["target"] = "redis"
            run.redis.stop_signal()
            time.sleep(duration)
            run.redis.cont_signal()
        elif fault.startswith("restart-redis"):
            record["target"] = "redis"
            if fault.endswith("shutdown"):
                run.redis.shutdown_nosave()
            else:
                run.redis.kill()
            time.sleep(duration)
            run.redis.start()

    def wipe_redis(self, record, duration):
        """Redis without persistence, restarted: SHUTDOWN NOSAVE or kill -9 in turn, its files deleted,
        started empty. At once a non-owner is restarted with kill -9 (it joins a group that has
        forgotten everything: it has seen no epoch), then the owner (the room is taken by an instance
        that may not know the ids handed out, while another live one does); then the photos shown are
        fetched at every instance."""
        run = self.run_
        self.wipes += 1
        owner = self.owner()
        record["owner"] = owner.id if owner else None
        record["how"] = "shutdown-nosave" if self.wipes % 2 else "kill"
        if self.wipes % 2:
            run.redis.shutdown_nosave()
        else:
            run.redis.kill()
        run.redis.wipe()
        time.sleep(duration)
        run.redis.start()
        record["redis_back"] = now()
        others = [i for i in run.instances if i is not owner]
        restarted = [self.rng.choice(others)] if others else []
        restarted += [owner] if owner else []
        record["restarted"] = [i.id for i in restarted]
        for target in restarted:
            self.restart(target, "kill-restart")
            time.sleep(1.0)
        time.sleep(1.0)
        if run.photo_probes:
            probe_photos(run, f"after a Redis wipe ({', '.join(record['restarted'])} restarted since)")


# --- The run ------------------------------------------------------------------------------------------


class Run:
    def __init__(self, seed=None, nemesis_seconds=None, folder=None, binary=None, mode=None):
        if seed is None:
            seed = int(os.environ.get("STACKWEB_NEMESIS_SEED") or random.SystemRandom().randrange(1, 2**31))
        if nemesis_seconds is None and os.environ.get("STACKWEB_NEMESIS_SECONDS"):
            nemesis_seconds = float(os.environ["STACKWEB_NEMESIS_SECONDS"])
        self.seed = seed
        self.nemesis_seconds = nemesis_seconds
        self.mode = mode or run_mode()
        if self.mode not in ("group", "single"):
            raise ValueError(f"STACKWEB_HISTORY_MODE: {self.mode!r} is neither group nor single")
        self.folder = Path(folder or tempfile.mkdtemp(prefix="stackweb-history-"))
        self.rng = random.Random(seed)
        schedule = "off" if os.environ.get("STACKWEB_NEMESIS") == "off" else "random" if nemesis_seconds else "fixed"
        self.recorder = Recorder(seed, schedule)
        self.recorder.data["run_mode"] = self.mode
        self.knowledge = Knowledge()
        single = self.mode == "single"
        self.redis = None if single else Redis(self.folder)
        self.instances = [Instance(n, self.folder, self.redis, PHOTOS, binary)
                          for n in range(1, (1 if single else INSTANCES) + 1)]
        extras = extra_clients()
        self.recorder.data["clients"] = sorted(extras)
        self.photo_probes = "photo-probes" in extras
        self.ack_retries = None
        if extras & {"ack-retries", "key-mismatch"}:
            self.ack_retries = AckRetries(self, "ack-retries" in extras, "key-mismatch" in extras)
        self.cold_readers = "cold-readers" in extras
        self.stopping = threading.Event()
        # Held by the nemesis while it kills and restarts a process, so the crash monitor does not
        # take a kill for a crash.
        self.lifecycle = threading.Lock()
        self.readers_stop = threading.Event()
        self.nemesis_done = threading.Event()
        self.readers = []
        self.monitor_stop = threading.Event()

    def owner_id(self):
        """The instance running the room: the lease holder in Redis (None while none), or the one instance."""
        if self.redis is None:
            return self.instances[0].id
        return self.redis.owner()

    @property
    def history_path(self):
        return self.folder / "history.json"

    def execute(self):
        """Runs the whole thing; returns the history dict (also saved to history_path)."""
        print(f"history run ({self.mode}): seed {self.seed} (STACKWEB_NEMESIS_SEED), folder {self.folder}", flush=True)
        started = now()
        cold = None
        try:
            if self.redis is not None:
                self.redis.start()
            for instance in self.instances:
                instance.start()
                self.recorder.data["instances"][instance.id] = {"port": instance.port}
            self.warm_up()
            if self.redis is None:  # two viewers of the one instance, one slow to come back after a restart
                self.readers = [Reader(self.instances[0], self),
                                Reader(self.instances[0], self, "web-1b", slow=SLOW_VIEWER_WAIT)]
            else:
                self.readers = [Reader(instance, self) for instance in self.instances]
            self.recorder.data["readers"] = {r.label: r.instance.id for r in self.readers}
            for reader in self.readers:
                reader.start()
            poll(lambda: all(r.last_id is not None for r in self.readers), timeout=15,
                 message="every reader's first snapshot")
            monitor = threading.Thread(target=self.monitor, name="monitor", daemon=True)
            monitor.start()
            clients = [Client(n, self, random.Random(self.rng.getrandbits(64))) for n in range(1, CLIENTS + 1)]
            nemesis = Nemesis(self, random.Random(self.rng.getrandbits(64)), self.nemesis_seconds)
            if self.ack_retries is not None:
                self.ack_retries.start()
            if self.cold_readers:
                cold = ColdReaders(self, random.Random(self.rng.getrandbits(64)))
                cold.start()
            for client in clients:
                client.start()
            nemesis.start()
            self.nemesis_done.wait()
            self.stopping.wait(QUIET / 2)
            self.stopping.set()
            for client in clients:
                client.join(timeout=60)
            if cold is not None:
                cold.join(timeout=60)
            if self.ack_retries is not None:
                self.ack_retries.finish()
            if nemesis.error:
                self.recorder.note(f"nemesis error: {nemesis.error}")
            with self.lifecycle:
                self.monitor_stop.set()
            monitor.join(timeout=5)
            self.heal()
            self.settle()
            self.final_reads()
        finally:
            self.monitor_stop.set()
            self.readers_stop.set()
            for reader in self.readers:
                reader.join(timeout=25)
            for instance in self.instances:
                instance.terminate()
            if self.redis is not None:
                self.redis.kill()
            self.recorder.data["wall_seconds"] = now() - started
            self.save()
        return self.recorder.data

    def monitor(self):
        """An instance that exits by itself (not killed by the nemesis) crashed: recorded with the
        end of its log, then started again on its port, as a service manager would."""
        while not self.monitor_stop.wait(0.25):
            with self.lifecycle:
                if self.monitor_stop.is_set():
                    return
                for instance in self.instances:
                    if instance.process is None or instance.alive() or instance.killing:
                        continue
                    if instance.start_failed:  # not a new crash: its restart did not come up; again
                        try:
                            instance.start()
                            instance.start_failed = False
                        except (RuntimeError, TimeoutError):
                            pass
                        continue
                    code = instance.process.returncode
                    log = instance.log.read_text(errors="replace")
                    start = log.rfind("=== start")
                    lines = [line for line in log[start:].splitlines()
                             if "Precondition" in line or "Fatal" in line or "crashed" in line or "error" in line]
                    self.recorder.add("crashes", {"instance": instance.id, "time": now(), "returncode": code,
                                                  "log": lines[:6]})
                    try:
                        instance.start()
                    except (RuntimeError, TimeoutError) as error:
                        instance.start_failed = True
                        self.recorder.note(f"restart of crashed {instance.id} failed: {error}")

    def warm_up(self):
        """The group owns the room and every instance answers it, before the history starts."""
        poll(self.owner_id, timeout=15, message="an owner of the room")
        for instance in self.instances:
            data = poll(lambda: self._try_get(instance), timeout=15, message=f"{instance.id} to answer GET")
            self.knowledge.update(data)
        self.recorder.data["initial"] = {i.id: summary_state(self._try_get(i) or {}) for i in self.instances}

    @staticmethod
    def _try_get(instance):
        try:
            return get_room(instance.port, timeout=2.0)
        except (OSError, http.client.HTTPException, ValueError):
            return None

    def heal(self):
        """Every process running and not stopped."""
        if self.redis is not None:
            if not self.redis.alive():
                self.redis.start()
            self.redis.cont_signal()
        for instance in self.instances:
            if instance.alive():
                instance.cont_signal()
            else:
                instance.start()

    def settle(self, timeout=20):
        """Polls until an owner holds the lease, every instance answers healthy, every instance's GET and
        every reader's last event name the same seq, and nothing moved for a second."""
        started = now()
        stable_since, last = None, None
        while now() - started < timeout:
            state = self._settle_probe()
            if state is not None and state == last:
                if stable_since is None:
                    stable_since = now()
                elif now() - stable_since >= 1.0:
                    self.recorder.data["settled_after"] = now() - started
                    return True
            else:
                stable_since = None
            last = state
            time.sleep(0.2)
        self.recorder.note(f"the group did not settle within {timeout} s")
        self.recorder.data["settled_after"] = None
        return False

    def _settle_probe(self):
        owner = self.owner_id()
        if owner is None:
            return None
        seqs = []
        for instance in self.instances:
            try:
                status, _, _ = http_request(instance.port, "GET", "/healthz", timeout=2)
                if status != 200:
                    return None
                seqs.append(get_room(instance.port, timeout=2).get("seq"))
            except (OSError, http.client.HTTPException, ValueError):
                return None
        if len(set(seqs)) != 1:
            return None
        if any(r.last_id != seqs[0] for r in self.readers):
            return None
        return (owner, seqs[0])

    def final_reads(self):
        final = {"owner": self.owner_id(), "time": now(), "gets": {}}
        for instance in self.instances:
            try:
                data = get_room(instance.port, timeout=5)
                final["gets"][instance.id] = {"state": summary_state(data), "raw": data}
            except (OSError, http.client.HTTPException, ValueError) as error:
                final["gets"][instance.id] = {"error": f"{type(error).__name__}: {error}"}
        final["readers_last_id"] = {r.label: r.last_id for r in self.readers}
        self.recorder.data["final"] = final
        if self.photo_probes:
            probe_photos(self, "final")

    def save(self):
        with self.recorder.lock:
            text = json.dumps(self.recorder.data, indent=None, default=str)
        self.history_path.write_text(text)
