#!/usr/bin/python3
"""Compat suite: real kubectl binaries against opbench-apiserver.

Usage: compat_kubectl.py PATH/TO/opbench-apiserver

Drives `kubectl` on PATH plus the oldest and newest `kubectl.1.*` found beside it (in the PATH
folder or the folder the PATH entry links to). Each binary works in its own namespace on one
shared server, with a fresh --cache-dir. Prints ok/FAIL/skip lines and "N passed, M failed".
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compat_common import DATA_DIR, Server, excerpt, main_guard  # noqa: E402
from compat_webhook import DENY_NAME, MESSAGE, WARNING, Webhook  # noqa: E402

SLOW_SECONDS = 5.0
DEPLOYMENT_YAML = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
"""
COMMAND_TIMEOUT = 60
CSA_DEPLOYMENT_YAML = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: csa
spec:
  replicas: 1
  selector:
    matchLabels:
      app: csa
  template:
    metadata:
      labels:
        app: csa
    spec:
      containers:
      - name: main
        image: nginx:1.25
        securityContext:
          seLinuxOptions:
            level: "s0:c1"
        env:
        - name: A
          value: "1"
      - name: side
        image: busybox:1.36
"""


def find_kubectls():
    """[(label, path)]: kubectl on PATH, then the oldest and newest kubectl.1.<minor> beside it."""
    on_path = shutil.which("kubectl")
    if not on_path:
        return []
    found = [("kubectl", on_path)]
    folders = {os.path.dirname(on_path), os.path.dirname(os.path.realpath(on_path))}
    versioned = {}
    for folder in folders:
        for path in glob.glob(os.path.join(folder, "kubectl.1.*")):
            match = re.fullmatch(r"kubectl\.1\.(\d+)", os.path.basename(path))
            if match and os.access(path, os.X_OK):
                versioned.setdefault(int(match.group(1)), path)
    if versioned:
        minors = sorted(versioned)
        for minor in dict.fromkeys([minors[0], minors[-1]]):
            found.append((f"kubectl.1.{minor}", versioned[minor]))
    return found


class Kubectl:
    """Runs one kubectl binary against the server, timing each command."""

    def __init__(self, label, path, kubeconfig, namespace, report, slow):
        self.label, self.path, self.namespace = label, path, namespace
        self.report, self.slow = report, slow
        self.cache = tempfile.mkdtemp(prefix="kubectl-cache-")
        self.base = [path, "--kubeconfig", kubeconfig, "--cache-dir", self.cache]
        self.timings = []  # (seconds, command) for every command run

    def argv(self, args, namespaced=True):
        return self.base + (["-n", self.namespace] if namespaced else []) + list(args)

    def run(self, *args, namespaced=True, timeout=COMMAND_TIMEOUT, stdin=None):
        """Returns (rc, stdout, stderr, seconds); rc is None on timeout."""
        argv = self.argv(args, namespaced)
        start = time.monotonic()
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, input=stdin)
            rc, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = None, e.stdout or "", (e.stderr or "") + f" [timed out after {timeout} s]"
            out = out.decode() if isinstance(out, bytes) else out
            err = err.decode() if isinstance(err, bytes) else err
        seconds = time.monotonic() - start
        self.timings.append((seconds, " ".join(args)))
        if seconds > SLOW_SECONDS:
            self.slow.append(f"{self.label} {' '.join(args)}: {seconds:.1f} s")
        return rc, out, err, seconds

    def what(self, text):
        return f"{self.label}: {text}"

    def expect(self, what, args, want_rc0=True, contains=(), timeout=COMMAND_TIMEOUT, max_seconds=None,
               namespaced=True, stdin=None):
        """Runs a command and checks rc and substrings of stdout+stderr; returns (ok, stdout)."""
        rc, out, err, seconds = self.run(*args, namespaced=namespaced, timeout=timeout, stdin=stdin)
        problems = []
        if rc is None:
            problems.append("timed out")
        elif want_rc0 and rc != 0:
            problems.append(f"rc={rc}")
        elif not want_rc0 and rc == 0:
            problems.append("rc=0 but a failure was expected")
        both = out + err
        problems += [f"missing {needle!r}" for needle in contains if needle not in both]
        if max_seconds is not None and seconds > max_seconds:
            problems.append(f"took {seconds:.1f} s (limit {max_seconds} s)")
        details = (f"{'; '.join(problems)}; command: kubectl {' '.join(args)}; "
                   f"stdout: {excerpt(out)}; stderr: {excerpt(err)}")
        ok = self.report.check(not problems, self.what(f"{what} ({seconds:.1f} s)"), details)
        return ok, out

    def create_builtin(self, what, generator_args, manifest, namespaced=True):
        """Runs a `kubectl create <kind>` generator (kubectl >= 1.33 sends its body as
        application/vnd.kubernetes.protobuf); when it fails, reports the failure and creates the
        same object from a YAML manifest (always JSON on the wire) so later checks still run."""
        rc, out, err, _ = self.run(*generator_args, namespaced=namespaced)
        ok = self.report.check(rc == 0 and "created" in out + err, self.what(what),
                               f"rc={rc}; command: kubectl {' '.join(generator_args)}; stdout: {excerpt(out)}; "
                               f"stderr: {excerpt(err)}")
        if not ok:
            self.expect(f"{what} (fallback: create -f - from YAML)", ["create", "-f", "-"], stdin=manifest,
                        namespaced=namespaced, contains=("created",))
        return ok

    def get_json(self, *args):
        rc, out, err, _ = self.run("get", *args, "-o", "json")
        if rc != 0:
            return None, f"kubectl get {' '.join(args)} -o json: rc={rc}; stderr: {excerpt(err)}"
        try:
            return json.loads(out), ""
        except ValueError as e:
            return None, f"stdout is not JSON ({e}): {excerpt(out)}"


def check_discovery(k):
    ok, out = k.expect("version shows the server version", ["version"], contains=("Server Version",),
                       namespaced=False)
    ok, out = k.expect("api-resources", ["api-resources"], namespaced=False)
    if ok:
        row = next((line for line in out.splitlines() if line.startswith("myapplications ")), "")
        k.report.check(re.search(r"\bmyapp\b", row) and "example.com" in row and "MyApplication" in row,
                       k.what("api-resources lists myapplications (short name myapp, example.com)"),
                       f"row: {row!r}; stdout: {excerpt(out)}")


def check_create_and_get(k):
    k.expect("create -f MyApplication with validation", ["create", "-f", os.path.join(DATA_DIR, "myapp-create.yaml")],
             contains=("demo-create", "created"))
    ok, out = k.expect("get myapp (table)", ["get", "myapp"])
    if ok:
        lines = out.splitlines()
        header = lines[0].split() if lines else []
        want = ["NAME", "IMAGE", "REPLICAS", "AVAILABLE", "PHASE", "AGE"]
        k.report.check(header == want, k.what("table columns NAME IMAGE REPLICAS AVAILABLE PHASE AGE"),
                       f"header {header}; stdout: {excerpt(out)}")
        row = next((line.split() for line in lines[1:] if line.startswith("demo-create ")), [])
        k.report.check(len(row) >= 3 and row[1] == "nginx:1.25" and row[2] == "2"
                       and re.fullmatch(r"\d+[smhdy](\d+[smh])?", row[-1] if row else ""),
                       k.what("table row demo-create shows image, replicas and a formatted age"),
                       f"row {row}; stdout: {excerpt(out)}")
    k.expect("describe myapp", ["describe", "myapp", "demo-create"],
             contains=("Name:", "demo-create", "Kind:", "MyApplication", "Image:", "nginx:1.25"))
    k.expect("get all lists the MyApplication (category all)", ["get", "all"],
             contains=("myapplication.example.com/demo-create",))
    obj, err = k.get_json("myapp", "demo-create")
    if obj is None:
        k.report.fail(k.what("get myapp demo-create -o json"), err)
        return
    meta, spec = obj.get("metadata", {}), obj.get("spec", {})
    problems = [f"{field}={value!r}" for field, value in [
        ("kind", obj.get("kind")), ("apiVersion", obj.get("apiVersion")), ("metadata.name", meta.get("name")),
        ("metadata.namespace", meta.get("namespace")), ("spec.image", spec.get("image")),
        ("spec.replicas", spec.get("replicas")), ("metadata.labels", meta.get("labels"))]
        if value != {"kind": "MyApplication", "apiVersion": "example.com/v1alpha1", "metadata.name": "demo-create",
                     "metadata.namespace": k.namespace, "spec.image": "nginx:1.25", "spec.replicas": 2,
                     "metadata.labels": {"suite": "compat"}}[field]]
    problems += [f"metadata.{f} missing" for f in ("uid", "resourceVersion", "creationTimestamp") if not meta.get(f)]
    if meta.get("generation") != 1:
        problems.append(f"metadata.generation={meta.get('generation')!r} (want 1)")
    k.report.check(not problems, k.what("get myapp demo-create -o json has the expected fields"),
                   "; ".join(problems) + f"; object: {excerpt(json.dumps(obj))}")


def check_apply(k, workdir):
    source = os.path.join(DATA_DIR, "myapp-apply.yaml")
    k.expect("apply -f creates", ["apply", "-f", source], contains=("demo-apply", "created"))
    changed = os.path.join(workdir, f"myapp-apply-{k.namespace}.yaml")
    with open(source) as f, open(changed, "w") as g:
        g.write(f.read().replace("replicas: 1", "replicas: 3").replace("nginx:1.25", "nginx:1.26"))
    k.expect("apply -f updates", ["apply", "-f", changed], contains=("demo-apply", "configured"))
    obj, err = k.get_json("myapp", "demo-apply")
    if obj is None:
        k.report.fail(k.what("apply result readable"), err)
        return
    spec, meta = obj.get("spec", {}), obj.get("metadata", {})
    annotation = meta.get("annotations", {}).get("kubectl.kubernetes.io/last-applied-configuration", "")
    k.report.check(spec.get("replicas") == 3 and spec.get("image") == "nginx:1.26" and '"replicas":3' in annotation
                   and meta.get("generation") == 2,
                   k.what("apply update changed spec, kept last-applied annotation, generation 2"),
                   f"spec={spec}; generation={meta.get('generation')}; annotation={annotation!r}")
    k.expect("apply -f again is unchanged", ["apply", "-f", changed], contains=("unchanged",))
    ssa = os.path.join(workdir, f"myapp-ssa-{k.namespace}.yaml")
    with open(source) as f, open(ssa, "w") as g:
        g.write(f.read().replace("demo-apply", "demo-ssa"))
    k.expect("apply --server-side creates", ["apply", "--server-side", "-f", ssa], contains=("demo-ssa", "serverside-applied"))
    k.expect("delete the server-side applied object", ["delete", "myapp", "demo-ssa"], contains=("deleted",),
             timeout=30, max_seconds=10)


def check_server_side_apply(k, workdir):
    """apply --server-side: a field another manager set is a conflict naming it; --force-conflicts
    takes it over; a field dropped from the applied file goes; --show-managed-fields shows the
    entries."""
    created = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa-owned\ndata:\n  a: '1'\n"
    k.expect("create a ConfigMap for the apply conflict", ["create", "-f", "-"], stdin=created, contains=("created",))
    mine = os.path.join(workdir, f"ssa-owned-{k.namespace}.yaml")
    with open(mine, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa-owned\ndata:\n  a: '2'\n  b: '2'\n")
    k.expect("apply --server-side reports the conflict with kubectl-create", ["apply", "--server-side", "-f", mine],
             want_rc0=False, contains=("Apply failed with 1 conflict", 'conflict with "kubectl-create"', ".data.a"))
    k.expect("apply --server-side --force-conflicts takes the field", ["apply", "--server-side", "--force-conflicts", "-f", mine],
             contains=("ssa-owned", "serverside-applied"))
    ok, out = k.expect("get -o yaml --show-managed-fields shows the entries",
                       ["get", "configmap", "ssa-owned", "-o", "yaml", "--show-managed-fields"],
                       contains=("managedFields:", "manager: kubectl", "operation: Apply", "f:data:", "f:b: {}"))
    rc, plain, _, _ = k.run("get", "configmap", "ssa-owned", "-o", "yaml")
    k.report.check(rc == 0 and "managedFields" not in plain, k.what("get -o yaml hides managedFields by default"),
                   f"rc={rc}; stdout: {excerpt(plain)}")
    with open(mine, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa-owned\ndata:\n  b: '2'\n")
    k.expect("apply --server-side without a field", ["apply", "--server-side", "-f", mine], contains=("serverside-applied",))
    obj, err = k.get_json("configmap", "ssa-owned")
    data = (obj or {}).get("data")
    k.report.check(data == {"b": "2"}, k.what("a field dropped from the applied file is removed"), f"data={data}; {err}")
    k.expect("delete the ConfigMap of the apply conflict", ["delete", "configmap", "ssa-owned"], contains=("deleted",))


def check_apply_upgrade(k, workdir):
    """kubectl apply (client-side) then apply --server-side of a changed file: no conflict with
    kubectl-client-side-apply on fields still as last applied, and the last-applied annotation
    follows, so going back to client-side apply removes what the file no longer has."""
    path = os.path.join(workdir, f"upgrade-{k.namespace}.yaml")
    with open(path, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upgrade\ndata:\n  a: '1'\n")
    k.expect("apply -f a ConfigMap (client-side)", ["apply", "-f", path], contains=("configmap/upgrade created",))
    with open(path, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upgrade\ndata:\n  a: '2'\n  b: '2'\n")
    k.expect("apply --server-side over a client-side apply takes its fields without a conflict",
             ["apply", "--server-side", "-f", path], contains=("configmap/upgrade serverside-applied",))
    obj, err = k.get_json("configmap", "upgrade")
    annotation = ((obj or {}).get("metadata", {}).get("annotations") or {}).get("kubectl.kubernetes.io/last-applied-configuration", "{}")
    k.report.check((obj or {}).get("data") == {"a": "2", "b": "2"} and json.loads(annotation).get("data") == {"a": "2", "b": "2"},
                   k.what("the server-side apply took effect and rewrote the last-applied annotation"),
                   f"data={(obj or {}).get('data')}; annotation={annotation}; {err}")
    with open(path, "w") as f:
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upgrade\ndata:\n  a: '1'\n")
    k.expect("apply -f (client-side again)", ["apply", "-f", path], contains=("configmap/upgrade configured",))
    obj, err = k.get_json("configmap", "upgrade")
    k.report.check((obj or {}).get("data") == {"a": "1"}, k.what("back on client-side apply, b (dropped from the file) is removed"),
                   f"data={(obj or {}).get('data')}; {err}")


def check_configmaps(k):
    k.create_builtin("create configmap", ["create", "configmap", "cm1", "--from-literal=a=1"],
                     'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\ndata:\n  a: "1"\n')
    ok, out = k.expect("get configmaps -o yaml", ["get", "configmaps", "-o", "yaml"],
                       contains=("kind: List", "name: cm1", 'a: "1"'))
    if k.create_builtin("create secret generic", ["create", "secret", "generic", "s1", "--from-literal=password=s3cr3t"],
                        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s1\nstringData:\n  password: s3cr3t\n'):
        obj, err = k.get_json("secret", "s1")
        data = (obj or {}).get("data", {})
        k.report.check(obj is not None and obj.get("type") == "Opaque" and data == {"password": "czNjcjN0"},
                       k.what("secret s1 has type Opaque and the base64 password"),
                       err or f"object: {excerpt(json.dumps(obj))}")
    k.expect("label configmap", ["label", "configmap", "cm1", "tier=web"], contains=("labeled",))
    ok, out = k.expect("get configmaps -l tier=web", ["get", "configmaps", "-l", "tier=web", "-o", "name"],
                       contains=("configmap/cm1",))
    ok, out = k.expect("get configmaps -l tier=db is empty", ["get", "configmaps", "-l", "tier=db", "-o", "name"])
    if ok:
        k.report.check("cm1" not in out, k.what("label selector tier=db excludes cm1"), f"stdout: {excerpt(out)}")
    k.expect("patch --type merge configmap", ["patch", "configmap", "cm1", "--type", "merge",
                                              "-p", '{"data":{"b":"2"}}'], contains=("patched",))
    k.expect("patch (strategic, default) configmap", ["patch", "configmap", "cm1",
                                                      "-p", '{"metadata":{"labels":{"x":"y"}},"data":{"a":null}}'],
             contains=("patched",))
    obj, err = k.get_json("configmap", "cm1")
    if obj is None:
        k.report.fail(k.what("patched configmap readable"), err)
        return
    data, labels = obj.get("data", {}), obj.get("metadata", {}).get("labels", {})
    k.report.check(data == {"b": "2"} and labels == {"tier": "web", "x": "y"},
                   k.what("configmap after label, merge patch and strategic patch"),
                   f"data={data} (want {{'b': '2'}}); labels={labels} (want tier=web, x=y)")


def check_watch(k):
    """get myapp -w must print the row for a change made while it runs."""
    argv = k.argv(["get", "myapp", "-w", "--request-timeout=30s"])
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, seen_initial, seen_update = [], threading.Event(), threading.Event()

    def pump():
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("demo-create "):
                if re.match(r"demo-create\s+\S+\s+5\s", line):
                    seen_update.set()
                else:
                    seen_initial.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        if not seen_initial.wait(20):
            k.report.fail(k.what("get myapp -w prints the initial list"),
                          f"no demo-create row in 20 s; stdout: {excerpt(chr(10).join(lines))}")
            return
        rc, out, err, _ = k.run("patch", "myapp", "demo-create", "--type", "merge", "-p", '{"spec":{"replicas":5}}')
        if rc != 0:
            k.report.fail(k.what("patch myapp during watch"), f"rc={rc}; stderr: {excerpt(err)}")
            return
        k.report.check(seen_update.wait(20), k.what("get myapp -w prints the update (replicas 5)"),
                       f"stdout so far: {excerpt(chr(10).join(lines))}; rc={proc.poll()}")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        reader.join(2)
        seconds = time.monotonic() - start
        if seconds > SLOW_SECONDS + 1:
            k.slow.append(f"{k.label} get myapp -w (until the update was seen): {seconds:.1f} s")
    stderr = proc.stderr.read()
    bogus = [line for line in lines if line and not line.startswith(("NAME", "demo-create ", "demo-apply "))]
    k.report.check(not bogus, k.what("get -w printed only myapp rows"),
                   f"unexpected lines {bogus[:3]}; stderr: {excerpt(stderr)}")


def check_deployment(k):
    k.create_builtin("create deployment", ["create", "deployment", "web", "--image=nginx:1.25", "--replicas=1"],
                     DEPLOYMENT_YAML)
    k.expect("patch (strategic) deployment container image",
             ["patch", "deployment", "web", "-p",
              '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.26"}]}}}}'],
             contains=("patched",))
    obj, err = k.get_json("deployment", "web")
    containers = (obj or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    k.report.check(len(containers) == 1 and containers[0].get("name") == "nginx"
                   and containers[0].get("image") == "nginx:1.26",
                   k.what("strategic patch merged the container by name"), err or f"containers={containers}")
    k.expect("scale deployment --replicas=3", ["scale", "deployment", "web", "--replicas=3"], contains=("scaled",))
    deadline, status = time.monotonic() + 20, {}
    while time.monotonic() < deadline:
        obj, err = k.get_json("deployment", "web")
        status = (obj or {}).get("status", {})
        if obj and obj["spec"].get("replicas") == 3 and status.get("readyReplicas") == 3 \
                and status.get("updatedReplicas") == 3:
            break
        time.sleep(0.5)
    k.report.check(status.get("readyReplicas") == 3 and status.get("availableReplicas") == 3,
                   k.what("scaled deployment reports 3 ready/available replicas within 20 s"),
                   f"status={status}")
    k.expect("rollout status deployment", ["rollout", "status", "deployment/web", "--timeout=20s"],
             contains=("successfully rolled out",), timeout=30)
    # The simulated controllers and kubelet write the Events a real cluster's would.
    k.expect("events --for deployment/web", ["events", "--for", "deployment/web"],
             contains=("ScalingReplicaSet", "Scaled up replica set web-"))
    k.expect("describe deployment web (Events)", ["describe", "deployment", "web"],
             contains=("Events:", "ScalingReplicaSet"))
    k.expect("describe pods (kubelet Events)", ["describe", "pods", "-l", "app=web"],
             contains=("Scheduled", "Started container nginx"))


def check_explain(k):
    """kubectl explain reads the server's OpenAPI v3 documents (built-ins and the CRD)."""
    for args, patterns in [
            (["explain", "deployment.spec.replicas"], [r"KIND:\s+Deployment", r"FIELD: replicas <integer>", r"DESCRIPTION:\s+\S"]),
            (["explain", "myapplication.spec"], [r"KIND:\s+MyApplication", r"image\s+<string> -required-", r"replicas\s+<integer>"]),
            (["explain", "deployment.spec", "--recursive"],
             [r"matchLabels\s+<map\[string\]string>", r"containers\s+<\[\]Container> -required-", r"maxSurge\s+<IntOrString>"]),
            (["explain", "myapplications", "--recursive"], [r"spec\s+<Object>", r"image\s+<string>"]),
            (["explain", "svc.spec.type"], [r"FIELD: type <string>", r"DESCRIPTION:\s+\S"]),
            (["explain", "pods.spec.containers.resources.limits"], [r"map\[string\]Quantity"])]:
        ok, out = k.expect(" ".join(args), args, namespaced=False)
        if ok:
            missing = [p for p in patterns if not re.search(p, out)]
            k.report.check(not missing, k.what(f"{' '.join(args)} shows the schema"),
                           f"missing {missing}; stdout: {excerpt(out)}")


def check_openapi_v2(k, workdir):
    """The swagger 2.0 document (/openapi/v2, gnostic protobuf): explain with the v2 printer,
    client-side apply computing its strategic merge patch from the served patch merge keys,
    and create --validate=strict refusing unknown fields of a built-in kind and of a CRD."""
    for args, patterns in [
            (["explain", "deployment.spec.replicas", "--output=plaintext-openapiv2"],
             [r"KIND:\s+Deployment", r"FIELD:\s+replicas <integer>", r"DESCRIPTION:\s+\S"]),
            (["explain", "myapplication.spec", "--recursive"],
             [r"KIND:\s+MyApplication", r"image\s+<string>", r"replicas\s+<integer>"]),
            (["explain", "myapplication.spec", "--recursive", "--output=plaintext-openapiv2"],
             [r"KIND:\s+MyApplication", r"RESOURCE:\s+spec <Object>", r"image\s+<string>", r"replicas\s+<integer>"]),
            (["explain", "deployment.spec.template.spec.containers", "--recursive", "--output=plaintext-openapiv2"],
             [r"RESOURCE:\s+containers <\[\]Object>", r"\n\s+env\s+<\[\]Object>\n\s+name\s+<string>", r"containerPort\s+<integer>"])]:
        ok, out = k.expect(" ".join(args), args, namespaced=False)
        if ok:
            missing = [p for p in patterns if not re.search(p, out)]
            k.report.check(not missing, k.what(f"{' '.join(args)} shows the schema"),
                           f"missing {missing}; stdout: {excerpt(out)}")

    # client-side apply: kubectl computes the strategic merge patch from /openapi/v2's merge
    # keys; containers merge by name, so a field another manager set on one container survives
    source = os.path.join(workdir, f"csa-{k.namespace}.yaml")
    with open(source, "w") as f:
        f.write(CSA_DEPLOYMENT_YAML)
    k.expect("apply -f Deployment (client-side)", ["apply", "-f", source], contains=("deployment.apps/csa created",))
    k.expect("set env on the side container (another field manager)", ["set", "env", "deployment/csa", "-c", "side", "B=3"],
             contains=("env updated",))
    with open(source, "w") as f:
        f.write(CSA_DEPLOYMENT_YAML.replace("nginx:1.25", "nginx:1.26").replace("s0:c1", "s0:c2").replace('value: "1"', 'value: "2"'))
    rc, out, err, _ = k.run("apply", "-f", source)
    # a schema kubectl cannot walk shows as "warning: error calculating patch from openapi spec"
    k.report.check(rc == 0 and "deployment.apps/csa configured" in out and "warning" not in err.lower(),
                   k.what("apply -f changed containers (client-side strategic merge patch, no warning)"),
                   f"rc={rc}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
    obj, problem = k.get_json("deployment", "csa")
    containers = {c.get("name"): c for c in ((obj or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", []))}
    k.report.check(obj is not None and containers.get("main", {}).get("image") == "nginx:1.26"
                   and containers.get("main", {}).get("env") == [{"name": "A", "value": "2"}]
                   and containers.get("main", {}).get("securityContext") == {"seLinuxOptions": {"level": "s0:c2"}}
                   and containers.get("side", {}).get("env") == [{"name": "B", "value": "3"}]
                   and list(containers) == ["main", "side"],
                   k.what("client-side apply merged containers by name (side keeps env B=3, main updated)"),
                   f"{problem}; containers: {excerpt(json.dumps(list(containers.values())))}")
    # dropping a container from the file: kubectl sends a by-name delete only when the served
    # schema says containers merge by name (a replacement list would be merged by the server)
    with open(source, "w") as f:
        f.write(CSA_DEPLOYMENT_YAML.split("      - name: side")[0])
    k.expect("apply -f without the side container (client-side)", ["apply", "-f", source],
             contains=("deployment.apps/csa configured",))
    obj, problem = k.get_json("deployment", "csa")
    names = [c.get("name") for c in ((obj or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", []))]
    k.report.check(names == ["main"], k.what("client-side apply removed the container dropped from the file"),
                   f"{problem}; containers: {names}")

    bogus_cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict-cm\ndata:\n  a: b\nbogus: 1\n"
    k.expect("create --validate=strict refuses an unknown field of a ConfigMap",
             ["create", "--validate=strict", "-f", "-"], stdin=bogus_cm, want_rc0=False,
             contains=('unknown field "bogus"',))
    bogus_app = ("apiVersion: example.com/v1alpha1\nkind: MyApplication\nmetadata:\n  name: strict-app\n"
                 "spec:\n  image: nginx:1.25\n  replicas: 1\n  bogusField: 2\n")
    k.expect("create --validate=strict refuses an unknown field of a MyApplication",
             ["create", "--validate=strict", "-f", "-"], stdin=bogus_app, want_rc0=False,
             contains=('unknown field "spec.bogusField"',))
    rc, out, err, _ = k.run("get", "configmap", "strict-cm")
    k.report.check(rc != 0 and "not found" in (out + err).lower(),
                   k.what("the refused ConfigMap was not stored"), f"rc={rc}; {excerpt(out + err)}")


def check_tables(k):
    """kubectl get prints the columns a real cluster shows (server-side Tables)."""
    k.expect("expose deployment web --port=80", ["expose", "deployment", "web", "--port=80"], contains=("exposed",))
    for args, header, row_re in [
            (["get", "svc", "web"], "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE",
             r"^web\s+ClusterIP\s+\d+\.\d+\.\d+\.\d+\s+<none>\s+80/TCP\s+\d+[smhd]"),
            (["get", "svc", "web", "-o", "wide"], "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR",
             r"^web\s+.*\s+app=web$"),
            (["get", "pods"], "NAME READY STATUS RESTARTS AGE", r"^web-\S+\s+1/1\s+Running\s+0\s+\d+"),
            (["get", "pods", "-o", "wide"], "NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES",
             r"^web-\S+\s+1/1\s+Running\s+0\s+\S+\s+[\d.]+\s+\S+\s+<none>\s+<none>$"),
            (["get", "rs"], "NAME DESIRED CURRENT READY AGE", r"^web-\S+\s+3\s+3\s+3\s+"),
            (["get", "deploy", "-o", "wide"], "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR",
             r"^web\s+3/3\s+3\s+3\s+\S+\s+nginx\s+nginx:1.26\s+app=web$"),
            (["get", "configmaps", "cm1"], "NAME DATA AGE", r"^cm1\s+1\s+"),
            (["get", "secrets", "s1"], "NAME TYPE DATA AGE", r"^s1\s+Opaque\s+1\s+"),
            (["get", "crd", "myapplications.example.com"], "NAME CREATED AT",
             r"^myapplications\.example\.com\s+\d{4}-\d\d-\d\dT[\d:]+Z$")]:
        ok, out = k.expect(f"kubectl {' '.join(args)} (table)", args, namespaced=args[1] != "crd")
        if not ok:
            continue
        lines = out.splitlines()
        got = " ".join(lines[0].split()) if lines else ""
        rows = [line for line in lines[1:] if re.search(row_re, line)]
        k.report.check(got == header and rows, k.what(f"kubectl {' '.join(args)} prints {header}"),
                       f"header {got!r}; rows matching {row_re!r}: {len(rows)}; stdout: {excerpt(out)}")
    event = ("apiVersion: v1\nkind: Event\nmetadata:\n  name: web-pulled\ninvolvedObject:\n  kind: Pod\n  name: web-0\n"
             "reason: Pulled\nmessage: pulled nginx\ntype: Normal\ncount: 2\n")
    if k.expect("create an Event from YAML", ["create", "-f", "-"], stdin=event, contains=("created",))[0]:
        ok, out = k.expect("get events (table)", ["get", "events"])
        if ok:
            lines = out.splitlines()
            got = " ".join(lines[0].split()) if lines else ""
            k.report.check(got == "LAST SEEN TYPE REASON OBJECT MESSAGE"
                           and any(re.search(r"\sNormal\s+Pulled\s+pod/web-0\s+pulled nginx$", line) for line in lines[1:]),
                           k.what("kubectl get events prints LAST SEEN TYPE REASON OBJECT MESSAGE"), f"stdout: {excerpt(out)}")
    ok, out = k.expect("get configmaps --sort-by=.data.b (includeObject=Object)", ["get", "configmaps", "--sort-by=.data.b"])
    if ok:
        k.report.check("cm1" in out, k.what("get --sort-by lists cm1"), f"stdout: {excerpt(out)}")
    k.expect("delete service web", ["delete", "service", "web"], contains=("deleted",), timeout=30)


DEFAULTS_MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: drift
spec:
  replicas: 0
  selector:
    matchLabels:
      app: drift
  template:
    metadata:
      labels:
        app: drift
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: drift
spec:
  selector:
    app: drift
  ports:
  - port: 80
"""


def check_defaults(k, workdir):
    """The server defaults built-in objects as the real one does, so generated objects read back
    with the defaults and apply/diff shows no drift."""
    k.create_builtin("create deployment (image without tag)", ["create", "deployment", "defaulted", "--image=nginx"],
                     DEPLOYMENT_YAML.replace("name: web", "name: defaulted").replace("nginx:1.25", "nginx"))
    k.expect("get deployment shows the server defaults (RollingUpdate 10 Always)",
             ["get", "deployment", "defaulted", "-o",
              "jsonpath={.spec.strategy.type} {.spec.revisionHistoryLimit} "
              "{.spec.template.spec.containers[0].imagePullPolicy}"],
             contains=("RollingUpdate 10 Always",))
    manifest = os.path.join(workdir, f"defaults-{k.namespace}.yaml")
    with open(manifest, "w") as f:
        f.write(DEFAULTS_MANIFEST)
    k.expect("apply -f a Deployment and a Service", ["apply", "-f", manifest], contains=("drift", "created"))
    time.sleep(1)  # let the workload simulator write the Deployment's status first
    k.expect("diff -f of the applied manifest shows no drift (exit 0)", ["diff", "-f", manifest])
    k.expect("delete the applied manifest", ["delete", "-f", manifest], contains=("deleted",), timeout=30)
    k.expect("delete deployment defaulted", ["delete", "deployment", "defaulted"], contains=("deleted",), timeout=30)


def check_deletes_and_errors(k):
    k.expect("delete myapp returns within 10 s", ["delete", "myapp", "demo-create"],
             contains=("deleted",), timeout=30, max_seconds=10)
    k.expect("get deleted myapp is NotFound", ["get", "myapp", "demo-create"], want_rc0=False,
             contains=("NotFound", "demo-create"))
    ok, _ = k.expect("create invalid MyApplication is rejected",
                     ["create", "-f", os.path.join(DATA_DIR, "myapp-invalid.yaml")], want_rc0=False,
                     contains=("spec.replicas", "spec.image", "is invalid"))
    unknown = ("apiVersion: example.com/v1alpha1\nkind: MyApplication\nmetadata:\n  name: demo-unknown\n"
               "spec:\n  image: nginx:1.25\n  replicas: 1\n  foo: bar\n")
    k.expect("create with an unknown field is refused (fieldValidation=Strict)", ["create", "-f", "-"], stdin=unknown,
             want_rc0=False, contains=('strict decoding error: unknown field "spec.foo"',))
    k.expect("create --validate=warn prints the unknown-field warning", ["create", "--validate=warn", "-f", "-"],
             stdin=unknown, contains=("demo-unknown created", 'Warning: unknown field "spec.foo"'))
    k.expect("delete the object created with a warning", ["delete", "myapp", "demo-unknown"], contains=("deleted",),
             timeout=30, max_seconds=10)
    k.expect("delete -f returns within 10 s", ["delete", "-f", os.path.join(DATA_DIR, "myapp-apply.yaml")],
             contains=("demo-apply", "deleted"), timeout=30, max_seconds=10)
    k.expect("delete deployment returns within 10 s", ["delete", "deployment", "web"],
             contains=("deleted",), timeout=30, max_seconds=10)
    k.expect("delete configmap returns within 10 s", ["delete", "configmap", "cm1"],
             contains=("deleted",), timeout=30, max_seconds=10)
    k.expect("delete namespace (waits for finalization) returns within 20 s",
             ["delete", "namespace", f"{k.namespace}-gen"], namespaced=False,
             contains=("deleted",), timeout=60, max_seconds=20)
    k.expect("get deleted namespace is NotFound", ["get", "namespace", f"{k.namespace}-gen"], namespaced=False,
             want_rc0=False, contains=("NotFound",))


RULES_YAML = """users:
- name: viewer
  token: compat-view-token
  readOnly: true
- name: team
  token: compat-team-token
  namespaces: [compat-0, compat-1, compat-2, compat-3]
"""


def check_admission_webhook(k, workdir):
    """A validating webhook (compat_webhook.py): kubectl prints its denial and its warning."""
    hook = Webhook(workdir)
    name = f"compat-deny-{k.namespace}"
    try:
        ok, _ = k.expect("create a ValidatingWebhookConfiguration", ["create", "-f", "-"], namespaced=False,
                         stdin=hook.configuration(name))
        if not ok:
            return
        k.expect("get validatingwebhookconfigurations prints NAME WEBHOOKS AGE",
                 ["get", "validatingwebhookconfigurations", name], namespaced=False,
                 contains=("NAME", "WEBHOOKS", "AGE", name))
        denied = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {DENY_NAME}\n"
        k.expect("a create the webhook denies prints kube-apiserver's message", ["create", "-f", "-"], stdin=denied,
                 want_rc0=False,
                 contains=('Error from server (Forbidden): error when creating "STDIN": admission webhook '
                           f'"deny.compat.example.com" denied the request: {MESSAGE}',))
        k.expect("kubectl prints the webhook's warning", ["create", "configmap", "webhook-allowed"],
                 contains=(f"Warning: {WARNING}",))
    finally:
        k.run("delete", "validatingwebhookconfiguration", name, "--ignore-not-found", namespaced=False)
        hook.stop()


def user_kubeconfig(admin_kubeconfig, token, path):
    """A copy of the admin kubeconfig that authenticates with `token` (a --rules user)."""
    with open(admin_kubeconfig) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(re.sub(r"(?m)^(\s*token:).*$", lambda m: f"{m.group(1)} {token}", text))
    os.chmod(path, 0o600)
    return path


def check_auth(k, server):
    """kubectl auth can-i (SelfSubjectAccessReview) and --list (SelfSubjectRulesReview) answer
    from the same rules that produce 403s, for the admin, a read-only and a namespace-limited user."""
    viewer = Kubectl(k.label, k.path, user_kubeconfig(server.kubeconfig, "compat-view-token",
                                                      os.path.join(server.workdir, f"kc-view-{k.namespace}")),
                     k.namespace, k.report, k.slow)
    team = Kubectl(k.label, k.path, user_kubeconfig(server.kubeconfig, "compat-team-token",
                                                    os.path.join(server.workdir, f"kc-team-{k.namespace}")),
                   k.namespace, k.report, k.slow)
    try:
        for who, kc, args, want in [
                ("admin", k, ["create", "deployments"], "yes"),
                ("admin", k, ["delete", "namespaces"], "yes"),
                ("viewer", viewer, ["create", "deployments"], "no"),
                ("viewer", viewer, ["list", "pods", "--all-namespaces"], "yes"),
                ("viewer", viewer, ["watch", "myapplications.example.com"], "yes"),
                ("team", team, ["create", "deployments"], "yes"),
                ("team", team, ["list", "pods", "--all-namespaces"], "no")]:
            rc, out, err, _ = kc.run("auth", "can-i", *args)
            k.report.check(rc == (0 if want == "yes" else 1) and out.strip() == want,
                           k.what(f"auth can-i {' '.join(args)} as {who} says {want}"),
                           f"rc={rc}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
        rc, out, err, _ = team.run("auth", "can-i", "create", "configmaps", "-n", "default", namespaced=False)
        k.report.check(rc == 1 and out.strip() == "no", k.what("auth can-i create configmaps -n default as team says no"),
                       f"rc={rc}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
        # the answer matches what the request gets
        rc, out, err, _ = team.run("create", "configmap", "denied", "-n", "default", namespaced=False)
        k.report.check(rc != 0 and "forbidden" in err, k.what("team's create configmap -n default is refused (403)"),
                       f"rc={rc}; stderr: {excerpt(err)}")
        for who, kc, want in [("admin", k, [r"\*\.\*\s+\[\]\s+\[\]\s+\[\*\]"]),
                              ("viewer", viewer, [r"\*\.\*\s+\[\]\s+\[\]\s+\[get list watch\]",
                                                  r"selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]"]),
                              ("team", team, [r"\*\.\*\s+\[\]\s+\[\]\s+\[\*\]",
                                              rf"namespaces\s+\[\]\s+\[[^]]*{k.namespace}[^]]*\]\s+\[get list watch\]"])]:
            rc, out, err, _ = kc.run("auth", "can-i", "--list")
            missing = [w for w in want if not re.search(w, out)]
            k.report.check(rc == 0 and not missing, k.what(f"auth can-i --list as {who} lists its rules"),
                           f"rc={rc}; missing {missing}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
        rc, out, err, _ = viewer.run("auth", "whoami", namespaced=False)
        k.report.check(rc == 0 and re.search(r"Username\s+viewer", out), k.what("auth whoami as viewer says viewer"),
                       f"rc={rc}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
        rc, out, err, _ = team.run("auth", "can-i", "--list", "-n", "default", namespaced=False)
        k.report.check(rc == 0 and not re.search(r"\*\.\*\s+\[\]\s+\[\]\s+\[\*\]", out),
                       k.what("auth can-i --list -n default as team has no write rule"),
                       f"rc={rc}; stdout: {excerpt(out)}; stderr: {excerpt(err)}")
    finally:
        shutil.rmtree(viewer.cache, ignore_errors=True)
        shutil.rmtree(team.cache, ignore_errors=True)


REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def check_manifests(k):
    """Every in-cluster manifest (packaging/manifests), the CRD and the samples pass a server-side
    dry run (the namespace is created for real first, as an install would)."""
    manifests = os.path.join(REPO, "packaging", "manifests")
    k.expect("apply packaging/manifests/namespace.yaml", ["apply", "-f", os.path.join(manifests, "namespace.yaml")],
             namespaced=False, contains=("opbench-system",))
    k.expect("apply --dry-run=server -f packaging/manifests/",
             ["apply", "--dry-run=server", "-f", manifests], namespaced=False,
             contains=("deployment.apps/opbench-operator", "clusterrole.rbac.authorization.k8s.io/opbench-operator",
                       "serviceaccount/opbench-operator", "(server dry run)"))
    k.expect("apply --dry-run=server the CRD and samples",
             ["apply", "--dry-run=server", "-f", os.path.join(REPO, "resources", "crds"),
              "-f", os.path.join(REPO, "resources", "samples")], namespaced=False,
             contains=("myapplication.example.com/broken created (server dry run)",))


def run_client(label, path, server, report, slow, index):
    namespace = f"compat-{index}"
    k = Kubectl(label, path, server.kubeconfig, namespace, report, slow)
    print(f"# {label} ({path})", flush=True)
    try:
        ok, _ = k.expect(f"create namespace {namespace} from YAML", ["create", "-f", "-"], namespaced=False,
                         stdin=f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {namespace}\n")
        if not ok:
            return
        k.create_builtin("create namespace (generator)", ["create", "namespace", f"{namespace}-gen"],
                         f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {namespace}-gen\n", namespaced=False)
        check_discovery(k)
        check_explain(k)
        check_openapi_v2(k, server.workdir)
        check_auth(k, server)
        check_create_and_get(k)
        check_apply(k, server.workdir)
        check_server_side_apply(k, server.workdir)
        check_apply_upgrade(k, server.workdir)
        check_configmaps(k)
        check_watch(k)
        check_deployment(k)
        check_tables(k)
        check_defaults(k, server.workdir)
        check_deletes_and_errors(k)
        check_admission_webhook(k, server.workdir)
        if index == 0:
            check_manifests(k)
    finally:
        shutil.rmtree(k.cache, ignore_errors=True)
        if k.timings:
            slowest = max(k.timings)
            print(f"# {label}: {len(k.timings)} commands in {sum(t for t, _ in k.timings):.1f} s, "
                  f"slowest {slowest[0]:.1f} s: kubectl {slowest[1]}", flush=True)


def run(report):
    if len(sys.argv) != 2:
        raise RuntimeError("usage: compat_kubectl.py PATH/TO/opbench-apiserver")
    clients = find_kubectls()
    if not clients:
        report.skip("kubectl not found on PATH: the kubectl compat suite did not run")
        return
    if len(clients) == 1:
        report.skip("no kubectl.1.* beside the PATH kubectl: only the PATH kubectl is tested")
    rules_dir = tempfile.mkdtemp(prefix="opbench-compat-rules-")
    rules = os.path.join(rules_dir, "rules.yaml")
    with open(rules, "w") as f:
        f.write(RULES_YAML)
    try:
        server = Server(sys.argv[1], extra_args=["--rules", rules])
    finally:
        shutil.rmtree(rules_dir, ignore_errors=True)
    slow = []
    try:
        print(f"# server {server.url}", flush=True)
        for index, (label, path) in enumerate(clients):
            run_client(label, path, server, report, slow, index)
    finally:
        rc = server.stop()
        if rc not in (0, -15):
            report.fail("server exits cleanly on SIGTERM", f"rc={rc}; stderr: {excerpt(server.stderr_text())}")
        server.cleanup()
        for line in slow:
            print(f"# slow (> {SLOW_SECONDS:.0f} s): {line}", flush=True)


if __name__ == "__main__":
    main_guard(run)
