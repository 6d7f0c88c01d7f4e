"""What the tests share: the service under test (from the environment), an admin's view of it, and a recording
HTTP proxy that can lose answers, answer 503/429 with Retry-After or drop connections on cue.

The service is started by packages/python/python-client.test.ts (npm test), which sets AGENT_LEDGER_URL,
AGENT_LEDGER_TOKEN (the agent's ingress token) and AGENT_LEDGER_ADMIN_TOKEN (an admin's API token), and a policy:
tools "fs.delete*" denied (rule "no-deletes"), "payments.*" held for 600 s, "brief.*" held for 2 s, others allowed.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional

URL = os.environ.get("AGENT_LEDGER_URL", "")
TOKEN = os.environ.get("AGENT_LEDGER_TOKEN", "")
ADMIN_TOKEN = os.environ.get("AGENT_LEDGER_ADMIN_TOKEN", "")
AGENT = "py-agent"


class ServiceTest(unittest.TestCase):
    """A test against the running service; each test gets its own correlation id to find its records by."""

    def setUp(self) -> None:
        if not (URL and TOKEN and ADMIN_TOKEN):
            raise unittest.SkipTest("AGENT_LEDGER_URL, AGENT_LEDGER_TOKEN and AGENT_LEDGER_ADMIN_TOKEN are not set")
        self.correlation_id = f"py-{uuid.uuid4()}"
        self._clients: List[Any] = []

    def tearDown(self) -> None:
        for c in self._clients:
            c.close(timeout=10)

    def client(self, url: str = "", token: str = "", **kw: Any) -> Any:
        from agent_ledger import Client

        kw.setdefault("agent_key", AGENT)
        kw.setdefault("correlation_id", self.correlation_id)
        c = Client(url or URL, token or TOKEN, **kw)
        self._clients.append(c)
        return c

    def records(self) -> List[Dict[str, Any]]:
        """This test's invocations, as an admin lists them (newest first)."""
        return admin("GET", f"/api/v1/invocations?correlation_id={self.correlation_id}&limit=500")["items"]

    def until(self, what: str, f: Callable[[], Any], seconds: float = 20.0) -> Any:
        end = time.monotonic() + seconds
        while True:
            v = f()
            if v:
                return v
            if time.monotonic() > end:
                self.fail(f"timed out waiting for {what}")
            time.sleep(0.1)


def admin(method: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        URL + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}", **({"Content-Type": "application/json"} if data else {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{method} {path}: {e.code} {e.read()[:500]!r}") from None


def field_text(detail: Dict[str, Any], field: str) -> Optional[str]:
    for c in detail.get("content") or []:
        if c.get("field") == field:
            return c.get("text")
    return None


def pending_approval(tool_name: str) -> Optional[Dict[str, Any]]:
    for a in admin("GET", "/api/v1/approvals?status=pending&limit=500")["items"]:
        if a["tool_name"] == tool_name:
            return a
    return None


def dead_url() -> str:
    """A local port nobody listens on: connections are refused."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


class Seen:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method, self.path, self.headers, self.body = method, path, headers, body
        self.at = time.monotonic()

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Proxy:
    """Forwards to the service and writes down every request. faults: what to do with the next requests, in order
    (then forward): ("lose", status, retry_after) forwards, then answers status instead of the service's answer;
    ("answer", status, retry_after) answers without forwarding; ("drop",) closes the connection unanswered."""

    def __init__(self, upstream: str = "") -> None:
        self.upstream = upstream or URL
        self.faults: List[tuple] = []
        self.seen: List[Seen] = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._handle()

            def do_POST(self) -> None:
                self._handle()

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with proxy.lock:
                    proxy.seen.append(Seen(self.command, self.path, dict(self.headers.items()), body))
                    fault = proxy.faults.pop(0) if proxy.faults else None
                if fault and fault[0] == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault and fault[0] == "answer":
                    return self._answer(fault[1], {"Retry-After": fault[2]} if fault[2] is not None else {}, b"")
                status, headers, payload = proxy.forward(self.command, self.path, self.headers, body)
                if fault and fault[0] == "lose":
                    return self._answer(fault[1], {"Retry-After": fault[2]} if fault[2] is not None else {}, b"")
                self._answer(status, headers, payload)

            def _answer(self, status: int, headers: Dict[str, str], payload: bytes) -> None:
                if not payload and status >= 400:
                    payload = json.dumps({"status": status, "code": "proxy", "detail": f"the proxy answered {status}"}).encode()
                    headers = {**headers, "Content-Type": "application/problem+json"}
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def forward(self, method: str, path: str, headers: Any, body: bytes) -> tuple:
        keep = {k: v for k, v in headers.items() if k.lower() in ("authorization", "content-type", "idempotency-key")}
        req = urllib.request.Request(self.upstream + path, data=body or None, method=method, headers=keep)
        try:
            with urllib.request.urlopen(req, timeout=70) as r:
                status, hdrs, payload = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            status, hdrs, payload = e.code, e.headers, e.read()
        out = {k: v for k, v in hdrs.items() if k.lower() in ("content-type", "retry-after", "idempotent-replayed")}
        return status, out, payload

    def requests(self, path_part: str = "") -> List[Seen]:
        with self.lock:
            return [s for s in self.seen if path_part in s.path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
