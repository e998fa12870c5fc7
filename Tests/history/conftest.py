"""A random nemesis run (STACKWEB_NEMESIS_SECONDS) gets its seconds on top of pytest-timeout's 300."""

import os


def pytest_collection_modifyitems(config, items):
    seconds = float(os.environ.get("STACKWEB_NEMESIS_SECONDS") or 0)
    if seconds:
        import pytest
        for item in items:
            item.add_marker(pytest.mark.timeout(300 + int(seconds * 1.5)))
