"""Errors the service raises; the bridge maps each to an HTTP status and error code."""

from __future__ import annotations


class ServiceError(Exception):
    code = "internal"


class ValidationError(ServiceError):
    """Bad input. ``field`` names what was wrong (``messages[3].index``)."""

    code = "bad_request"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class NotFound(ServiceError):
    code = "not_found"

    def __init__(self, what: str) -> None:
        super().__init__(what)


class Conflict(ServiceError):
    code = "conflict"


class Unavailable(ServiceError):
    code = "unavailable"


class StoreError(Exception):
    """A database problem a user can act on: the message names the problem and the file."""
