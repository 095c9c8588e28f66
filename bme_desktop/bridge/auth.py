"""Bearer-token checks, in constant time."""

from __future__ import annotations

import hmac
from collections.abc import Callable

from aiohttp import web

from .errors import ApiError

TokenGetter = Callable[[], str]
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="bme-desktop"'}


def token_matches(given: str | None, expected: str) -> bool:
    """True when ``given`` is the token. Always compares the full length (no early exit)."""
    if not given or not expected:
        return False
    try:
        given_bytes = given.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(given_bytes, expected.encode("utf-8"))


def bearer_token(request: web.Request) -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip() or None


def require_token(request: web.Request, expected: str) -> None:
    given = bearer_token(request)
    if given is None:
        if "Authorization" in request.headers:
            raise ApiError(401, "Authorization: must be 'Bearer <token>'", headers=CHALLENGE)
        raise ApiError(
            401,
            "Authorization: the bridge token is required ('Authorization: Bearer <token>'; "
            "`bme-desktop token` prints it)",
            headers=CHALLENGE,
        )
    if not token_matches(given, expected):
        raise ApiError(401, "Authorization: the token is wrong", headers=CHALLENGE)
