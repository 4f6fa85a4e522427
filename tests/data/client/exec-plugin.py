#!/usr/bin/python3
# Test exec credential plugin. Behaviour from the environment:
#   PLUGIN_STATE   file holding a run counter (token is "exec-token-<n>")
#   PLUGIN_EXPIRY  expirationTimestamp to print (optional)
#   PLUGIN_FAIL    exit code to fail with (prints two stderr lines)
#   PLUGIN_INFO    file to copy KUBERNETES_EXEC_INFO into
#   PLUGIN_CERT / PLUGIN_KEY  PEM files to return as a client certificate instead of a token
import json, os, sys

info = os.environ.get("KUBERNETES_EXEC_INFO", "")
if os.environ.get("PLUGIN_INFO"):
    with open(os.environ["PLUGIN_INFO"], "w") as f:
        f.write(info)
if os.environ.get("PLUGIN_FAIL"):
    sys.stderr.write("error: could not reach the identity provider\nhint: run login first\n")
    sys.exit(int(os.environ["PLUGIN_FAIL"]))
api = json.loads(info)["apiVersion"] if info else "client.authentication.k8s.io/v1beta1"
n = 1
state = os.environ.get("PLUGIN_STATE")
if state:
    if os.path.exists(state):
        with open(state) as f:
            n = int(f.read().strip() or "0") + 1
    with open(state, "w") as f:
        f.write(str(n))
status = {}
if os.environ.get("PLUGIN_CERT"):
    status["clientCertificateData"] = open(os.environ["PLUGIN_CERT"]).read()
    status["clientKeyData"] = open(os.environ["PLUGIN_KEY"]).read()
else:
    status["token"] = "exec-token-%d" % n
if os.environ.get("PLUGIN_EXPIRY"):
    status["expirationTimestamp"] = os.environ["PLUGIN_EXPIRY"]
print(json.dumps({"apiVersion": api, "kind": "ExecCredential", "status": status}))
