"""One HTTP connection pool per endpoint, applying :class:`HttpPolicy` to every call.

Used by both the chat client and the embedding client, so retries, timeouts, cancellation,
error mapping and log redaction exist once. Synchronous (``httpx.Client``): the core runs
model calls in worker threads. Cancellation is a ``threading.Event`` checked before each
attempt, during retry sleeps and between reads.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from .errors import LLMBadResponse, LLMCancelled, LLMConnectionError, LLMError, LLMHTTPError, LLMTimeout
from .http_policy import Deadline, HttpPolicy, is_retryable_status, parse_retry_after
from .redaction import excerpt, redact_headers

_ERROR_BODY_LIMIT = 64 * 1024


def normalize_base_url(base_url: str) -> str:
    """``http://host:11434`` -> ``http://host:11434/v1``; a pasted ``.../chat/completions`` or
    ``.../embeddings`` suffix and trailing slashes are dropped."""
    url = base_url.strip().rstrip("/")
    for suffix in ("/chat/completions", "/embeddings", "/models"):
        if url.endswith(suffix):
            url = url[: -len(suffix)]
    parts = urlsplit(url)
    if parts.path in ("", "/"):
        parts = parts._replace(path="/v1")
    return urlunsplit(parts)


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise LLMCancelled("cancelled by caller")


class HttpSession:
    """Policy-applying JSON-over-HTTP session for one OpenAI-compatible base URL."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        extra_headers: Mapping[str, str],
        policy: HttpPolicy,
        logger: logging.Logger,
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.policy = policy
        self._log = logger
        self._rng = rng or random.Random()
        headers = {"Accept": "application/json", **dict(extra_headers)}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._headers = headers
        self._client = httpx.Client(headers=headers, follow_redirects=True)

    def close(self) -> None:
        self._client.close()

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    # -- public calls ---------------------------------------------------------------------
    def request_json(
        self,
        method: str,
        path: str,
        payload: Any = None,
        *,
        cancel: threading.Event | None = None,
        retries: bool = True,
        timeout: float | None = None,
        summary: str = "",
    ) -> Any:
        """Send one request (with retries) and return the decoded JSON body.

        ``timeout`` overrides the policy's ``total_timeout`` for this call.
        """
        deadline = Deadline(self.policy.total_timeout if timeout is None else timeout)
        response = self._send(
            method, path, payload, deadline, cancel, idle=None, retries=retries, summary=summary
        )
        try:
            body = b"".join(self._iter_bytes(response, deadline, cancel))
        finally:
            response.close()
        try:
            return json.loads(body)
        except ValueError as exc:
            raise LLMBadResponse(
                f"{method} {path}: body is not JSON ({len(body)} bytes)",
                raw_excerpt=excerpt(body.decode("utf-8", "replace")),
            ) from exc

    @contextmanager
    def stream_lines(
        self, path: str, payload: Any, *, cancel: threading.Event | None = None, summary: str = ""
    ) -> Iterator[Iterator[str]]:
        """POST and yield an iterator over the response's text lines (for SSE).

        Retries happen only until the response status arrives. Inside the iterator a gap of
        ``idle_timeout`` raises :class:`LLMTimeout`, the hard deadline raises
        :class:`LLMTimeout`, a connection cut raises :class:`LLMBadResponse`.
        """
        deadline = Deadline(self.policy.total_timeout)
        response = self._send(
            "POST",
            path,
            payload,
            deadline,
            cancel,
            idle=self.policy.idle_timeout,
            retries=True,
            summary=summary,
        )
        try:
            yield self._iter_lines(response, deadline, cancel)
        finally:
            response.close()

    # -- internals ------------------------------------------------------------------------
    def _timeout(self, deadline: Deadline, idle: float | None) -> httpx.Timeout:
        left = max(deadline.remaining(), 0.001)
        read = left if idle is None else min(idle, left)
        return httpx.Timeout(connect=min(self.policy.connect_timeout, left), read=read, write=left, pool=left)

    def _send(
        self,
        method: str,
        path: str,
        payload: Any,
        deadline: Deadline,
        cancel: threading.Event | None,
        *,
        idle: float | None,
        retries: bool,
        summary: str,
    ) -> httpx.Response:
        url = self.url(path)
        max_retries = self.policy.max_retries if retries else 0
        attempt = 0
        while True:
            check_cancel(cancel)
            if deadline.expired():
                raise LLMTimeout(f"{method} {url}: no answer within {deadline.seconds:g}s")
            self._log.debug(
                "%s %s attempt %d headers=%s payload=%s",
                method,
                url,
                attempt + 1,
                redact_headers(self._headers),
                summary or "-",
            )
            error: LLMError
            delay: float | None = None
            try:
                request = self._client.build_request(
                    method, url, json=payload, timeout=self._timeout(deadline, idle)
                )
                response = self._client.send(request, stream=True)
            except httpx.ConnectTimeout as exc:
                error = LLMConnectionError(f"{method} {url}: connect timed out ({exc.__class__.__name__})")
            except httpx.TimeoutException as exc:
                what = (
                    f"no data for {idle:g}s"
                    if idle is not None and deadline.remaining() > 0
                    else (f"no answer within {deadline.seconds:g}s")
                )
                raise LLMTimeout(f"{method} {url}: {what}") from exc
            except httpx.TransportError as exc:
                error = LLMConnectionError(f"{method} {url}: {exc.__class__.__name__}: {excerpt(str(exc))}")
            else:
                if response.status_code < 400:
                    return response
                error, delay = self._http_error(response)
                if not is_retryable_status(response.status_code):
                    raise error
            if attempt >= max_retries:
                raise error
            wait = delay if delay is not None else self.policy.backoff_delay(attempt, self._rng)
            if wait >= deadline.remaining():
                raise error
            self._log.warning(
                "%s %s failed (%s); retry %d/%d in %.2fs", method, url, error, attempt + 1, max_retries, wait
            )
            self._sleep(wait, cancel)
            attempt += 1

    def _http_error(self, response: httpx.Response) -> tuple[LLMHTTPError, float | None]:
        try:
            body = response.read()[:_ERROR_BODY_LIMIT].decode("utf-8", "replace")
        except httpx.HTTPError:
            body = ""
        finally:
            response.close()
        retry_after = parse_retry_after(response.headers.get("retry-after"), cap=self.policy.retry_after_max)
        return LLMHTTPError(response.status_code, excerpt(body), retry_after=retry_after), retry_after

    @staticmethod
    def _sleep(seconds: float, cancel: threading.Event | None) -> None:
        if cancel is None:
            time.sleep(seconds)
        elif cancel.wait(seconds):
            raise LLMCancelled("cancelled by caller")

    def _iter_bytes(
        self, response: httpx.Response, deadline: Deadline, cancel: threading.Event | None
    ) -> Iterator[bytes]:
        with self._mapped_read_errors(deadline, idle=None):
            for chunk in response.iter_bytes():
                check_cancel(cancel)
                if deadline.expired():
                    raise LLMTimeout(f"response body not complete within {deadline.seconds:g}s")
                yield chunk

    def _iter_lines(
        self, response: httpx.Response, deadline: Deadline, cancel: threading.Event | None
    ) -> Iterator[str]:
        with self._mapped_read_errors(deadline, idle=self.policy.idle_timeout):
            for line in response.iter_lines():
                check_cancel(cancel)
                if deadline.expired():
                    raise LLMTimeout(f"stream not complete within {deadline.seconds:g}s")
                yield line

    @staticmethod
    @contextmanager
    def _mapped_read_errors(deadline: Deadline, *, idle: float | None) -> Iterator[None]:
        try:
            yield
        except httpx.TimeoutException as exc:
            if idle is None or deadline.expired():
                raise LLMTimeout(f"response not complete within {deadline.seconds:g}s") from exc
            raise LLMTimeout(f"no data from server for {idle:g}s (stream idle)") from exc
        except httpx.TransportError as exc:
            raise LLMBadResponse(f"connection cut mid-response: {exc.__class__.__name__}") from exc
