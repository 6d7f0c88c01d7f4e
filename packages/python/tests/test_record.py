"""record() and rogue(): one event, sent now, answered with the verdict; errors surface the problem document;
retries keep the Idempotency-Key and honour Retry-After; 4xx other than 429 are never retried."""

from __future__ import annotations

import email.utils
import time

from agent_ledger import ApiError, ServiceUnreachable
from helpers import AGENT, Proxy, ServiceTest, admin, dead_url


class RecordTest(ServiceTest):
    def test_allow_answers_the_verdict_and_is_stored(self) -> None:
        v = self.client().record("notes.read", mode="enforced", tool_input='{"id": 7}')
        self.assertEqual(v.verdict, "allow")
        self.assertEqual(v.reasons, ["default"])
        self.assertTrue(v.allowed)
        self.assertIsNone(v.approval)
        self.assertFalse(v.replayed)
        self.assertIsInstance(v.evidence_id, int)
        [stored] = self.records()
        self.assertEqual(stored["invocation_id"], v.invocation_id)
        self.assertEqual((stored["agent_key"], stored["tool_name"], stored["mode"]), (AGENT, "notes.read", "enforced"))

    def test_deny_answers_deny_with_the_rule_as_reason(self) -> None:
        v = self.client().record("fs.delete_file", mode="enforced", tool_input='{"path": "/etc"}')
        self.assertEqual(v.verdict, "deny")
        self.assertTrue(v.denied)
        self.assertFalse(v.allowed)
        self.assertEqual(v.reasons, ["no-deletes"])
        self.assertEqual(admin("GET", f"/api/v1/invocations/{v.invocation_id}")["reasons"], ["no-deletes"])

    def test_a_held_call_answers_a_pending_approval(self) -> None:
        c = self.client()
        v = c.record("payments.refund", mode="enforced")
        self.assertEqual(v.verdict, "flag_for_review")
        self.assertTrue(v.held)
        self.assertFalse(v.allowed)
        self.assertEqual(v.approval.status, "pending")
        self.assertEqual(v.reasons, ["hold-payments"])
        left = v.approval.expires_at.timestamp() - time.time()
        self.assertTrue(590 < left <= 600, left)
        # The agent's own token reads its approval; a decision by an admin is seen by it.
        self.assertEqual(c.get_approval(v.approval.approval_id).status, "pending")
        self.client(token=self._admin()).decide(v.approval.approval_id, "deny", note="not today")
        self.assertEqual(c.get_approval(v.approval.approval_id).status, "denied")

    def test_rogue_event(self) -> None:
        res = self.client().rogue("oos_tool", tool="shell.exec", severity="high")
        self.assertEqual(res["accepted"], True)
        self.assertEqual(res["event_type"], "oos_tool")

    def test_an_invalid_event_raises_the_problem_detail_and_is_not_retried(self) -> None:
        proxy = Proxy()
        self.addCleanup(proxy.close)
        with self.assertRaises(ApiError) as cm:
            self.client(proxy.url).record("x" * 300)
        err = cm.exception
        self.assertEqual((err.status, err.code), (422, "unprocessable"))
        self.assertTrue(err.detail)
        self.assertEqual(err.errors[0]["field"], "/tool_name")
        self.assertIn("422 unprocessable", str(err))
        self.assertIn("/tool_name", str(err))
        self.assertEqual(len(proxy.requests()), 1)

    def test_a_bad_token_is_401_unauthorized(self) -> None:
        with self.assertRaises(ApiError) as cm:
            self.client(token="svc_ingress_not_a_token").record("notes.read")
        self.assertEqual((cm.exception.status, cm.exception.code), (401, "unauthorized"))

    def _admin(self) -> str:
        from helpers import ADMIN_TOKEN

        return ADMIN_TOKEN


class RetryTest(ServiceTest):
    def setUp(self) -> None:
        super().setUp()
        self.proxy = Proxy()
        self.addCleanup(self.proxy.close)

    def test_a_lost_answer_is_retried_with_the_same_key_and_recorded_once(self) -> None:
        # The service records the event, its answer is lost (503 Retry-After: 1): the retry replays it.
        self.proxy.faults.append(("lose", 503, "1"))
        started = time.monotonic()
        v = self.client(self.proxy.url).record("notes.read", mode="enforced")
        elapsed = time.monotonic() - started
        posts = self.proxy.requests("/events/invocation")
        self.assertEqual(len(posts), 2)
        key = posts[0].headers["Idempotency-Key"]
        self.assertTrue(key)
        self.assertEqual(posts[1].headers["Idempotency-Key"], key)
        self.assertEqual(posts[1].body, posts[0].body)
        self.assertGreaterEqual(posts[1].at - posts[0].at, 0.95, "Retry-After: 1 was honoured")
        self.assertGreaterEqual(elapsed, 0.95)
        self.assertTrue(v.replayed)
        [stored] = self.records()
        self.assertEqual(stored["invocation_id"], v.invocation_id)

    def test_retry_after_as_an_http_date(self) -> None:
        when = email.utils.formatdate(time.time() + 2, usegmt=True)
        self.proxy.faults.append(("answer", 503, when))
        v = self.client(self.proxy.url).record("notes.read")
        posts = self.proxy.requests("/events/invocation")
        self.assertEqual(len(posts), 2)
        # The date has whole seconds: 1-2 s from the first attempt.
        self.assertGreaterEqual(posts[1].at - posts[0].at, 0.9)
        self.assertFalse(v.replayed)
        self.assertEqual(len(self.records()), 1)

    def test_429_is_retried_other_4xx_are_not(self) -> None:
        self.proxy.faults.append(("answer", 429, "0"))
        self.client(self.proxy.url).record("notes.read")
        self.assertEqual(len(self.proxy.requests()), 2)
        for status in (400, 403, 409, 422):
            self.proxy.seen.clear()
            self.proxy.faults.append(("answer", status, "0"))
            with self.assertRaises(ApiError) as cm:
                self.client(self.proxy.url).record("notes.read")
            self.assertEqual(cm.exception.status, status)
            self.assertEqual(cm.exception.detail, f"the proxy answered {status}")
            self.assertEqual(len(self.proxy.requests()), 1, f"{status} is not retried")
        self.assertEqual(len(self.records()), 1)

    def test_a_retry_after_longer_than_max_retry_delay_is_not_waited_for(self) -> None:
        self.proxy.faults.append(("answer", 503, "120"))
        started = time.monotonic()
        with self.assertRaises(ApiError) as cm:
            self.client(self.proxy.url, max_retry_delay=5).record("notes.read")
        self.assertLess(time.monotonic() - started, 10, "not the 120 s asked for")
        self.assertEqual((cm.exception.status, cm.exception.retry_after), (503, 120.0))
        self.assertEqual(len(self.proxy.requests()), 1)

    def test_a_dropped_connection_is_retried(self) -> None:
        self.proxy.faults.append(("drop",))
        c = self.client(self.proxy.url, retry_base=0.05)
        c.record("notes.read")
        posts = self.proxy.requests("/events/invocation")
        self.assertEqual(len(posts), 2)
        self.assertEqual(posts[0].headers["Idempotency-Key"], posts[1].headers["Idempotency-Key"])
        self.assertEqual(c.stats["retries"], 1)
        self.assertEqual(len(self.records()), 1)

    def test_unreachable_after_the_retries(self) -> None:
        c = self.client(dead_url(), max_retries=2, retry_base=0.05)
        with self.assertRaises(ServiceUnreachable) as cm:
            c.record("notes.read")
        self.assertEqual(cm.exception.attempts, 3)
        self.assertEqual(c.stats["retries"], 2)
        self.assertIn("could not be reached after 3 attempt(s)", str(cm.exception))
