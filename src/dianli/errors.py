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


class OutputPathError(DianliError):
    """An output file that cannot be written (a missing folder, no permission, a directory …).

    The message names the path and the system's reason, and says what is accepted.
    """

    ACCEPTED = "a file path in an existing, writable folder"

    def __init__(self, path: object, reason: OSError) -> None:
        self.path = str(path)
        self.reason = reason.strerror or str(reason)
        super().__init__(f"cannot write {self.path}: {self.reason}; accepted: {self.ACCEPTED}")


class DataError(DianliError):
    """Package data that does not validate: the message names the file and the element."""


class QingRuleEndedError(DianliError):
    """A year after Qing rule over a place ended (a ceded territory): there is no Qing ceremony there.

    The message names the unit, the year, the event that ended Qing rule with its date and its source.
    ``valid`` is the range of years the unit has, as for :class:`OutOfRangeError`.
    """

    def __init__(self, place: str, year: int, last_year: int, event: str, valid: str) -> None:
        self.place = place
        self.year = year
        self.last_year = last_year
        self.event = event
        self.valid = valid
        super().__init__(
            f"{place} in {year}: Qing rule there ended in {last_year} — {event}; valid years: {valid}"
        )
