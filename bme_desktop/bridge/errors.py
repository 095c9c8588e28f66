"""The bridge's error shape: ``{"error": {"code": ..., "message": ...}}`` for every failure."""

from __future__ import annotations

from aiohttp import web

from ..core.errors import Conflict, NotFound, ServiceError, Unavailable, ValidationError

# The protocol's error codes, by HTTP status.
CODE_FOR_STATUS: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "bad_request",
    409: "conflict",
    413: "too_large",
    415: "bad_request",
    429: "rate_limited",
    503: "unavailable",
}


class ApiError(Exception):
    """An error the bridge answers with; ``message`` names the field or thing that was wrong."""

    def __init__(
        self, status: int, message: str, *, code: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code or code_for_status(status)
        self.message = message
        self.headers = headers or {}


def code_for_status(status: int) -> str:
    if status >= 500:
        return "unavailable" if status == 503 else "internal"
    return CODE_FOR_STATUS.get(status, "bad_request")


def bad_request(field: str, message: str) -> ApiError:
    return ApiError(400, f"{field}: {message}")


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> web.Response:
    response = web.json_response({"error": {"code": code, "message": message}}, status=status)
    response.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def from_service_error(exc: ServiceError) -> ApiError:
    """Map a core error to its HTTP status (ValidationError's message already names the field)."""
    if isinstance(exc, ValidationError):
        return ApiError(400, str(exc))
    if isinstance(exc, NotFound):
        return ApiError(404, str(exc))
    if isinstance(exc, Conflict):
        return ApiError(409, str(exc))
    if isinstance(exc, Unavailable):
        return ApiError(503, str(exc))
    return ApiError(500, "the memory core failed; see the bridge log", code="internal")
