"""terragrid's exceptions: raised by the compiled module and the package alike."""

from __future__ import annotations


class ConfigError(ValueError):
    """A bad config: bad JSON, an unknown key, a value out of range, rules across keys.

    ``str(error)`` is the command line's message (one problem a line, each starting with
    ``config: ``); ``error.problems`` is the list of those lines, every problem at once.
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems: list[str] = list(problems) if problems is not None else [message]


class WindowError(ValueError):
    """A window (or region) that does not lie inside the map, or that a config needing the
    whole map (``terrain.connectivity`` ``"largest"``) cannot take."""


class LayerError(ValueError):
    """A layer this map cannot make (a water layer without hydrology), an unknown layer name,
    or another argument out of its range (``threads``)."""


class PlanError(RuntimeError):
    """A run refused before it started because the disk or memory cannot hold it (the
    command line's exit code 2). ``error.shortfalls`` lists each, one sentence a shortfall."""

    def __init__(self, message: str, shortfalls: list[str] | None = None) -> None:
        super().__init__(message)
        self.shortfalls: list[str] = list(shortfalls) if shortfalls is not None else [message]


class OutputError(OSError):
    """A run that could not write its files; the older files of the directory are as they
    were (the output transaction)."""
