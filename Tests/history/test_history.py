"""A small Jepsen for the group (docs/scale-out.md): 3 instances and one redis-server under a
nemesis (kill -9, SIGSTOP, Redis restarts), 4 clients sending lasting commands, a reader per
instance; the recorded history is then checked (checks.py, README.md). About two minutes with the
fixed fault schedule; STACKWEB_NEMESIS_SECONDS=N runs N seconds of random faults instead."""

import json

from checks import report, run_checks
from runner import Run


def test_history_under_faults():
    run = Run()
    data = run.execute()
    results = run_checks(data)
    summary = report(data, results, examples=2)
    (run.folder / "checks.json").write_text(json.dumps(
        {name: {"violations": v, "info": i} for name, (v, i) in results.items()}, default=str, indent=1))
    print(summary)
    print(f"history saved: {run.history_path} (violations: {run.folder / 'checks.json'})")
    failed = {name: len(v) for name, (v, _) in results.items() if v}
    notes = [n["text"] for n in data["notes"] if "nemesis" in n["text"]]
    assert not notes, f"the run itself went wrong: {notes}"
    assert not failed, f"violations per check: {failed}\n{summary}\nhistory: {run.history_path}"
