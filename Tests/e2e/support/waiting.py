"""Polling with a deadline. The tests never sleep for a result: they ask until it is there."""

import time

DEFAULT_TIMEOUT = 10.0
POLL_INTERVAL = 0.05


class Timeout(AssertionError):
    """A condition that did not hold in time; an AssertionError so pytest reports it as a failure."""


def wait_until(read, accept=bool, timeout=DEFAULT_TIMEOUT, message="condition", interval=POLL_INTERVAL):
    """Calls `read()` until `accept` holds for its answer, and returns that answer.

    On timeout the failure names `message` and shows the last answer, which is usually what tells
    a reader why the test failed (the server's `current`, where the card actually was, …).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if accept(value):
            return value
        if time.monotonic() >= deadline:
            raise Timeout(f"timed out after {timeout:.1f} s waiting for {message}; last value: {_short(value)}")
        time.sleep(interval)


def _short(value, limit=600):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + " …"


def wait_until_steady(read, quiet=0.5, timeout=DEFAULT_TIMEOUT, message="a steady value"):
    """Waits until `read()` has answered the same value for `quiet` seconds, and returns it.

    For things that settle rather than arrive, such as the frame counter after photos decode.
    """
    deadline = time.monotonic() + timeout
    value = read()
    since = time.monotonic()
    while True:
        time.sleep(POLL_INTERVAL)
        now = time.monotonic()
        current = read()
        if current != value:
            value, since = current, now
        elif now - since >= quiet:
            return value
        if now >= deadline:
            raise Timeout(f"timed out after {timeout:.1f} s waiting for {message}; last value: {value!r}")
