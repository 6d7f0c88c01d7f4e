"""guard / async_guard: a tool function gated by the service.

Each call of the wrapped function is recorded first, in enforced mode (tool_name, the call's arguments as JSON in
tool_input, an Idempotency-Key kept across the record's retries), and then:

- allow, or flag_for_review without a hold → the function runs; what it returned (or raised, as "Type: message")
  is attached after, in the background, to the gated call's invocation as its tool_output (scanned by the service
  after the fact; one invocation per call). A service without that endpoint (404) gets it as before, as an observed
  invocation whose parent_invocation_id is the gated call (outcome "success" or "error");
- deny → ToolCallDenied (reasons: the ids of the rules that denied it); the function never runs;
- held for a person (the answer carries an approval) → long polls GET /api/v1/approvals/{id}?wait=… until it is
  decided: approved → the function runs; denied → ApprovalDenied; expired → ApprovalExpired; still pending after
  hold_timeout seconds (default: no bound of its own, the approval's expiry bounds it) → ApprovalTimeout;
- the service cannot be asked (network, timeouts, 429/5xx after the retries) → on_unreachable: "deny" (default,
  fail closed) raises LedgerUnreachable; "allow" runs the function unrecorded, with a warning;
- the service refuses the record with another 4xx (a revoked token, a lapsed workspace, an invalid event) →
  RecordRefused, whatever on_unreachable says: the service was reached and did not agree.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import re
import threading
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional

from .errors import (
    AgentLedgerError,
    ApiError,
    ApprovalDenied,
    ApprovalExpired,
    ApprovalTimeout,
    LedgerUnreachable,
    RecordRefused,
    ServiceUnreachable,
    ToolCallDenied,
)

if TYPE_CHECKING:  # pragma: no cover
    from .client import Client

MAX_TEXT = 32_000
# The service refuses NUL and unpaired surrogates in every text field; texts the guard makes carry U+FFFD instead.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


@dataclass
class _Call:
    tool_name: str
    agent_key: str
    tool_input: str
    correlation_id: Optional[str]
    function: str
    key: str


def make_guard(
    client: "Client",
    fn: Callable[..., Any],
    *,
    is_async: bool,
    tool_name: Optional[str] = None,
    agent_key: Optional[str] = None,
    hold_timeout: Optional[float] = None,
    on_unreachable: Optional[str] = None,
    record_output: bool = True,
    describe_input: Optional[Callable[..., Any]] = None,
    correlation_id: Optional[str] = None,
) -> Callable[..., Any]:
    """tool_name: as recorded and matched by policy rules (default: the function's __name__). agent_key: default
    the client's. hold_timeout: seconds a held call waits at most. on_unreachable: "deny" or "allow" (default the
    client's). record_output: record what the function returned. describe_input(*args, **kwargs): the tool_input
    text or a JSON-able value (default: the bound arguments by name, "self" and "cls" left out)."""
    if not callable(fn):
        raise TypeError("guard wraps a function")
    coroutine = inspect.iscoroutinefunction(fn)
    if is_async and not coroutine:
        raise TypeError(f"async_guard wraps coroutine functions; use guard for {fn!r}")
    if not is_async and coroutine:
        raise TypeError(f"{fn!r} is a coroutine function: use async_guard")
    name = tool_name or getattr(fn, "__name__", None) or "tool"
    agent = agent_key or client.agent_key
    if not agent:
        raise ValueError("guard needs an agent_key (give it here or to Client(agent_key=…))")
    unreachable = on_unreachable or client.on_unreachable
    if unreachable not in ("deny", "allow"):
        raise ValueError('on_unreachable must be "deny" or "allow"')
    try:
        signature: Optional[inspect.Signature] = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None
    function = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', name)}"

    def prepare(args: Any, kwargs: Any) -> _Call:
        if describe_input is not None:
            described = describe_input(*args, **kwargs)
            text = described if isinstance(described, str) else _json(described)
        elif signature is not None:
            bound = signature.bind(*args, **kwargs)  # a wrong call raises TypeError here, before anything is recorded
            text = _json({k: v for k, v in bound.arguments.items() if k not in ("self", "cls")})
        else:
            text = _json({"args": list(args), "kwargs": kwargs})
        return _Call(
            tool_name=_clip(name, 256),
            agent_key=agent,
            tool_input=_clip(text, MAX_TEXT),
            correlation_id=correlation_id or client.correlation_id,
            function=function,
            key=f"guard:{uuid.uuid4()}",
        )

    def decide(call: _Call, cancelled: Optional[Callable[[], bool]] = None) -> Optional[int]:
        return _decide(client, call, hold_timeout=hold_timeout, on_unreachable=unreachable, cancelled=cancelled)

    def after(call: _Call, parent: Optional[int], started: float, result: Any = None, error: Any = None) -> None:
        if record_output:
            _record_output(client, call, parent, started, result, error)

    if is_async:

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            call = prepare(args, kwargs)
            loop = asyncio.get_running_loop()
            stop = threading.Event()
            # urllib blocks: the service is asked on the client's worker threads, never on the event loop.
            future = loop.run_in_executor(client._executor_for_async(), lambda: decide(call, stop.is_set))
            try:
                parent = await future
            except asyncio.CancelledError:
                stop.set()  # the worker stops waiting at its next poll and sends no more retries
                raise
            started = time.monotonic()
            try:
                result = await fn(*args, **kwargs)
            except BaseException as err:
                after(call, parent, started, error=err)
                raise
            after(call, parent, started, result=result)
            return result

        async_wrapper.__agent_ledger_tool__ = name  # type: ignore[attr-defined]
        return async_wrapper

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        call = prepare(args, kwargs)
        parent = decide(call)
        started = time.monotonic()
        try:
            result = fn(*args, **kwargs)
        except BaseException as err:
            after(call, parent, started, error=err)
            raise
        after(call, parent, started, result=result)
        return result

    wrapper.__agent_ledger_tool__ = name  # type: ignore[attr-defined]
    return wrapper


def _decide(
    client: "Client",
    call: _Call,
    *,
    hold_timeout: Optional[float],
    on_unreachable: str,
    cancelled: Optional[Callable[[], bool]] = None,
) -> Optional[int]:
    """Records the call in enforced mode and obeys the answer: the gated invocation's id when the call may run
    (None: it runs unrecorded, on_unreachable="allow"); raises a ToolCallBlocked otherwise."""
    who = {"tool_name": call.tool_name, "agent_key": call.agent_key}
    event: Dict[str, Any] = {
        "agent_key": call.agent_key,
        "mode": "enforced",
        "tool_name": call.tool_name,
        "tool_input": call.tool_input,
        "context": _json({"source": "agent_ledger.guard", "function": call.function}),
    }
    if call.correlation_id:
        event["correlation_id"] = call.correlation_id
    try:
        verdict = client._post_invocation(event, call.key, should_stop=cancelled)
    except ServiceUnreachable as err:
        return _unreachable(client, call, err, on_unreachable)
    except ApiError as err:
        if err.status == 429 or err.status >= 500:
            return _unreachable(client, call, err, on_unreachable)
        raise RecordRefused(
            f"agent-ledger refused to record {call.tool_name} for agent {call.agent_key} ({err}); the call is not run",
            error=err,
            **who,
        ) from err
    ids = {"invocation_id": verdict.invocation_id, "evidence_id": verdict.evidence_id}
    if verdict.denied:
        # The enforced answer names them; a service that does not is asked (API tokens may read the invocation).
        reasons = verdict.reasons if verdict.reasons is not None else _reasons(client, verdict.invocation_id)
        raise ToolCallDenied(
            f"agent-ledger denied {call.tool_name} for agent {call.agent_key}"
            + (f": {', '.join(reasons)}" if reasons else "")
            + f" (invocation {verdict.invocation_id}, evidence {verdict.evidence_id})",
            reasons=reasons,
            **who,
            **ids,
        )
    if verdict.approval is None:
        return verdict.invocation_id
    try:
        approval = client.wait_for_approval(verdict.approval, timeout=hold_timeout, cancelled=cancelled)
    except ApiError as err:
        raise RecordRefused(
            f"agent-ledger could not read approval {verdict.approval.approval_id} of {call.tool_name} ({err}); "
            "the call is not run",
            error=err,
            **who,
            **ids,
        ) from err
    if approval.status == "approved":
        return verdict.invocation_id
    held = f"agent-ledger held {call.tool_name} for agent {call.agent_key} for approval {approval.approval_id}"
    if approval.status == "denied":
        by = f" by {approval.decided_by}" if approval.decided_by else ""
        note = f": {approval.note}" if approval.note else ""
        raise ApprovalDenied(f"{held}, which was denied{by}{note}", approval=approval, **who, **ids)
    if approval.status == "expired":
        raise ApprovalExpired(
            f"{held}, which expired at {approval.expires_at.isoformat() if approval.expires_at else '?'} "
            "without a decision (expiry is a deny)",
            approval=approval,
            **who,
            **ids,
        )
    raise ApprovalTimeout(
        f"{held}, still pending after the guard's hold_timeout of {hold_timeout} s; the call is not run",
        approval=approval,
        **who,
        **ids,
    )


def _unreachable(client: "Client", call: _Call, err: AgentLedgerError, on_unreachable: str) -> Optional[int]:
    if on_unreachable == "allow":
        from .client import log

        log.warning(
            "agent-ledger: could not ask about %s (%s); it runs unrecorded (on_unreachable='allow')", call.tool_name, err
        )
        return None
    raise LedgerUnreachable(
        f"agent-ledger could not decide {call.tool_name} for agent {call.agent_key}: {err}; "
        "the call is refused (fail closed)",
        cause=err,
        tool_name=call.tool_name,
        agent_key=call.agent_key,
    ) from err


def _reasons(client: "Client", invocation_id: int) -> Optional[list]:
    """The ids of the rules that denied the call; None when the token may not read the invocation (ingress tokens)."""
    try:
        res = client._transport.request(
            "GET", f"/api/v1/invocations/{int(invocation_id)}", max_retries=0, timeout=min(5.0, client._transport.timeout)
        )
    except AgentLedgerError:
        return None
    if res.status != 200:
        return None
    reasons = (res.json() or {}).get("reasons")
    return [str(r) for r in reasons] if isinstance(reasons, list) else None


def _record_output(
    client: "Client", call: _Call, parent: Optional[int], started: float, result: Any, error: Any
) -> None:
    if error is not None:
        outcome = "cancelled" if isinstance(error, asyncio.CancelledError) else "error"
        text = f"{type(error).__name__}: {error}"
    else:
        outcome = "success"
        text = result if isinstance(result, str) else _json(result)
    context: Dict[str, Any] = {"source": "agent_ledger.guard", "function": call.function}
    if parent is not None:
        context["result_of"] = parent
    observed = dict(
        agent_key=call.agent_key,
        mode="observed",
        tool_name=call.tool_name,
        # Unrecorded before it ran (on_unreachable="allow"): the input goes with the output.
        tool_input=call.tool_input if parent is None else None,
        tool_output=_clip(text, MAX_TEXT),
        outcome=outcome,
        duration_ms=max(0, int((time.monotonic() - started) * 1000)),
        parent_invocation_id=parent,
        correlation_id=call.correlation_id,
        context=_json(context),
    )
    if parent is not None:
        # The gated call's own tool_output: one invocation per call. A service without the endpoint gets the
        # observed child record instead.
        client._enqueue_output(parent, observed["tool_output"], client._invocation_event(observed))
        return
    client.enqueue(**observed)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=False)


def _clip(text: str, limit: int) -> str:
    text = _UNSTORABLE.sub("\ufffd", text)
    return text if len(text) <= limit else text[:limit]
