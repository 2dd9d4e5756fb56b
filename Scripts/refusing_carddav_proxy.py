#!/usr/bin/env python3
"""A CardDAV proxy for the tests: forwards every request to a real server (Radicale) and, once,
refuses a token-bearing sync-collection REPORT the way some servers do, so the provider's handling
of a refused sync token is tested against real responses.

    refusing_carddav_proxy.py UPSTREAM_BASE_URL CONTROL_FILE

Prints the port it listens on (127.0.0.1), one line, then serves until killed. While CONTROL_FILE
exists, the next REPORT whose body carries a non-empty <D:sync-token> is answered with the status
the file names, and the file is removed:

    410          410 Gone, no body
    403          a bare 403 Forbidden, no body (no precondition)
    403-token    403 with the DAV:valid-sync-token precondition (RFC 6578 §3.2)
    412          412 Precondition Failed, no body
"""
import http.server
import os
import re
import sys
import urllib.error
import urllib.request

UPSTREAM = sys.argv[1].rstrip("/")
CONTROL = sys.argv[2]
TOKEN = re.compile(rb"<(?:\w+:)?sync-token>[^<]+</(?:\w+:)?sync-token>")
PRECONDITION = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>'
)


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def refusal(self, body):
        if self.command != "REPORT" or not TOKEN.search(body) or not os.path.exists(CONTROL):
            return None
        with open(CONTROL) as handle:
            kind = handle.read().strip()
        os.unlink(CONTROL)
        if kind == "403-token":
            return 403, PRECONDITION
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
