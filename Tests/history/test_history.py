"""A small Jepsen for the group (docs/scale-out.md): 3 instances and one redis-server under a
nemesis (kill -9, SIGSTOP, Redis restarts, a Redis wiped), 4 clients sending lasting commands, a
reader per instance, retries of acknowledged keys, cold readers; and a single instance with
`--state FILE` restarted (SIGTERM, kill -9) under the same clients. Each recorded history is then
checked (checks.py, README.md). About two and a half minutes and one and a half with the fixed
schedules; STACKWEB_NEMESIS_SECONDS=N runs N seconds of random faults in each instead, and
STACKWEB_HISTORY_MODE=group|single runs only one of the two (conftest.py)."""

import json

import pytest

from checks import report, run_checks
from runner import Run


def run_and_check(mode):
    run = Run(mode=mode)
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


@pytest.mark.mode("group")
def test_history_under_faults():
    run_and_check("group")


@pytest.mark.mode("single")
def test_single_instance_with_state_file_restarted():
    run_and_check("single")
