"""Helpers shared by the end-to-end tests: the server process, the browser page, stage mapping, polling."""
