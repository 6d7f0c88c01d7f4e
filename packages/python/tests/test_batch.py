"""enqueue(): events sent in batches by the background thread — by size, by interval, on flush(), on close() and
at exit; a bounded queue that drops (and reports) what does not fit; event ids kept across a batch's retries."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from typing import List

from agent_ledger import DropReport
from helpers import TOKEN, URL, Proxy, ServiceTest

BATCH = "/events/batch"


class BatchTest(ServiceTest):
    def setUp(self) -> None:
        super().setUp()
        self.proxy = Proxy()
        self.addCleanup(self.proxy.close)
        self.drops: List[DropReport] = []

    def batching(self, **kw):  # type: ignore[no-untyped-def]
        kw.setdefault("flush_interval", 60)
        return self.client(self.proxy.url, on_drop=self.drops.append, **kw)

    def test_flush_sends_what_is_queued_in_one_batch(self) -> None:
        c = self.batching()
        self.assertTrue(all(c.enqueue("notes.read", tool_input=f"#{i}") for i in range(3)))
        time.sleep(0.3)
        self.assertEqual(self.proxy.requests(), [], "nothing leaves before the interval, the size or a flush")
        self.assertEqual(c.stats["queued"], 3)
        self.assertTrue(c.flush(timeout=10))
        [batch] = self.proxy.requests(BATCH)
        events = batch.json()["events"]
        self.assertEqual([e["kind"] for e in events], ["invocation"] * 3)
        self.assertEqual(len({e["event_id"] for e in events}), 3, "each event has its own idempotency key")
        self.assertEqual(len(self.records()), 3)
        self.assertEqual((c.stats["sent"], c.stats["queued"], c.stats["dropped"]), (3, 0, 0))

    def test_the_background_thread_sends_after_flush_interval(self) -> None:
        c = self.batching(flush_interval=0.2)
        c.enqueue("notes.read")
        c.enqueue_rogue("oos_tool", tool="shell.exec")
        self.until("the background batch", lambda: self.proxy.requests(BATCH))
        [batch] = self.proxy.requests(BATCH)
        self.assertEqual([e["kind"] for e in batch.json()["events"]], ["invocation", "rogue"])
        self.until("both recorded", lambda: c.stats["sent"] == 2)
        self.assertEqual(len(self.records()), 1)

    def test_batch_size_sends_without_waiting_for_the_interval(self) -> None:
        c = self.batching(batch_size=3)
        for i in range(7):
            c.enqueue("notes.read", tool_input=f"#{i}")
        self.until("two full batches", lambda: len(self.proxy.requests(BATCH)) == 2)
        time.sleep(0.2)
        self.assertEqual(len(self.proxy.requests(BATCH)), 2, "the seventh waits for the interval")
        c.flush(timeout=10)
        self.assertEqual([len(b.json()["events"]) for b in self.proxy.requests(BATCH)], [3, 3, 1])
        self.assertEqual(len(self.records()), 7)

    def test_close_sends_the_queue_and_refuses_events_after(self) -> None:
        c = self.batching()
        c.enqueue("notes.read")
        c.enqueue("notes.write")
        self.assertTrue(c.close(timeout=10))
        self.assertEqual(sorted(r["tool_name"] for r in self.records()), ["notes.read", "notes.write"])
        self.assertFalse(c.enqueue("notes.late"))
        self.assertEqual([d.reason for d in self.drops], ["closed"])
        self.assertEqual(self.drops[0].events[0].event["tool_name"], "notes.late")
        self.assertEqual(c.stats["dropped"], 1)

    def test_a_full_queue_drops_the_new_event_and_reports_it(self) -> None:
        c = self.batching(max_queue=2)
        self.assertEqual([c.enqueue("notes.read", tool_input=f"#{i}") for i in range(3)], [True, True, False])
        self.assertEqual([(d.reason, d.events[0].event["tool_input"]) for d in self.drops], [("queue_full", "#2")])
        c.close(timeout=10)
        self.assertEqual(len(self.records()), 2)

    def test_when_full_block_waits_for_room(self) -> None:
        c = self.batching(max_queue=2, batch_size=2, when_full="block")
        started = time.monotonic()
        results = [c.enqueue("notes.read", tool_input=f"#{i}", block_timeout=10) for i in range(5)]
        self.assertEqual(results, [True] * 5)
        self.assertLess(time.monotonic() - started, 10)
        c.close(timeout=10)
        self.assertEqual(self.drops, [])
        self.assertEqual(len(self.records()), 5)

    def test_an_event_the_service_refuses_is_reported_the_others_recorded(self) -> None:
        c = self.batching()
        c.enqueue("notes.read")
        c.enqueue("x" * 300)
        c.flush(timeout=10)
        [drop] = self.drops
        self.assertEqual(drop.reason, "rejected")
        self.assertEqual(drop.events[0].event["tool_name"], "x" * 300)
        self.assertEqual(drop.error.status, 422)
        self.assertEqual((c.stats["sent"], c.stats["dropped"]), (1, 1))
        self.assertEqual(len(self.records()), 1)

    def test_a_lost_batch_answer_is_retried_with_the_same_event_ids(self) -> None:
        self.proxy.faults.append(("lose", 503, "0"))
        c = self.batching()
        c.enqueue("notes.read")
        c.enqueue("notes.write")
        c.flush(timeout=20)
        first, second = self.proxy.requests(BATCH)
        self.assertEqual(first.body, second.body)
        self.assertEqual(len(self.records()), 2, "recorded once each")
        self.assertEqual(c.stats["sent"], 2)

    def test_the_service_unreachable_reports_send_failed(self) -> None:
        from helpers import dead_url

        c = self.client(dead_url(), on_drop=self.drops.append, max_retries=1, retry_base=0.05, flush_interval=60)
        c.enqueue("notes.read")
        c.flush(timeout=10)
        self.assertEqual([d.reason for d in self.drops], ["send_failed"])
        self.assertIn("could not be reached", str(self.drops[0].error))

    def test_a_process_that_never_closes_still_sends_at_exit(self) -> None:
        script = textwrap.dedent(
            f"""
            import agent_ledger
            c = agent_ledger.Client({URL!r}, {TOKEN!r}, agent_key="py-agent",
                                    correlation_id={self.correlation_id!r}, flush_interval=60)
            c.enqueue("notes.read")
            c.enqueue("notes.write")
            """
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(self.records()), 2)
