# SPDX-License-Identifier: Apache-2.0
"""A local HTTPS admission webhook for the kubectl compat suite (issue 24).

It answers AdmissionReview v1 as controller-runtime's admission.Denied / Allowed do: ConfigMaps
named `webhook-denied` are refused (code 403, reason Forbidden, message "name is reserved"),
every other request is allowed with one warning. The certificate (SAN IP:127.0.0.1) is made by
the openssl command-line tool.
"""
import base64
import http.server
import json
import os
import ssl
import subprocess
import threading

DENY_NAME = "webhook-denied"
MESSAGE = "name is reserved"
WARNING = "checked by the compat webhook"


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's naming)
        review = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        request = review.get("request", {})
        name = (request.get("object") or {}).get("metadata", {}).get("name", "")
        response = {"uid": request.get("uid", ""), "allowed": True, "warnings": [WARNING]}
        if name == DENY_NAME:
            response = {"uid": request.get("uid", ""), "allowed": False,
                        "status": {"code": 403, "reason": "Forbidden", "message": MESSAGE}}
        body = json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                           "response": response}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Webhook:
    """Serves on 127.0.0.1:<free port> until stop()."""

    def __init__(self, workdir):
        key = os.path.join(workdir, "webhook.key")
        self.cert = os.path.join(workdir, "webhook.crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", self.cert], check=True, capture_output=True)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def configuration(self, name):
        with open(self.cert, "rb") as f:
            ca = base64.b64encode(f.read()).decode()
        url = f"https://127.0.0.1:{self.server.server_address[1]}/validate"
        return json.dumps({
            "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": name},
            "webhooks": [{"name": "deny.compat.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
                          "clientConfig": {"url": url, "caBundle": ca},
                          "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                                     "resources": ["configmaps"]}]}]})

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
