"""agent-ledger's Python client: record what an agent does, and gate its tool calls.

    from agent_ledger import Client, ToolCallBlocked

    ledger = Client("https://ledger.example.com", token, agent_key="billing-bot")

    @ledger.guard(tool_name="payments.refund")
    def refund(order_id: str, amount_cents: int) -> str: ...

Standard library only; Python 3.9+.
"""

from ._batcher import DropReport, QueuedEvent
from .client import Approval, Client, Verdict
from .errors import (
    AgentLedgerError,
    ApiError,
    ApprovalDenied,
    ApprovalExpired,
    ApprovalTimeout,
    LedgerUnreachable,
    RecordRefused,
    ServiceUnreachable,
    ToolCallBlocked,
    ToolCallDenied,
)

__version__ = "0.1.0"

__all__ = [
    "AgentLedgerError",
    "ApiError",
    "Approval",
    "ApprovalDenied",
    "ApprovalExpired",
    "ApprovalTimeout",
    "Client",
    "DropReport",
    "LedgerUnreachable",
    "QueuedEvent",
    "RecordRefused",
    "ServiceUnreachable",
    "ToolCallBlocked",
    "ToolCallDenied",
    "Verdict",
    "__version__",
]
