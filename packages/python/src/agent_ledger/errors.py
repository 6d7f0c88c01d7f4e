"""The errors the client raises.

AgentLedgerError
├── ApiError              the service answered with an error (its problem+json document)
├── ServiceUnreachable    no answer: connection refused or lost, timeouts (after the retries)
└── ToolCallBlocked       a guarded tool was not run
    ├── ToolCallDenied        the verdict was deny (reasons: the ids of the rules that made it)
    ├── ApprovalDenied        held for a person, who denied it
    ├── ApprovalExpired       held for a person, nobody decided before it expired (expiry is a deny)
    ├── ApprovalTimeout       held, and the guard's own hold_timeout ran out first
    ├── LedgerUnreachable     the service could not be asked (on_unreachable="deny": fail closed)
    └── RecordRefused         the service refused to record the call (a 4xx: token, workspace, event)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:  # pragma: no cover
    from .client import Approval


class AgentLedgerError(Exception):
    """Every error of this package."""


class ApiError(AgentLedgerError):
    """The service answered with an error status; its RFC 9457 problem document is surfaced."""

    def __init__(
        self,
        status: int,
        problem: Optional[Dict[str, Any]] = None,
        *,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
        body: str = "",
    ) -> None:
        self.status = status
        self.problem: Dict[str, Any] = problem if isinstance(problem, dict) else {}
        self.code: Optional[str] = _str(self.problem.get("code"))
        self.title: Optional[str] = _str(self.problem.get("title"))
        self.detail: Optional[str] = _str(self.problem.get("detail"))
        errors = self.problem.get("errors")
        self.errors: List[Dict[str, Any]] = [e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else []
        #: Seconds the service asked to wait before trying again (429, 503, 409 in flight), when it said.
        self.retry_after = retry_after
        self.request_id = request_id
        self.body = body
        message = f"agent-ledger answered {status}"
        if self.code:
            message += f" {self.code}"
        if self.detail:
            message += f": {self.detail}"
        elif not self.problem and body:
            message += f": {body[:200]}"
        if self.errors:
            message += " (" + "; ".join(f"{e.get('field', '?')} {e.get('message', '')}".strip() for e in self.errors) + ")"
        super().__init__(message)


class ServiceUnreachable(AgentLedgerError):
    """No answer from the service after every attempt (the last network error is the __cause__)."""

    def __init__(self, message: str, *, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class ToolCallBlocked(AgentLedgerError):
    """A guarded tool call did not run. Catch this one to handle every reason at once."""

    def __init__(
        self,
        message: str,
        *,
        tool_name: str,
        agent_key: str,
        invocation_id: Optional[int] = None,
        evidence_id: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.tool_name = tool_name
        self.agent_key = agent_key
        #: The recorded (enforced) invocation, when there is one.
        self.invocation_id = invocation_id
        self.evidence_id = evidence_id


class ToolCallDenied(ToolCallBlocked):
    """The policy's verdict was deny."""

    def __init__(self, message: str, *, reasons: Optional[List[str]], **kw: Any) -> None:
        super().__init__(message, **kw)
        #: The ids of the rules that fired (e.g. ["tool_out_of_scope"]), from the enforced answer; None only
        #: from a service that does not name them, when the token may not read the invocation either.
        self.reasons = reasons


class _ApprovalBlocked(ToolCallBlocked):
    def __init__(self, message: str, *, approval: "Approval", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.approval = approval


class ApprovalDenied(_ApprovalBlocked):
    """A person denied the held call (approval.decided_by, approval.note say who and why)."""


class ApprovalExpired(_ApprovalBlocked):
    """Nobody decided before the approval expired; expiry is a deny."""


class ApprovalTimeout(_ApprovalBlocked):
    """The guard's hold_timeout ran out while the approval was still pending (it may still be decided later,
    but this call will not run)."""


class LedgerUnreachable(ToolCallBlocked):
    """The service could not be asked (network, timeouts, 429/5xx after the retries) and the guard fails closed."""

    def __init__(self, message: str, *, cause: AgentLedgerError, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.cause = cause


class RecordRefused(ToolCallBlocked):
    """The service answered the record with a 4xx (a revoked token, a lapsed workspace, an invalid event).
    The call never runs, whatever on_unreachable says: the service was reached and did not agree."""

    def __init__(self, message: str, *, error: ApiError, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.error = error


def _str(v: Any) -> Optional[str]:
    return v if isinstance(v, str) else None
