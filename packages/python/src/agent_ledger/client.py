"""agent_ledger.Client: record what an agent does and gate its tool calls.

- record() / rogue(): one event, sent now, answered with the verdict (the call to make in enforced mode, before
  the tool runs);
- enqueue() / enqueue_rogue(): queued, sent in batches by a background thread; flush() and close() wait for them;
- guard() / async_guard(): wrap a tool function so that each call is recorded in enforced mode and obeys the
  verdict (allow: it runs and its output is recorded after; deny: ToolCallDenied; a hold: it waits for a person);
- approvals: get_approval(), wait_for_approval(), approvals(), decide().

Every event write carries an idempotency key that stays the same across its retries (the Idempotency-Key header,
or the batch item's event_id), so a retry after a lost answer never records twice.
"""

from __future__ import annotations

import atexit
import datetime as _dt
import logging
import math
import re
import threading
import time
import urllib.parse
import uuid
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, TypeVar

from . import _http
from ._batcher import Batcher, DropReport, QueuedEvent
from .errors import ApiError, ServiceUnreachable

log = logging.getLogger("agent_ledger")

INVOCATION_PATH = "/api/v1/admin/agents/events/invocation"
ROGUE_PATH = "/api/v1/admin/agents/events/rogue"
BATCH_PATH = "/api/v1/admin/agents/events/batch"
#: POST: a call's result attached to the invocation recorded for it, as its tool_output.
OUTPUT_PATH = "/api/v1/invocations/{}/output"
#: The batch endpoint takes up to 4 MiB; a batch is split before it gets there.
BATCH_MAX_BYTES = 3_800_000
#: The service answers a long poll after at most 60 s.
MAX_WAIT_SECONDS = 60
#: Batch slots worth another attempt: nothing of them was stored.
RETRY_SLOT_STATUSES = frozenset({429, 500, 502, 503, 504})

F = TypeVar("F", bound=Callable[..., Any])


def parse_time(value: Any) -> Optional[_dt.datetime]:
    """An RFC 3339 timestamp as an aware datetime (Python 3.9's fromisoformat takes neither Z nor 1-5 digit fractions)."""
    if not isinstance(value, str):
        return None
    m = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$", value.strip(), re.IGNORECASE)
    if not m:
        return None
    frac = (m.group(2) or "0")[:6].ljust(6, "0")
    tz = "+00:00" if m.group(3).upper() == "Z" else m.group(3)
    return _dt.datetime.fromisoformat(f"{m.group(1)}.{frac}{tz}")


@dataclass(frozen=True)
class Approval:
    """A held call's approval: status "pending", "approved", "denied" or "expired"."""

    approval_id: str
    status: str
    expires_at: Optional[_dt.datetime]
    invocation_id: Optional[int] = None
    agent_key: Optional[str] = None
    tool_name: Optional[str] = None
    created_at: Optional[_dt.datetime] = None
    decided_by: Optional[str] = None
    decided_at: Optional[_dt.datetime] = None
    note: Optional[str] = None
    evidence_id: Optional[int] = None
    decision_evidence_id: Optional[int] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def pending(self) -> bool:
        return self.status == "pending"

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Approval":
        return cls(
            approval_id=str(d.get("approval_id")),
            status=str(d.get("status")),
            expires_at=parse_time(d.get("expires_at")),
            invocation_id=d.get("invocation_id"),
            agent_key=d.get("agent_key"),
            tool_name=d.get("tool_name"),
            created_at=parse_time(d.get("created_at")),
            decided_by=d.get("decided_by"),
            decided_at=parse_time(d.get("decided_at")),
            note=d.get("note"),
            evidence_id=d.get("evidence_id"),
            decision_evidence_id=d.get("decision_evidence_id"),
            raw=dict(d),
        )


@dataclass(frozen=True)
class Verdict:
    """The service's answer to a recorded invocation (201)."""

    invocation_id: int
    tenant_id: str
    #: "allow", "flag_for_review" or "deny".
    verdict: str
    evidence_id: Optional[int]
    pii_count: Optional[int]
    #: Present when a hold rule held the call (enforced mode): wait for its decision before acting.
    approval: Optional[Approval]
    #: Enforced mode: the ids of the rules that made the verdict ("default" when none fired); None otherwise.
    reasons: Optional[List[str]] = None
    #: True when this answer is the replay of an earlier request with the same idempotency key.
    replayed: bool = False
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def allowed(self) -> bool:
        """The call may go ahead now: allow, or flag_for_review without a hold (a person looks later)."""
        return self.verdict != "deny" and self.approval is None

    @property
    def denied(self) -> bool:
        return self.verdict == "deny"

    @property
    def held(self) -> bool:
        return self.approval is not None

    @classmethod
    def from_json(cls, d: Dict[str, Any], replayed: bool = False) -> "Verdict":
        approval = d.get("approval")
        return cls(
            invocation_id=int(d["invocation_id"]),
            tenant_id=str(d.get("tenant_id")),
            verdict=str(d.get("verdict")),
            evidence_id=d.get("evidence_id"),
            pii_count=d.get("pii_count"),
            approval=Approval.from_json(approval) if isinstance(approval, dict) else None,
            reasons=[str(r) for r in d["reasons"]] if isinstance(d.get("reasons"), list) else None,
            replayed=replayed,
            raw=dict(d),
        )


# Clients still open at exit: their queues are sent before the interpreter goes (close_timeout each).
_open_clients: "weakref.WeakSet[Client]" = weakref.WeakSet()


@atexit.register
def _close_all_at_exit() -> None:
    for client in list(_open_clients):
        try:
            client.close(timeout=client.close_timeout)
        except Exception:  # pragma: no cover - exiting anyway
            log.exception("agent-ledger: closing at exit failed")


def _default_on_drop(report: DropReport) -> None:
    log.warning(
        "agent-ledger: %d event(s) not recorded (%s)%s",
        len(report.events),
        report.reason,
        f": {report.error}" if report.error else "",
    )


class Client:
    """A client of one agent-ledger service.

    url: the service, e.g. "https://ledger.example.com" (no /api). token: an ingress token (svc_ingress_…, the
    agent's: event endpoints and its own approvals) or an API token (svc_live_…). agent_key: the default agent of
    record(), enqueue() and guard(). timeout: seconds per attempt. Retries (max_retries after the first attempt,
    backoff from retry_base seconds, doubled per retry with jitter, at most max_retry_delay) apply to 429, 502,
    503, 504 and network failures, honouring Retry-After.

    The queue of enqueue(): batch_size events a request (at most 500), sent at least every flush_interval seconds,
    at most max_queue waiting; when full, when_full="drop" drops the new event (reported to on_drop),
    when_full="block" makes enqueue() wait for room. close() (also at exit, up to close_timeout seconds) sends
    what is queued.

    on_unreachable: what a guarded call does when the service cannot be asked — "deny" (the default: fail
    closed, LedgerUnreachable) or "allow" (run unrecorded, with a warning on the "agent_ledger" logger).
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        agent_key: Optional[str] = None,
        timeout: float = 10.0,
        max_retries: int = 5,
        retry_base: float = 0.2,
        max_retry_delay: float = 30.0,
        batch_size: int = 100,
        flush_interval: float = 1.0,
        max_queue: int = 10_000,
        when_full: str = "drop",
        on_drop: Optional[Callable[[DropReport], None]] = None,
        on_unreachable: str = "deny",
        correlation_id: Optional[str] = None,
        poll_seconds: float = 30.0,
        close_timeout: float = 10.0,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError("url must start with http:// or https://")
        if on_unreachable not in ("deny", "allow"):
            raise ValueError('on_unreachable must be "deny" or "allow"')
        if not 1 <= batch_size <= 500:
            raise ValueError("batch_size must be 1-500 (the batch endpoint takes up to 500 events)")
        self.url = url.rstrip("/")
        self.agent_key = agent_key
        self.on_unreachable = on_unreachable
        self.correlation_id = correlation_id
        self.poll_seconds = max(1.0, min(float(MAX_WAIT_SECONDS), poll_seconds))
        self.close_timeout = close_timeout
        self._stats_lock = threading.Lock()
        self._stats = {"sent": 0, "dropped": 0, "retries": 0}
        self._transport = _http.Transport(
            self.url,
            token,
            timeout=timeout,
            max_retries=max_retries,
            retry_base=retry_base,
            max_retry_delay=max_retry_delay,
            on_retry=lambda: self._count("retries"),
        )
        self._on_drop = on_drop or _default_on_drop
        self._has_batch: Optional[bool] = None
        #: False once the service answered that it has no attach endpoint (older versions).
        self._can_attach = True
        self._batcher = Batcher(
            self._send_batch,
            self._drop,
            batch_size=batch_size,
            flush_interval=flush_interval,
            max_queue=max_queue,
            when_full=when_full,
        )
        self._executor_lock = threading.Lock()
        self._executor: Any = None
        self._closed = False
        _open_clients.add(self)

    # ------------------------------------------------------------------ single events

    def record(
        self,
        tool_name: Optional[str] = None,
        *,
        agent_key: Optional[str] = None,
        mode: Optional[str] = None,
        tool_input: Optional[str] = None,
        tool_output: Optional[str] = None,
        prompt: Optional[str] = None,
        response: Optional[str] = None,
        context: Optional[str] = None,
        outcome: Optional[str] = None,
        duration_ms: Optional[int] = None,
        principal_kind: Optional[str] = None,
        principal_id: Optional[str] = None,
        parent_invocation_id: Optional[int] = None,
        correlation_id: Optional[str] = None,
        tenant_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Verdict:
        """Records one invocation now and returns the verdict. mode: "observed" (the service's default),
        "enforced" (asking before acting: obey the verdict, and wait when it carries an approval) or "shadow"."""
        event = self._invocation_event(locals())
        return self._post_invocation(event, idempotency_key or f"py:{uuid.uuid4()}")

    def rogue(
        self,
        event_type: str,
        *,
        agent_key: Optional[str] = None,
        tool: Optional[str] = None,
        actor_agent_key: Optional[str] = None,
        user_id: Optional[str] = None,
        severity: Optional[str] = None,
        source: Optional[str] = None,
        tenant_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Records one out-of-scope ("rogue") action; event_type "oos_tool" needs tool."""
        event = self._rogue_event(locals())
        res = self._transport.request(
            "POST", ROGUE_PATH, body=event, headers={"Idempotency-Key": idempotency_key or f"py:{uuid.uuid4()}"}
        )
        if res.status != 201:
            raise res.error()
        return dict(res.json() or {})

    # ------------------------------------------------------------------ queued events

    def enqueue(
        self,
        tool_name: Optional[str] = None,
        *,
        agent_key: Optional[str] = None,
        mode: Optional[str] = None,
        tool_input: Optional[str] = None,
        tool_output: Optional[str] = None,
        prompt: Optional[str] = None,
        response: Optional[str] = None,
        context: Optional[str] = None,
        outcome: Optional[str] = None,
        duration_ms: Optional[int] = None,
        principal_kind: Optional[str] = None,
        principal_id: Optional[str] = None,
        parent_invocation_id: Optional[int] = None,
        correlation_id: Optional[str] = None,
        tenant_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        block_timeout: Optional[float] = None,
    ) -> bool:
        """Queues an invocation, sent in the background. False when it was not queued (the queue was full, or the
        client is closed; reported to on_drop). block_timeout bounds the wait of when_full="block"."""
        event = self._invocation_event(locals())
        key = idempotency_key or f"py:{uuid.uuid4()}"
        return self._batcher.put(QueuedEvent("invocation", event, key), block_timeout)

    def enqueue_rogue(
        self,
        event_type: str,
        *,
        agent_key: Optional[str] = None,
        tool: Optional[str] = None,
        actor_agent_key: Optional[str] = None,
        user_id: Optional[str] = None,
        severity: Optional[str] = None,
        source: Optional[str] = None,
        tenant_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        block_timeout: Optional[float] = None,
    ) -> bool:
        """Queues a rogue event, sent in the background; False when not queued (see enqueue)."""
        event = self._rogue_event(locals())
        key = idempotency_key or f"py:{uuid.uuid4()}"
        return self._batcher.put(QueuedEvent("rogue", event, key), block_timeout)

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Waits until everything queued so far was answered (or dropped); False when timeout ran out first."""
        return self._batcher.flush(timeout)

    def close(self, timeout: Optional[float] = None) -> bool:
        """Stops taking events and sends what is queued; False when timeout ran out first. Idempotent."""
        self._closed = True
        done = self._batcher.close(timeout)
        with self._executor_lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False)
                self._executor = None
        _open_clients.discard(self)
        return done

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def stats(self) -> Dict[str, int]:
        """sent (events recorded by the queue), dropped, retries (of every request), queued (not answered yet)."""
        with self._stats_lock:
            out = dict(self._stats)
        out["queued"] = self._batcher.pending
        return out

    # ------------------------------------------------------------------ approvals and reads

    def get_approval(self, approval_id: str, *, wait: float = 0) -> Approval:
        """GET /api/v1/approvals/{id}?wait=…: with wait (at most 60 s), a pending approval is answered as soon as it
        is decided or expires, else when the wait is over (still pending)."""
        w = int(max(0, min(MAX_WAIT_SECONDS, wait)))
        res = self._transport.request(
            "GET",
            f"/api/v1/approvals/{urllib.parse.quote(approval_id, safe='')}?wait={w}",
            timeout=max(self._transport.timeout, w + 10),
        )
        if res.status != 200:
            raise res.error()
        return Approval.from_json(res.json())

    def wait_for_approval(
        self,
        approval: "Approval | str",
        *,
        timeout: Optional[float] = None,
        cancelled: Optional[Callable[[], bool]] = None,
    ) -> Approval:
        """Long-polls until the approval is decided or expires, and returns it. After timeout seconds it returns
        the approval as last seen (still pending). A lost connection is retried until the approval's expiry; past
        it (with 5 s of grace) the approval counts as expired — expiry is a deny. API errors (404, 401) raise."""
        current = approval if isinstance(approval, Approval) else self.get_approval(approval)
        deadline = None if timeout is None else time.monotonic() + timeout
        failures = 0
        failure: Optional[BaseException] = None
        while current.pending:
            if cancelled is not None and cancelled():
                return current
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return current
            to_expiry = None
            if current.expires_at is not None:
                to_expiry = (current.expires_at - _dt.datetime.now(_dt.timezone.utc)).total_seconds()
            wait = self.poll_seconds
            if left is not None:
                wait = min(wait, left)
            if to_expiry is not None:
                # Past the expiry by this clock, the service expires it on the next poll (1 s covers clock skew).
                wait = min(wait, max(1.0, to_expiry + 1))
            # Whole seconds, rounded up: a fraction rounded down would poll without waiting, again and again.
            seconds = max(1, min(MAX_WAIT_SECONDS, math.ceil(wait)))
            try:
                res = self._transport.request(
                    "GET",
                    f"/api/v1/approvals/{urllib.parse.quote(current.approval_id, safe='')}?wait={seconds}",
                    timeout=seconds + 10,
                    max_retries=0,
                )
            except ServiceUnreachable as err:
                res = None
                failure = err
            if res is not None and res.status == 200:
                current = Approval.from_json(res.json())
                failures = 0
                continue
            if res is not None and res.status not in _http.RETRY_STATUSES:
                raise res.error()
            retry_after = None
            if res is not None:
                failure = res.error()
                retry_after = failure.retry_after
            failures += 1
            if to_expiry is not None and to_expiry < -5:
                return _replace_status(current, "expired")
            log.warning("agent-ledger: waiting for approval %s: %s", current.approval_id, failure)
            pause = min(5.0, 0.25 * 2**failures)
            if retry_after is not None:
                pause = min(self._transport.max_retry_delay, max(pause, retry_after))
            if left is not None:
                pause = min(pause, max(0.0, left))
            time.sleep(pause)
        return current

    def approvals(self, status: str = "pending", *, limit: int = 50) -> List[Approval]:
        """The newest approvals of one status (one page, at most 500)."""
        res = self._transport.request("GET", f"/api/v1/approvals?status={urllib.parse.quote(status)}&limit={int(limit)}")
        if res.status != 200:
            raise res.error()
        return [Approval.from_json(a) for a in (res.json() or {}).get("items", [])]

    def decide(self, approval_id: str, decision: str, note: Optional[str] = None) -> Approval:
        """Approves ("approve") or denies ("deny") a held call (admin or operator tokens); 409 when decided or
        expired. Not retried after a lost connection (a second decision is a 409)."""
        body: Dict[str, Any] = {"decision": decision}
        if note is not None:
            body["note"] = note
        res = self._transport.request(
            "POST",
            f"/api/v1/approvals/{urllib.parse.quote(approval_id, safe='')}/decision",
            body=body,
            retry_network=False,
        )
        if res.status != 200:
            raise res.error()
        return Approval.from_json(res.json())

    def get_invocation(self, invocation_id: int) -> Dict[str, Any]:
        """GET /api/v1/invocations/{id} (API tokens; an ingress token gets 403)."""
        res = self._transport.request("GET", f"/api/v1/invocations/{int(invocation_id)}")
        if res.status != 200:
            raise res.error()
        return dict(res.json() or {})

    # ------------------------------------------------------------------ guard

    def guard(self, fn: Optional[F] = None, **options: Any) -> Any:
        """Wraps a tool function: each call is recorded in enforced mode before it runs and obeys the verdict.
        Usable as @client.guard, @client.guard(tool_name=…, …) or client.guard(fn, …). See agent_ledger.guard."""
        from .guard import make_guard

        if fn is None:
            return lambda f: make_guard(self, f, is_async=False, **options)
        return make_guard(self, fn, is_async=False, **options)

    def async_guard(self, fn: Optional[F] = None, **options: Any) -> Any:
        """guard() for coroutine functions: the service is asked on a worker thread, the event loop never blocks."""
        from .guard import make_guard

        if fn is None:
            return lambda f: make_guard(self, f, is_async=True, **options)
        return make_guard(self, fn, is_async=True, **options)

    # ------------------------------------------------------------------ internals

    def _executor_for_async(self) -> Any:
        with self._executor_lock:
            if self._executor is None:
                from concurrent.futures import ThreadPoolExecutor

                # Its own pool: held calls wait in it (long polls) and must not starve the loop's default executor.
                self._executor = ThreadPoolExecutor(max_workers=64, thread_name_prefix="agent-ledger-guard")
            return self._executor

    def _invocation_event(self, args: Dict[str, Any]) -> Dict[str, Any]:
        agent_key = args.get("agent_key") or self.agent_key
        if not agent_key:
            raise ValueError("agent_key is required (give it here or to Client(agent_key=…))")
        event: Dict[str, Any] = {"agent_key": agent_key}
        for name in (
            "mode",
            "tool_name",
            "tool_input",
            "tool_output",
            "prompt",
            "response",
            "context",
            "outcome",
            "duration_ms",
            "principal_kind",
            "principal_id",
            "parent_invocation_id",
            "correlation_id",
            "tenant_id",
        ):
            if args.get(name) is not None:
                event[name] = args[name]
        if "correlation_id" not in event and self.correlation_id:
            event["correlation_id"] = self.correlation_id
        return event

    def _rogue_event(self, args: Dict[str, Any]) -> Dict[str, Any]:
        agent_key = args.get("agent_key") or self.agent_key
        if not agent_key:
            raise ValueError("agent_key is required (give it here or to Client(agent_key=…))")
        event: Dict[str, Any] = {"event_type": args["event_type"], "agent_key": agent_key}
        for name in ("tool", "actor_agent_key", "user_id", "severity", "source", "tenant_id"):
            if args.get(name) is not None:
                event[name] = args[name]
        return event

    def _post_invocation(
        self, event: Dict[str, Any], key: str, should_stop: Optional[Callable[[], bool]] = None
    ) -> Verdict:
        res = self._transport.request(
            "POST", INVOCATION_PATH, body=event, headers={"Idempotency-Key": key}, should_stop=should_stop
        )
        if res.status != 201:
            raise res.error()
        return Verdict.from_json(res.json(), replayed=(res.header("Idempotent-Replayed") or "").lower() == "true")

    def _count(self, name: str, n: int = 1) -> None:
        with self._stats_lock:
            self._stats[name] += n

    def _drop(self, report: DropReport) -> None:
        self._count("dropped", len(report.events))
        try:
            self._on_drop(report)
        except Exception:
            log.exception("agent-ledger: on_drop raised")

    def _enqueue_output(self, invocation_id: int, tool_output: str, fallback: Dict[str, Any]) -> bool:
        """Queues a call's result, attached in the background to the invocation recorded for the call
        (POST /api/v1/invocations/{id}/output); a service without that endpoint gets `fallback` recorded instead."""
        item = QueuedEvent(
            "output",
            {"tool_output": tool_output},
            f"py:{uuid.uuid4()}",
            invocation_id=int(invocation_id),
            fallback=fallback,
        )
        return self._batcher.put(item, None)

    def _send_outputs(self, outputs: List[QueuedEvent]) -> List[QueuedEvent]:
        """Attaches each result; answers the invocation events to record instead (the service has no endpoint)."""
        instead: List[QueuedEvent] = []
        for e in outputs:
            if not self._can_attach:
                instead.append(QueuedEvent("invocation", e.fallback or {}, e.key, e.queued_at))
                continue
            try:
                res = self._transport.request("POST", OUTPUT_PATH.format(int(e.invocation_id or 0)), body=e.event)
            except ServiceUnreachable as err:
                self._drop(DropReport("send_failed", [e], err))
                continue
            # 409: stored by an attempt whose answer was lost (or attached before): it is there.
            if res.status in (201, 409):
                self._count("sent")
            elif res.status == 404:
                # An older service: the result as an observed child invocation, from now on.
                self._can_attach = False
                instead.append(QueuedEvent("invocation", e.fallback or {}, e.key, e.queued_at))
            else:
                retryable = res.status >= 500 or res.status == 429
                self._drop(DropReport("send_failed" if retryable else "rejected", [e], res.error()))
        return instead

    def _send_batch(self, batch: List[QueuedEvent]) -> None:
        """The batcher's sender (its thread): one batch request (split when over the size bound), its retryable
        slots sent again with backoff; what cannot be recorded goes to on_drop. Results attached to their
        invocations go one by one first."""
        if any(e.kind == "output" for e in batch):
            events = [e for e in batch if e.kind != "output"]
            events += self._send_outputs([e for e in batch if e.kind == "output"])
            if not events:
                return None
            batch = events
        if self._has_batch is False:
            return self._send_singles(batch)
        body = _http.encode(
            {"events": [{"kind": e.kind, "event_id": e.key, "event": e.event} for e in batch]}
        )
        if len(body) > BATCH_MAX_BYTES and len(batch) > 1:
            half = len(batch) // 2
            self._send_batch(batch[:half])
            self._send_batch(batch[half:])
            return None
        todo = batch
        attempt = 0
        while todo:
            try:
                res = self._transport.request("POST", BATCH_PATH, raw_body=body)
            except ServiceUnreachable as err:
                self._drop(DropReport("send_failed", todo, err))
                return None
            if res.status == 404 and self._has_batch is None:
                self._has_batch = False  # an older service: one by one
                return self._send_singles(todo)
            if not res.ok:
                err = res.error()
                retryable = res.status >= 500 or res.status == 429
                self._drop(DropReport("send_failed" if retryable else "rejected", todo, err))
                return None
            self._has_batch = True
            results = (res.json() or {}).get("results", [])
            again: List[QueuedEvent] = []
            refused: List[QueuedEvent] = []
            errors: List[Dict[str, Any]] = []
            for slot in results:
                idx = slot.get("index")
                if not isinstance(idx, int) or not 0 <= idx < len(todo):
                    continue
                status = slot.get("status")
                if isinstance(status, int) and status < 300:
                    self._count("sent")
                elif status in RETRY_SLOT_STATUSES:
                    again.append(todo[idx])
                    errors.append(slot)
                else:
                    refused.append(todo[idx])
                    errors.append(slot)
            if refused:
                self._drop(
                    DropReport("rejected", refused, ApiError(int(errors[0].get("status", 0)), errors[0]))
                )
            if not again:
                return None
            if attempt >= self._transport.max_retries:
                self._drop(DropReport("send_failed", again, ApiError(int(errors[-1].get("status", 0)), errors[-1])))
                return None
            self._count("retries")
            time.sleep(self._transport.delay(attempt, None))
            attempt += 1
            todo = again
            body = _http.encode(
                {"events": [{"kind": e.kind, "event_id": e.key, "event": e.event} for e in todo]}
            )
        return None

    def _send_singles(self, batch: List[QueuedEvent]) -> None:
        for e in batch:
            path = INVOCATION_PATH if e.kind == "invocation" else ROGUE_PATH
            try:
                res = self._transport.request("POST", path, body=e.event, headers={"Idempotency-Key": e.key})
            except ServiceUnreachable as err:
                self._drop(DropReport("send_failed", [e], err))
                continue
            if res.status == 201:
                self._count("sent")
            else:
                retryable = res.status >= 500 or res.status == 429
                self._drop(DropReport("send_failed" if retryable else "rejected", [e], res.error()))


def _replace_status(a: Approval, status: str) -> Approval:
    import dataclasses

    return dataclasses.replace(a, status=status)
