"""Errors that name the bad value and what is accepted.

Every error a user can cause derives from :class:`DianliError`; the CLI prints its message and exits 2.
"""

from __future__ import annotations

from collections.abc import Iterable


class DianliError(Exception):
    """Base of every error that reports bad input or data to the user."""


def _accepted(accepted: Iterable[object], limit: int = 40) -> str:
    items = [str(a) for a in accepted]
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        shown += f", … ({len(items)} in all)"
    return shown


class UnknownValueError(DianliError, ValueError):
    """A value that is not one of a known set (a witness id, a section id, a rite, a place …)."""

    def __init__(self, kind: str, value: object, accepted: Iterable[object], hint: str = "") -> None:
        self.kind = kind
        self.value = value
        self.accepted = [str(a) for a in accepted]
        message = f"unknown {kind} {value!r}; accepted: {_accepted(self.accepted)}"
        if hint:
            message += f". {hint}"
        super().__init__(message)


class OutOfRangeError(DianliError, ValueError):
    """A number outside its valid range (a year before 1644, a day 32 …)."""

    def __init__(self, kind: str, value: object, valid: str) -> None:
        self.kind = kind
        self.value = value
        self.valid = valid
        super().__init__(f"{kind} {value!r} is out of range; valid: {valid}")


class DataError(DianliError):
    """Package data that does not validate: the message names the file and the element."""
