"""async_guard(): guard() for coroutine functions; the event loop keeps running while the service is asked and
while a held call waits."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, List

from agent_ledger import ApprovalDenied, LedgerUnreachable, ToolCallDenied
from helpers import ServiceTest, admin, dead_url, field_text, pending_approval


class AsyncGuardTest(ServiceTest):
    def setUp(self) -> None:
        super().setUp()
        self.calls: List[str] = []

    def tool(self, name: str, client: Any = None) -> Any:
        client = client or self.client()

        @client.async_guard(tool_name=name)
        async def run(text: str) -> dict:
            await asyncio.sleep(0.01)
            self.calls.append(text)
            return {"sent": text}

        return run

    def test_allow_awaits_the_tool_and_records_its_output(self) -> None:
        c = self.client()
        self.assertEqual(asyncio.run(self.tool("mail.send", c)("hi")), {"sent": "hi"})
        self.assertEqual(self.calls, ["hi"])
        c.flush(timeout=10)
        gated = next(r for r in self.records() if r["mode"] == "enforced")

        def output() -> Any:
            d = admin("GET", f"/api/v1/invocations/{gated['invocation_id']}")
            return d if field_text(d, "tool_output") else None

        # Attached to the gated invocation as its tool_output: one invocation for the call.
        self.assertEqual(field_text(self.until("the output", output), "tool_output"), '{"sent": "hi"}')
        self.assertEqual([r["invocation_id"] for r in self.records()], [gated["invocation_id"]])

    def test_deny_raises(self) -> None:
        with self.assertRaises(ToolCallDenied):
            asyncio.run(self.tool("fs.delete_file")("x"))
        self.assertEqual(self.calls, [])

    def test_a_held_call_waits_without_blocking_the_loop_and_runs_when_approved(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        fn = self.tool(name)

        async def scenario() -> Any:
            ticks = 0
            task = asyncio.ensure_future(fn("refund"))
            while True:
                approval = await asyncio.get_running_loop().run_in_executor(None, pending_approval, name)
                if approval:
                    break
                await asyncio.sleep(0.05)
                ticks += 1
            for _ in range(5):  # the loop runs while the call is held
                await asyncio.sleep(0.02)
                ticks += 1
            self.assertFalse(task.done())
            await asyncio.get_running_loop().run_in_executor(
                None, admin, "POST", f"/api/v1/approvals/{approval['approval_id']}/decision", {"decision": "approve"}
            )
            return await asyncio.wait_for(task, 30), ticks

        result, ticks = asyncio.run(scenario())
        self.assertEqual(result, {"sent": "refund"})
        self.assertGreaterEqual(ticks, 5)
        self.assertEqual(self.calls, ["refund"])

    def test_a_held_call_denied_raises(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        fn = self.tool(name)

        async def scenario() -> None:
            task = asyncio.ensure_future(fn("refund"))
            loop = asyncio.get_running_loop()
            while not (approval := await loop.run_in_executor(None, pending_approval, name)):
                await asyncio.sleep(0.05)
            await loop.run_in_executor(
                None, admin, "POST", f"/api/v1/approvals/{approval['approval_id']}/decision", {"decision": "deny"}
            )
            await asyncio.wait_for(task, 30)

        with self.assertRaises(ApprovalDenied):
            asyncio.run(scenario())
        self.assertEqual(self.calls, [])

    def test_cancelling_a_held_call_never_runs_it(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        fn = self.tool(name)

        async def scenario() -> None:
            task = asyncio.ensure_future(fn("refund"))
            loop = asyncio.get_running_loop()
            while not await loop.run_in_executor(None, pending_approval, name):
                await asyncio.sleep(0.05)
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task

        asyncio.run(scenario())
        approval = pending_approval(name)
        admin("POST", f"/api/v1/approvals/{approval['approval_id']}/decision", {"decision": "approve"})
        self.assertEqual(self.calls, [])

    def test_the_service_unreachable_fails_closed(self) -> None:
        c = self.client(dead_url(), max_retries=0)
        with self.assertRaises(LedgerUnreachable):
            asyncio.run(self.tool("mail.send", c)("x"))
        self.assertEqual(self.calls, [])

    def test_async_guard_refuses_plain_functions(self) -> None:
        with self.assertRaises(TypeError):
            self.client().async_guard(lambda: None)
