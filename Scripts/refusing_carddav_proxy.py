#!/usr/bin/env python3
"""A CardDAV proxy for the tests: forwards every request to a real server (Radicale, Xandikos) and,
once, refuses a token-bearing sync-collection REPORT the way some servers do, so the provider's
handling of a refused sync token is tested against real responses; or plays a server that has no
sync-collection REPORT at all.

    refusing_carddav_proxy.py UPSTREAM_BASE_URL CONTROL_FILE [--without-sync-collection STATUS]

Prints the port it listens on (127.0.0.1), one line, then serves until killed. While CONTROL_FILE
exists, the next REPORT whose body carries a non-empty <D:sync-token> is answered with the status
the file names, and the file is removed:

    410          410 Gone, no body
    403          a bare 403 Forbidden, no body (no precondition)
    403-token    403 with the DAV:valid-sync-token precondition (RFC 6578 §3.2)
    412          412 Precondition Failed, no body
    410-then-500 410 Gone, and the next sync-collection REPORT (the fresh listing) 500

With --without-sync-collection, every sync-collection REPORT is answered with STATUS (403: with the
DAV:supported-report precondition of RFC 3253 §3.6, as servers refuse a REPORT they lack; 501: no
body), and PROPFIND answers no longer list sync-collection in DAV:supported-report-set.
"""
import http.server
import os
import re
import sys
import urllib.error
import urllib.request

UPSTREAM = sys.argv[1].rstrip("/")
CONTROL = sys.argv[2]
WITHOUT_SYNC = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--without-sync-collection" else None
TOKEN = re.compile(rb"<(?:\w+:)?sync-token>[^<]+</(?:\w+:)?sync-token>")
SYNC_COLLECTION = re.compile(rb"<(?:\w+:)?sync-collection[\s>/]")
SUPPORTED_SYNC = re.compile(
    rb"<(\w+:)?supported-report>\s*<(?:\w+:)?report>\s*<(?:\w+:)?sync-collection\s*/>\s*</(?:\w+:)?report>\s*"
    rb"</(?:\w+:)?supported-report>"
)
UNSUPPORTED = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<D:error xmlns:D="DAV:"><D:supported-report/></D:error>'
)
state = {"fail_next_listing": False}
PRECONDITION = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>'
)


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def refusal(self, body):
        if self.command != "REPORT" or not SYNC_COLLECTION.search(body):
            return None
        if WITHOUT_SYNC is not None:
            return WITHOUT_SYNC, UNSUPPORTED if WITHOUT_SYNC == 403 else b""
        if state["fail_next_listing"] and not TOKEN.search(body):
            state["fail_next_listing"] = False
            return 500, b""
        if not TOKEN.search(body) or not os.path.exists(CONTROL):
            return None
        with open(CONTROL) as handle:
            kind = handle.read().strip()
        os.unlink(CONTROL)
        if kind == "403-token":
            return 403, PRECONDITION
        if kind == "410-then-500":
            state["fail_next_listing"] = True
            return 410, b""
        return int(kind), b""

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        refused = self.refusal(body)
        if refused:
            status, payload = refused
            self.send_response(status)
            self.send_header("Content-Length", str(len(payload)))
            if payload:
                self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.end_headers()
            self.wfile.write(payload)
            return
        request = urllib.request.Request(UPSTREAM + self.path, data=body or None, method=self.command)
        for name, value in self.headers.items():
            if name.lower() not in ("host", "content-length", "connection"):
                request.add_header(name, value)
        try:
            with urllib.request.urlopen(request) as response:
                status, headers, payload = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, payload = error.code, error.headers, error.read()
        if WITHOUT_SYNC is not None and self.command == "PROPFIND":
            payload = SUPPORTED_SYNC.sub(b"", payload)
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCOL = do_OPTIONS = do_POST = forward


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
print(server.server_address[1], flush=True)
server.serve_forever()
