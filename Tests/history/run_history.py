"""Runs one history (or checks a saved one) and prints the summary.

  python3 Tests/history/run_history.py                 a run (fixed schedule, or STACKWEB_NEMESIS_SECONDS),
                                                       of the group, or STACKWEB_HISTORY_MODE=single
  python3 Tests/history/run_history.py --check FILE    the checks again over a saved history.json
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from checks import report, run_checks  # noqa: E402
from runner import Run  # noqa: E402


def main(argv):
    examples = 2
    if len(argv) >= 2 and argv[0] == "--check":
        data = json.loads(Path(argv[1]).read_text())
    else:
        run = Run()
        data = run.execute()
        print(f"history saved: {run.history_path}")
    results = run_checks(data)
    print(report(data, results, examples=examples))
    return 1 if any(violations for violations, _ in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
