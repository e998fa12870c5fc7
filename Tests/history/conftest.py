"""A random nemesis run (STACKWEB_NEMESIS_SECONDS) gets its seconds on top of pytest-timeout's 300;
STACKWEB_HISTORY_MODE=group|single keeps only the run of that mode (the other is deselected)."""

import os


def pytest_configure(config):
    config.addinivalue_line("markers", "mode(name): the history run's mode, group or single")


def pytest_collection_modifyitems(config, items):
    seconds = float(os.environ.get("STACKWEB_NEMESIS_SECONDS") or 0)
    if seconds:
        import pytest
        for item in items:
            item.add_marker(pytest.mark.timeout(300 + int(seconds * 1.5)))
    mode = os.environ.get("STACKWEB_HISTORY_MODE")
    if mode:
        kept = [i for i in items if not i.get_closest_marker("mode") or i.get_closest_marker("mode").args[0] == mode]
        deselected = [i for i in items if i not in kept]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = kept
