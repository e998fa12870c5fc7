"""A history run: 1 redis-server, 3 instances, 4 client threads sending lasting commands (and some
reads) to random instances, one SSE reader per instance, and a nemesis injecting one fault at a time.
Everything observed is recorded with monotonic times in one dict (saved as JSON), which
`checks.py` then judges.

Environment:
  STACKWEB_BIN               the binary (default: .build/debug/stackweb of the repository)
  STACKWEB_NEMESIS_SEED      the seed of every random choice (default: drawn and printed)
  STACKWEB_NEMESIS_SECONDS   run this many seconds of random faults instead of the fixed schedule
  STACKWEB_NEMESIS=off       a control run: the same clients and readers, no faults
"""

import http.client
import json
import os
import random
import socket
import tempfile
import threading
import time
import uuid
from pathlib import Path

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

# The fixed schedule: (fault, how long it lasts) with QUIET seconds between faults.
FIXED_SCHEDULE = [
    ("kill-owner", 1.0),
    ("stop-owner", 5.0),
    ("stop-redis", 4.0),
    ("restart-redis-shutdown", 3.5),
    ("kill-nonowner", 1.0),
    ("kill-owner", 2.0),
    ("restart-redis-kill", 3.5),
    ("stop-owner", 5.0),
]
QUIET = 6.0
CALM_SECONDS = 40.0  # STACKWEB_NEMESIS=off: the load alone, for this long (or STACKWEB_NEMESIS_SECONDS)
WARMUP = 4.0
FAULTS = ["kill-owner", "stop-owner", "stop-redis", "restart-redis-shutdown", "restart-redis-kill", "kill-nonowner"]
FAULT_SECONDS = {"kill-owner": 1.0, "stop-owner": 5.0, "stop-redis": 4.0, "restart-redis-shutdown": 1.0,
                 "restart-redis-kill": 1.0, "kill-nonowner": 1.0}


def now():
    return time.monotonic()


class Recorder:
    """The run's history: a dict of lists, appended to under one lock."""

    def __init__(self, seed, mode):
        self.lock = threading.Lock()
        self.t0 = now()
        self.data = {"seed": seed, "mode": mode, "room": ROOM, "t0": self.t0, "instances": {}, "commands": [],
                     "reads": [], "events": [], "connections": [], "faults": [], "crashes": [], "final": {},
                     "notes": []}

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
        record = {"client": self.number, "key": key, "command": body, "attempts": [], "start": now()}
        for attempt in range(1 + RETRIES):
            instance = self.pick_instance()
            entry = {"instance": instance.id, "start": now()}
            try:
                status, headers, text = http_request(
                    instance.port, "POST", f"/api/rooms/{ROOM}/commands", body, {"Idempotency-Key": key})
                entry.update(status=status, body=text[:500], retry_after=headers.get("retry-after"))
            except (OSError, http.client.HTTPException) as error:
                status, headers = None, {}
                entry.update(status=None, error=f"{type(error).__name__}: {error}"[:200])
            entry["end"] = now()
            record["attempts"].append(entry)
            if status in (503, 504) or status is None:
                if run.stopping.is_set() and attempt >= 1:
                    break
                delay = 0.3
                try:
                    delay = min(1.0, float(headers.get("retry-after", 0.3)))
                except ValueError:
                    pass
                time.sleep(delay + self.rng.uniform(0, 0.2))
                continue
            break
        record["end"] = now()
        run.recorder.add("commands", record)

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


# --- SSE readers --------------------------------------------------------------------------------------


class Reader(threading.Thread):
    """One viewer of one instance: records every event; when the stream ends, connects again to the
    same instance with Last-Event-ID (the last id it saw), and records the resume."""

    def __init__(self, instance, run):
        super().__init__(name=f"reader-{instance.id}", daemon=True)
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
                self.run_.recorder.note(f"reader {self.instance.id}: {type(error).__name__}: {error}")
            self.run_.readers_stop.wait(0.2)

    def stream(self):
        run = self.run_
        self.connection_number += 1
        number = self.connection_number
        record = {"reader": self.instance.id, "connection": number, "resume_from": self.last_id, "start": now(),
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
        entry = {"reader": self.instance.id, "connection": number, "time": now(), "id": event_id,
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
        if self.seconds is None:
            for fault, duration in FIXED_SCHEDULE:
                self.inject(fault, duration)
                if run.stopping.wait(QUIET):
                    return
            return
        deadline = now() + self.seconds
        while now() < deadline and not run.stopping.is_set():
            fault = self.rng.choice(FAULTS)
            duration = FAULT_SECONDS[fault] * self.rng.uniform(0.8, 1.6)
            if fault == "stop-owner":
                duration = max(duration, LEASE_SECONDS + 1.5)
            self.inject(fault, duration)
            run.stopping.wait(self.rng.uniform(3.0, 8.0))

    def owner(self):
        """The owner named by the lease, waiting (polling) up to 6 s for one to exist."""
        run = self.run_
        try:
            owner_id = poll(run.redis.owner, timeout=6, interval=0.1, message="a lease holder")
        except TimeoutError:
            return None
        return next((i for i in run.instances if i.id == owner_id), None)

    def inject(self, fault, duration):
        run = self.run_
        record = {"fault": fault, "start": now(), "duration": duration}
        if fault in ("kill-owner", "stop-owner", "kill-nonowner"):
            owner = self.owner()
            if owner is None:
                record["skipped"] = "no owner in Redis"
                record["end"] = now()
                run.recorder.add("faults", record)
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
        record["end"] = now()
        run.recorder.add("faults", record)


# --- The run ------------------------------------------------------------------------------------------


class Run:
    def __init__(self, seed=None, nemesis_seconds=None, folder=None, binary=None):
        if seed is None:
            seed = int(os.environ.get("STACKWEB_NEMESIS_SEED") or random.SystemRandom().randrange(1, 2**31))
        if nemesis_seconds is None and os.environ.get("STACKWEB_NEMESIS_SECONDS"):
            nemesis_seconds = float(os.environ["STACKWEB_NEMESIS_SECONDS"])
        self.seed = seed
        self.nemesis_seconds = nemesis_seconds
        self.folder = Path(folder or tempfile.mkdtemp(prefix="stackweb-history-"))
        self.rng = random.Random(seed)
        mode = "off" if os.environ.get("STACKWEB_NEMESIS") == "off" else "random" if nemesis_seconds else "fixed"
        self.recorder = Recorder(seed, mode)
        self.knowledge = Knowledge()
        self.redis = Redis(self.folder)
        self.instances = [Instance(n, self.folder, self.redis, PHOTOS, binary) for n in range(1, INSTANCES + 1)]
        self.stopping = threading.Event()
        # Held by the nemesis while it kills and restarts a process, so the crash monitor does not
        # take a kill for a crash.
        self.lifecycle = threading.Lock()
        self.readers_stop = threading.Event()
        self.nemesis_done = threading.Event()
        self.readers = []
        self.monitor_stop = threading.Event()

    @property
    def history_path(self):
        return self.folder / "history.json"

    def execute(self):
        """Runs the whole thing; returns the history dict (also saved to history_path)."""
        print(f"history run: seed {self.seed} (STACKWEB_NEMESIS_SEED), folder {self.folder}", flush=True)
        started = now()
        try:
            self.redis.start()
            for instance in self.instances:
                instance.start()
                self.recorder.data["instances"][instance.id] = {"port": instance.port}
            self.warm_up()
            self.readers = [Reader(instance, self) for instance in self.instances]
            for reader in self.readers:
                reader.start()
            poll(lambda: all(r.last_id is not None for r in self.readers), timeout=15,
                 message="every reader's first snapshot")
            monitor = threading.Thread(target=self.monitor, name="monitor", daemon=True)
            monitor.start()
            clients = [Client(n, self, random.Random(self.rng.getrandbits(64))) for n in range(1, CLIENTS + 1)]
            nemesis = Nemesis(self, random.Random(self.rng.getrandbits(64)), self.nemesis_seconds)
            for client in clients:
                client.start()
            nemesis.start()
            self.nemesis_done.wait()
            self.stopping.wait(QUIET / 2)
            self.stopping.set()
            for client in clients:
                client.join(timeout=60)
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
        poll(self.redis.owner, timeout=15, message="an owner of the room")
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
        owner = self.redis.owner()
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
        final = {"owner": self.redis.owner(), "time": now(), "gets": {}}
        for instance in self.instances:
            try:
                data = get_room(instance.port, timeout=5)
                final["gets"][instance.id] = {"state": summary_state(data), "raw": data}
            except (OSError, http.client.HTTPException, ValueError) as error:
                final["gets"][instance.id] = {"error": f"{type(error).__name__}: {error}"}
        final["readers_last_id"] = {r.instance.id: r.last_id for r in self.readers}
        self.recorder.data["final"] = final

    def save(self):
        with self.recorder.lock:
            text = json.dumps(self.recorder.data, indent=None, default=str)
        self.history_path.write_text(text)
