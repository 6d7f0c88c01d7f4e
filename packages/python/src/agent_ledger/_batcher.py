"""The queue behind Client.enqueue(): events sent in batches by one background thread.

A batch leaves when batch_size events are queued, when the oldest queued event has waited flush_interval
seconds, on flush() and on close(). The queue holds at most max_queue events; when it is full, enqueue() either
drops the new event (when_full="drop", the default: the agent never waits on the ledger) or waits for room
(when_full="block"). Every event that is not recorded — dropped, refused by the service, still failing after the
last retry, or queued after close() — goes to on_drop: nothing is lost silently.
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Deque, Dict, List, Optional


@dataclass
class QueuedEvent:
    kind: str  # "invocation" | "rogue" | "output" (a result attached to the invocation recorded for its call)
    event: Dict[str, Any]
    #: The event's idempotency key (the batch's event_id): the same on every retry.
    key: str
    queued_at: float = 0.0
    #: "output": the invocation it is attached to.
    invocation_id: Optional[int] = None
    #: "output": the invocation event recorded instead when the service has no attach endpoint (older versions).
    fallback: Optional[Dict[str, Any]] = None


@dataclass
class DropReport:
    """reason: "queue_full" (enqueue found the queue at max_queue), "closed" (enqueue after close()),
    "rejected" (the service refused the event: a 4xx), "send_failed" (still failing after the last retry)."""

    reason: str
    events: List[QueuedEvent]
    error: Optional[BaseException] = None


class Batcher:
    def __init__(
        self,
        send: Callable[[List[QueuedEvent]], None],
        drop: Callable[[DropReport], None],
        *,
        batch_size: int,
        flush_interval: float,
        max_queue: int,
        when_full: str,
    ) -> None:
        if when_full not in ("drop", "block"):
            raise ValueError('when_full must be "drop" or "block"')
        self._send = send
        self._drop = drop
        self.batch_size = max(1, batch_size)
        self.flush_interval = flush_interval
        self.max_queue = max(1, max_queue)
        self.when_full = when_full
        self._cond = threading.Condition()
        self._queue: Deque[QueuedEvent] = collections.deque()
        self._queued = 0  # events accepted so far
        self._done = 0  # events handled so far (sent, refused or dropped after taking them)
        self._flush_to = 0  # flush() asked for everything up to this count
        self._closed = False
        self._thread: Optional[threading.Thread] = None

    @property
    def pending(self) -> int:
        with self._cond:
            return self._queued - self._done

    def put(self, item: QueuedEvent, timeout: Optional[float] = None) -> bool:
        with self._cond:
            if not self._closed and len(self._queue) >= self.max_queue and self.when_full == "block":
                if threading.current_thread() is not self._thread:
                    self._cond.wait_for(lambda: self._closed or len(self._queue) < self.max_queue, timeout)
            reason = "closed" if self._closed else "queue_full" if len(self._queue) >= self.max_queue else None
            if reason is None:
                item.queued_at = time.monotonic()
                self._queue.append(item)
                self._queued += 1
                self._start()
                if len(self._queue) >= self.batch_size or len(self._queue) == 1:
                    self._cond.notify_all()
                return True
        self._drop(DropReport(reason, [item]))
        return False

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Waits until every event queued before the call was handled; False when timeout ran out first."""
        with self._cond:
            target = self._queued
            if self._done >= target:
                return True
            self._flush_to = max(self._flush_to, target)
            self._start()
            self._cond.notify_all()
            return self._cond.wait_for(lambda: self._done >= target, timeout)

    def close(self, timeout: Optional[float] = None) -> bool:
        """Stops taking events, sends what is queued; False when timeout ran out first (the thread goes on)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _start(self) -> None:
        # Called holding the lock.
        if self._thread is None or not self._thread.is_alive():
            if not self._queue:
                return
            # A daemon: a process that never calls close() still exits (the atexit hook flushes first).
            self._thread = threading.Thread(target=self._run, name="agent-ledger-batcher", daemon=True)
            self._thread.start()

    def _due(self) -> bool:
        if not self._queue:
            return False
        return (
            self._closed
            or len(self._queue) >= self.batch_size
            or self._flush_to > self._done
            or time.monotonic() - self._queue[0].queued_at >= self.flush_interval
        )

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._due():
                    if self._closed and not self._queue:
                        self._thread = None
                        self._cond.notify_all()
                        return
                    wait = None
                    if self._queue:
                        wait = max(0.0, self.flush_interval - (time.monotonic() - self._queue[0].queued_at))
                    self._cond.wait(wait)
                batch = [self._queue.popleft() for _ in range(min(self.batch_size, len(self._queue)))]
                self._cond.notify_all()  # room for a blocked put()
            try:
                self._send(batch)
            except BaseException as err:  # never lose the thread: whatever went wrong is the batch's drop report
                self._drop(DropReport("send_failed", batch, err))
            finally:
                with self._cond:
                    self._done += len(batch)
                    self._cond.notify_all()
