"""What the page posts: a record of its fetch calls, kept by the test, not by the page.

The page calls the global `fetch` each time it posts; wrapping it from the test sees every body as
the page sent it, and the status the server answered, without any hook in the page itself.
"""

import json
from contextlib import contextmanager

from .waiting import wait_until

# Installed once per page (at its start, when asked for before it loads); `_CLEAR` empties it.
_INSTALL = """
if (!window.__e2eRequests) {
  window.__e2eRequests = [];
  const realFetch = window.fetch;
  window.fetch = async (resource, init = {}) => {
    const entry = {url: String(resource), method: init.method || 'GET', body: init.body ?? null,
                   headers: init.headers || {}, status: null};
    window.__e2eRequests.push(entry);
    try {
      const response = await realFetch(resource, init);
      entry.status = response.status;
      return response;
    } catch (error) {
      entry.status = 0;
      throw error;
    }
  };
}
"""
_CLEAR = "window.__e2eRequests.length = 0;"


@contextmanager
def logged_from_load(driver):
    """Within it, every page the tab loads records its POSTs from its very first line on (for what a
    page posts while it starts); read them with `RequestLog(driver, clear=False)`."""
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _INSTALL})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


class RequestLog:
    """The POSTs the page makes from now on, with their JSON bodies and answers."""

    def __init__(self, driver, clear=True):
        self._driver = driver
        driver.execute_script(_INSTALL + (_CLEAR if clear else ""))

    def posts(self, path_end):
        """[{url, body (parsed), headers, status}] of the POSTs to URLs ending in `path_end`."""
        entries = self._driver.execute_script("return window.__e2eRequests.slice()")
        return [
            {**entry, "body": json.loads(entry["body"]) if entry["body"] else None}
            for entry in entries
            if entry["method"] == "POST" and entry["url"].split("?")[0].endswith(path_end)
        ]

    def commands(self):
        return self.posts("/commands")

    def pointer_events(self):
        """Every pointer sample posted, in order, flattened out of their batches."""
        return [event for post in self.posts("/pointer") for event in post["body"]["events"]]

    def wait_for_commands(self, count, message="commands posted"):
        """Waits until `count` commands have been posted and answered; returns them."""
        return wait_until(self.commands, lambda posts: len(posts) >= count and all(p["status"] for p in posts[:count]),
                          message=f"{count} {message}")
