"""One HTTP request with its retries, on urllib (the standard library only).

A request is sent with the same bytes and headers (so the same Idempotency-Key) on every attempt. Retried:
429, 502, 503, 504 and network failures (refused, reset, timed out), after exponential backoff with jitter or
the service's Retry-After (seconds or an HTTP-date) when it gives one. Never retried: any other status (4xx other
than 429 are the caller's to fix; 500 is an answer). A Retry-After longer than max_retry_delay is not waited
for: the answer is returned at once and the caller's error carries retry_after.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional

from .errors import ApiError, ServiceUnreachable

RETRY_STATUSES = frozenset({429, 502, 503, 504})
USER_AGENT = "agent-ledger-python/0.1.0"


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    body: bytes
    _json: Any = field(default=None, repr=False)

    def json(self) -> Any:
        if self._json is None and self.body:
            try:
                self._json = json.loads(self.body.decode("utf-8"))
            except ValueError:
                self._json = None
        return self._json

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name) if self.headers is not None else None

    def error(self) -> ApiError:
        problem = self.json()
        return ApiError(
            self.status,
            problem if isinstance(problem, dict) else None,
            retry_after=parse_retry_after(self.header("Retry-After")),
            request_id=self.header("X-Request-Id"),
            body=self.body[:2000].decode("utf-8", "replace"),
        )


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as it is: urllib would replay a POST as a GET without its body."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds from now: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); None when absent or bad."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:  # "-0000" dates: UTC
        import datetime as _dt

        when = when.replace(tzinfo=_dt.timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class Transport:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float,
        max_retries: int,
        retry_base: float,
        max_retry_delay: float,
        on_retry: Optional[Callable[[], None]] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_base = retry_base
        self.max_retry_delay = max_retry_delay
        self._on_retry = on_retry
        self._sleep = sleep
        self._opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        raw_body: Optional[bytes] = None,
        headers: Optional[Dict[str, str]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        retry_network: bool = True,
        should_stop: Optional[Callable[[], bool]] = None,
    ) -> Response:
        """Sends the request, retrying as the module says; returns the last answer whatever its status.
        Raises ServiceUnreachable when no attempt got an answer."""
        data = raw_body if raw_body is not None else (encode(body) if body is not None else None)
        hdrs = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        hdrs.update(headers or {})
        retries = self.max_retries if max_retries is None else max_retries
        url = self.base_url + path
        attempt = 0
        while True:
            res: Optional[Response] = None
            failure: Optional[BaseException] = None
            try:
                res = self._once(method, url, data, hdrs, self.timeout if timeout is None else timeout)
            except (OSError, http.client.HTTPException) as err:
                # Refused, reset, timed out: the request may or may not have arrived (the key makes a retry safe).
                failure = err
            if res is not None and res.status not in RETRY_STATUSES:
                return res
            retry_after = parse_retry_after(res.header("Retry-After")) if res is not None else None
            give_up = (
                attempt >= retries
                or (res is None and not retry_network)
                or (retry_after is not None and retry_after > self.max_retry_delay)
                or (should_stop is not None and should_stop())
            )
            if give_up:
                if res is not None:
                    return res
                raise ServiceUnreachable(
                    f"agent-ledger at {self.base_url} could not be reached after {attempt + 1} attempt(s): {describe(failure)}",
                    attempts=attempt + 1,
                ) from failure
            if self._on_retry is not None:
                self._on_retry()
            self._sleep(self.delay(attempt, retry_after))
            attempt += 1

    def delay(self, attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_delay)
        backoff = self.retry_base * (2**attempt)
        # Equal jitter: at least half the step, so clients that failed together do not retry together.
        return min(self.max_retry_delay, backoff / 2 + random.random() * backoff / 2)

    def _once(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str], timeout: float) -> Response:
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with self._opener.open(req, timeout=timeout) as r:
                return Response(r.status, r.headers, r.read())
        except urllib.error.HTTPError as e:
            try:
                body = e.read()
            except (OSError, http.client.HTTPException):
                body = b""
            finally:
                e.close()
            return Response(e.code, e.headers, body)


def encode(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def describe(err: Optional[BaseException]) -> str:
    if err is None:
        return "no answer"
    if isinstance(err, urllib.error.URLError) and not isinstance(err, urllib.error.HTTPError):
        return f"{type(err.reason).__name__}: {err.reason}" if isinstance(err.reason, BaseException) else str(err.reason)
    return f"{type(err).__name__}: {err}"
