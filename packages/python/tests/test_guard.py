"""guard(): a tool call recorded in enforced mode before it runs, obeying the verdict — allow (runs, output recorded
after, linked to it), deny (ToolCallDenied with reasons), held (waits: approved runs, denied/expired/timed out
raise), the service unreachable (fail closed by default) or refusing the record."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any, Dict, List

from agent_ledger import (
    ApprovalDenied,
    ApprovalExpired,
    ApprovalTimeout,
    LedgerUnreachable,
    RecordRefused,
    ServiceUnreachable,
    ToolCallBlocked,
    ToolCallDenied,
)
from helpers import ADMIN_TOKEN, AGENT, Proxy, ServiceTest, admin, dead_url, field_text, pending_approval


class GuardTest(ServiceTest):
    def setUp(self) -> None:
        super().setUp()
        self.calls: List[Dict[str, Any]] = []

    def tool(self, name: str, **opts: Any) -> Any:
        """A guarded tool that writes down each time it really runs."""
        client = opts.pop("client", None) or self.client()

        def run(text: str, times: int = 1) -> str:
            self.calls.append({"text": text, "times": times})
            return f"{name}: {text * times}"

        return client.guard(run, tool_name=name, **opts)

    def output_of(self, gated_id: int) -> Dict[str, Any]:
        """The gated call's invocation once its attached tool_output was scanned (the scan unseals it)."""

        def find() -> Any:
            d = admin("GET", f"/api/v1/invocations/{gated_id}")
            return d if field_text(d, "tool_output") else None

        return self.until("the attached output", find)

    def child_of(self, gated_id: int) -> Dict[str, Any]:
        """The observed child record of a gated call (a service without the attach endpoint), once scanned."""

        def find() -> Any:
            for r in self.records():
                if r["parent_invocation_id"] == gated_id:
                    d = admin("GET", f"/api/v1/invocations/{r['invocation_id']}")
                    return d if field_text(d, "tool_output") else None
            return None

        return self.until("the recorded output", find)

    def test_allow_runs_the_tool_and_records_its_output_linked_to_the_call(self) -> None:
        c = self.client()
        echo = self.tool("echo", client=c)
        self.assertEqual(echo("hello", times=2), "echo: hellohello")
        self.assertEqual(self.calls, [{"text": "hello", "times": 2}])
        self.assertTrue(c.flush(timeout=10))
        [gated] = [r for r in self.records() if r["mode"] == "enforced"]
        self.assertEqual((gated["tool_name"], gated["verdict"], gated["agent_key"]), ("echo", "allow", AGENT))
        detail = admin("GET", f"/api/v1/invocations/{gated['invocation_id']}")
        self.assertEqual(field_text(detail, "tool_input"), '{"text": "hello", "times": 2}')
        out = self.output_of(gated["invocation_id"])
        self.assertEqual(field_text(out, "tool_output"), "echo: hellohello")
        self.assertEqual(out["output_scan"]["status"], "done")
        # One invocation for the call: the result is the gated invocation's own tool_output.
        self.assertEqual([r["invocation_id"] for r in self.records()], [gated["invocation_id"]])

    def test_a_result_whose_answer_was_lost_is_attached_once_and_not_dropped(self) -> None:
        proxy = Proxy()
        self.addCleanup(proxy.close)
        drops: List[Any] = []
        c = self.client(proxy.url, on_drop=drops.append)
        # The record goes through; the attachment is stored but its answer lost (503): the retry finds it there (409).
        proxy.faults.extend([("forward",), ("lose", 503, "0")])
        self.assertEqual(self.tool("echo", client=c)("once"), "echo: once")
        self.assertTrue(c.flush(timeout=10))
        [gated] = self.records()
        self.assertEqual(field_text(self.output_of(gated["invocation_id"]), "tool_output"), "echo: once")
        attaches = [x for x in proxy.seen if x.path.endswith("/output")]
        self.assertEqual(len(attaches), 2)
        self.assertEqual(drops, [])
        self.assertEqual(c.stats["dropped"], 0)

    def test_a_service_without_the_attach_endpoint_gets_the_result_as_an_observed_child(self) -> None:
        proxy = Proxy()
        self.addCleanup(proxy.close)
        c = self.client(proxy.url)
        # An older service: no POST /api/v1/invocations/{id}/output (404).
        proxy.faults.extend([("forward",), ("answer", 404, None)])
        self.assertEqual(self.tool("echo", client=c)("old"), "echo: old")
        self.assertTrue(c.flush(timeout=10))
        gated = next(r for r in self.records() if r["mode"] == "enforced")
        out = self.child_of(gated["invocation_id"])
        self.assertEqual(field_text(out, "tool_output"), "echo: old")
        self.assertEqual((out["mode"], out["outcome"], out["tool_name"]), ("observed", "success", "echo"))
        # Not asked again: the next result goes the old way at once.
        self.assertEqual(self.tool("echo", client=c)("again"), "echo: again")
        self.assertTrue(c.flush(timeout=10))
        self.assertEqual(len([x for x in proxy.seen if x.path.endswith("/output")]), 1)
        self.assertEqual(len(self.records()), 4)

    def test_a_tool_that_raises_is_recorded_as_an_error_and_the_error_propagates(self) -> None:
        c = self.client()

        @c.guard
        def lookup(key: str) -> str:
            raise KeyError(key)

        with self.assertRaises(KeyError):
            lookup("missing")
        c.flush(timeout=10)
        [gated] = [r for r in self.records() if r["mode"] == "enforced"]
        self.assertEqual(gated["tool_name"], "lookup", "the function's name is the default tool name")
        out = self.output_of(gated["invocation_id"])
        self.assertEqual(field_text(out, "tool_output"), "KeyError: 'missing'")

    def test_deny_raises_with_the_reasons_and_the_tool_never_runs(self) -> None:
        delete = self.tool("fs.delete_file", client=self.client(token=ADMIN_TOKEN))
        with self.assertRaises(ToolCallDenied) as cm:
            delete("/etc/passwd")
        err = cm.exception
        self.assertIsInstance(err, ToolCallBlocked)
        self.assertEqual(err.reasons, ["no-deletes"])
        self.assertEqual((err.tool_name, err.agent_key), ("fs.delete_file", AGENT))
        self.assertIn("denied fs.delete_file for agent py-agent: no-deletes", str(err))
        self.assertEqual(self.calls, [])
        [stored] = self.records()
        self.assertEqual((stored["invocation_id"], stored["verdict"]), (err.invocation_id, "deny"))

    def test_deny_with_an_ingress_token_names_the_reasons_from_the_answer(self) -> None:
        with self.assertRaises(ToolCallDenied) as cm:
            self.tool("fs.delete_tree")("/srv")
        self.assertEqual(cm.exception.reasons, ["no-deletes"])
        self.assertIsInstance(cm.exception.invocation_id, int)
        self.assertEqual(self.calls, [])

    def held(self, name: str, **opts: Any) -> Dict[str, Any]:
        """Calls a guarded held tool on a thread; returns what happened once it finished."""
        fn = self.tool(name, **opts)
        out: Dict[str, Any] = {}

        def call() -> None:
            started = time.monotonic()
            try:
                out["result"] = fn("refund 42")
            except Exception as err:
                out["error"] = err
            out["seconds"] = time.monotonic() - started

        t = threading.Thread(target=call)
        t.start()
        out["thread"] = t
        return out

    def test_a_held_call_runs_once_a_person_approves(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        out = self.held(name)
        approval = self.until("the pending approval", lambda: pending_approval(name))
        time.sleep(0.3)
        self.assertEqual(self.calls, [], "nothing runs while the call is held")
        self.assertTrue(out["thread"].is_alive())
        admin("POST", f"/api/v1/approvals/{approval['approval_id']}/decision", {"decision": "approve", "note": "ok"})
        out["thread"].join(30)
        self.assertEqual(out.get("result"), f"{name}: refund 42", out.get("error"))
        self.assertEqual(len(self.calls), 1)
        gated = next(r for r in self.records() if r["mode"] == "enforced")
        self.assertEqual((gated["invocation_id"], gated["verdict"]), (approval["invocation_id"], "flag_for_review"))

    def test_a_held_call_denied_by_a_person_raises_with_the_note(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        out = self.held(name)
        approval = self.until("the pending approval", lambda: pending_approval(name))
        admin("POST", f"/api/v1/approvals/{approval['approval_id']}/decision", {"decision": "deny", "note": "no"})
        out["thread"].join(30)
        err = out.get("error")
        self.assertIsInstance(err, ApprovalDenied)
        self.assertEqual((err.approval.status, err.approval.note), ("denied", "no"))
        self.assertIsNotNone(err.approval.decided_by)
        self.assertEqual(err.invocation_id, approval["invocation_id"])
        self.assertIn("which was denied by", str(err))
        self.assertEqual(self.calls, [])

    def test_a_held_call_nobody_decides_expires_and_never_runs(self) -> None:
        out = self.held(f"brief.send-{uuid.uuid4().hex[:8]}")
        out["thread"].join(30)
        err = out.get("error")
        self.assertIsInstance(err, ApprovalExpired, err)
        self.assertEqual(err.approval.status, "expired")
        self.assertIsNone(err.approval.decided_by)
        self.assertLess(out["seconds"], 15, "answered soon after the 2 s hold expired")
        self.assertEqual(self.calls, [])

    def test_hold_timeout_bounds_the_wait(self) -> None:
        name = f"payments.refund-{uuid.uuid4().hex[:8]}"
        out = self.held(name, hold_timeout=1.5)
        out["thread"].join(30)
        err = out.get("error")
        self.assertIsInstance(err, ApprovalTimeout, err)
        self.assertEqual(err.approval.status, "pending")
        self.assertTrue(1.4 < out["seconds"] < 10, out["seconds"])
        self.assertEqual(self.calls, [])
        admin("POST", f"/api/v1/approvals/{err.approval.approval_id}/decision", {"decision": "deny"})

    def test_the_service_unreachable_fails_closed_by_default(self) -> None:
        fn = self.tool("echo", client=self.client(dead_url(), max_retries=1, retry_base=0.05))
        with self.assertRaises(LedgerUnreachable) as cm:
            fn("x")
        self.assertIsInstance(cm.exception.cause, ServiceUnreachable)
        self.assertIn("refused (fail closed)", str(cm.exception))
        self.assertEqual(self.calls, [])

    def test_on_unreachable_allow_runs_the_tool_with_a_warning(self) -> None:
        c = self.client(dead_url(), max_retries=0, on_unreachable="allow", on_drop=lambda r: None)
        with self.assertLogs("agent_ledger", "WARNING") as logs:
            self.assertEqual(self.tool("echo", client=c)("y"), "echo: y")
        self.assertIn("runs unrecorded", "\n".join(logs.output))
        self.assertEqual(len(self.calls), 1)

    def test_a_refused_record_blocks_the_call_whatever_on_unreachable_says(self) -> None:
        c = self.client(token="svc_ingress_revoked", on_unreachable="allow")
        with self.assertRaises(RecordRefused) as cm:
            self.tool("echo", client=c)("z")
        self.assertEqual(cm.exception.error.status, 401)
        self.assertEqual(self.calls, [])

    def test_guard_refuses_coroutine_functions(self) -> None:
        async def tool() -> None:
            pass

        with self.assertRaises(TypeError):
            self.client().guard(tool)
