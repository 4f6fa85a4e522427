#!/usr/bin/python3
"""Compat suite: the official Python client (python3-kubernetes) against opbench-apiserver.

Usage: compat_python.py PATH/TO/opbench-apiserver

Covers CustomObjectsApi (create/list/get/merge patch/replace with a stale resourceVersion/delete),
CoreV1Api configmaps with label selectors, AppsV1Api Deployment status, Watch.stream (ADDED then
MODIFIED), AuthorizationV1Api access reviews, a metadata-only (PartialObjectMetadataList) list, and
410 Expired for a compacted resourceVersion (a second server with --watch-history 5), and a
validating admission webhook (compat_webhook.py): its denial as an ApiException 403 with
kube-apiserver's message, and its warning as a Warning header.
Prints ok/FAIL/skip lines and "N passed, M failed".
"""

import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compat_common import Server, excerpt, main_guard  # noqa: E402
from compat_webhook import DENY_NAME, MESSAGE, WARNING, Webhook  # noqa: E402

GROUP, VERSION, PLURAL = "example.com", "v1alpha1", "myapplications"
NAMESPACE = "compat-py"


def myapp(name, image="nginx:1.25", replicas=2, labels=None):
    return {"apiVersion": f"{GROUP}/{VERSION}", "kind": "MyApplication",
            "metadata": {"name": name, "labels": labels or {}},
            "spec": {"image": image, "replicas": replicas}}


def api_error(call):
    """Runs call(); returns the ApiException it raised, or None."""
    from kubernetes.client.rest import ApiException
    try:
        call()
    except ApiException as e:
        return e
    return None


def describe(e):
    return "no ApiException" if e is None else f"ApiException {e.status} {e.reason}: {excerpt(e.body, 400)}"


def clients(kubeconfig):
    from kubernetes import client, config
    api_client = config.new_client_from_config(config_file=kubeconfig)
    return (client.CoreV1Api(api_client), client.AppsV1Api(api_client),
            client.CustomObjectsApi(api_client), api_client)


def check_custom_objects(report, core, custom):
    from kubernetes import client
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NAMESPACE)))
    report.ok("CoreV1Api create_namespace")
    args = (GROUP, VERSION, NAMESPACE, PLURAL)
    created = custom.create_namespaced_custom_object(*args, myapp("py-a", labels={"tier": "web"}))
    meta = created.get("metadata", {})
    report.check(meta.get("uid") and meta.get("resourceVersion") and meta.get("generation") == 1
                 and created.get("spec", {}).get("replicas") == 2,
                 "CustomObjectsApi create returns the object with uid, resourceVersion, generation 1",
                 excerpt(json.dumps(created)))
    custom.create_namespaced_custom_object(*args, myapp("py-b", labels={"tier": "db"}))
    listed = custom.list_namespaced_custom_object(*args)
    names = sorted(item["metadata"]["name"] for item in listed.get("items", []))
    report.check(names == ["py-a", "py-b"] and listed.get("metadata", {}).get("resourceVersion"),
                 "CustomObjectsApi list returns both objects and a list resourceVersion",
                 f"names={names}; metadata={listed.get('metadata')}")
    selected = custom.list_namespaced_custom_object(*args, label_selector="tier=web")
    names = [item["metadata"]["name"] for item in selected.get("items", [])]
    report.check(names == ["py-a"], "CustomObjectsApi list with label_selector tier=web", f"names={names}")
    got = custom.get_namespaced_custom_object(*args, "py-a")
    report.check(got.get("metadata", {}).get("uid") == meta.get("uid") and got.get("spec", {}).get("image") == "nginx:1.25",
                 "CustomObjectsApi get", excerpt(json.dumps(got)))
    patched = custom.patch_namespaced_custom_object(*args, "py-a", {"spec": {"replicas": 4},
                                                                    "metadata": {"labels": {"extra": "1"}}})
    pmeta = patched.get("metadata", {})
    report.check(patched.get("spec") == {"image": "nginx:1.25", "replicas": 4}
                 and pmeta.get("labels") == {"tier": "web", "extra": "1"} and pmeta.get("generation") == 2
                 and int(pmeta.get("resourceVersion", 0)) > int(meta.get("resourceVersion", 0)),
                 "CustomObjectsApi patch (merge patch) merges spec and labels, bumps generation and resourceVersion",
                 excerpt(json.dumps(patched)))
    stale = dict(created)
    stale["spec"] = {"image": "nginx:1.27", "replicas": 1}
    error = api_error(lambda: custom.replace_namespaced_custom_object(*args, "py-a", stale))
    report.check(error is not None and error.status == 409 and "the object has been modified" in (error.body or ""),
                 "CustomObjectsApi replace with a stale resourceVersion raises ApiException 409 Conflict",
                 describe(error))
    fresh = dict(patched)
    fresh["spec"] = {"image": "nginx:1.27", "replicas": 1}
    replaced = custom.replace_namespaced_custom_object(*args, "py-a", fresh)
    report.check(replaced.get("spec") == {"image": "nginx:1.27", "replicas": 1},
                 "CustomObjectsApi replace with the current resourceVersion", excerpt(json.dumps(replaced)))
    invalid = myapp("py-bad", replicas=0)
    del invalid["spec"]["image"]
    error = api_error(lambda: custom.create_namespaced_custom_object(*args, invalid))
    report.check(error is not None and error.status == 422 and "spec.replicas" in (error.body or "")
                 and "spec.image" in (error.body or ""),
                 "CustomObjectsApi create of an invalid MyApplication raises 422 naming spec.replicas and spec.image",
                 describe(error))
    status = custom.delete_namespaced_custom_object(*args, "py-b")
    report.check(isinstance(status, dict) and status.get("status") == "Success",
                 "CustomObjectsApi delete returns Success status", excerpt(json.dumps(status)))
    error = api_error(lambda: custom.get_namespaced_custom_object(*args, "py-b"))
    report.check(error is not None and error.status == 404, "get after delete raises ApiException 404", describe(error))


def check_configmaps(report, core):
    from kubernetes import client
    for name, labels in [("cm-a", {"app": "a", "tier": "web"}), ("cm-b", {"app": "b"}), ("cm-c", {})]:
        core.create_namespaced_config_map(NAMESPACE, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name=name, labels=labels), data={"k": name}))
    report.ok("CoreV1Api create_namespaced_config_map x3")
    cases = [("app=a", ["cm-a"]), ("app in (a, b)", ["cm-a", "cm-b"]), ("app!=a", ["cm-b", "cm-c"]),
             ("!app", ["cm-c"]), ("app,tier=web", ["cm-a"]), ("app notin (a)", ["cm-b", "cm-c"])]
    for selector, want in cases:
        items = core.list_namespaced_config_map(NAMESPACE, label_selector=selector).items
        names = sorted(cm.metadata.name for cm in items if cm.metadata.name.startswith("cm-"))
        report.check(names == want, f"CoreV1Api list configmaps label_selector {selector!r}", f"got {names}, want {want}")
    error = api_error(lambda: core.list_namespaced_config_map(NAMESPACE, label_selector="app in a,b"))
    report.check(error is not None and error.status == 400, "malformed label_selector raises ApiException 400",
                 describe(error))
    patched = core.patch_namespaced_config_map("cm-a", NAMESPACE, {"metadata": {"labels": {"new": "x"}},
                                                                  "data": {"k": None, "k2": "v2"}})
    report.check(patched.metadata.labels == {"app": "a", "tier": "web", "new": "x"} and patched.data == {"k2": "v2"},
                 "CoreV1Api patch with a dict (strategic merge) merges labels and deletes a null key",
                 f"labels={patched.metadata.labels}; data={patched.data}")
    items = core.list_namespaced_config_map(NAMESPACE, field_selector="metadata.name=cm-b").items
    report.check([cm.metadata.name for cm in items] == ["cm-b"], "CoreV1Api list configmaps field_selector metadata.name",
                 f"got {[cm.metadata.name for cm in items]}")


def check_server_side_apply(report, core, api_client):
    """managedFields come back typed; a server-side apply over another manager's field is a 409
    naming that manager; force=true takes it."""
    from kubernetes import client
    core.create_namespaced_config_map(NAMESPACE, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-ssa"), data={"a": "1"}))
    entries = core.read_namespaced_config_map("py-ssa", NAMESPACE).metadata.managed_fields or []
    first = entries[0] if entries else None
    report.check(first is not None and first.operation == "Update" and first.manager == "OpenAPI-Generator"
                 and first.fields_type == "FieldsV1" and "f:a" in (first.fields_v1 or {}).get("f:data", {}),
                 "managedFields read back as V1ManagedFieldsEntry (manager from the User-Agent)", f"entries={entries}")

    def apply(force):
        query = [("fieldManager", "py-ssa")] + ([("force", "true")] if force else [])
        body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-ssa"}, "data": {"a": "2"}})
        return api_client.call_api(f"/api/v1/namespaces/{NAMESPACE}/configmaps/py-ssa", "PATCH", {}, query,
                                   {"Content-Type": "application/apply-patch+yaml", "Accept": "application/json"},
                                   body=body, response_type="object", auth_settings=["BearerToken"],
                                   _return_http_data_only=True)
    error = api_error(lambda: apply(False))
    report.check(error is not None and error.status == 409 and 'conflict with \\"OpenAPI-Generator\\" using v1: .data.a' in (error.body or ""),
                 "server-side apply over another manager's field raises ApiException 409 FieldManagerConflict", describe(error))
    forced = apply(True)
    report.check(isinstance(forced, dict) and forced.get("data") == {"a": "2"},
                 "server-side apply with force=true takes the field", excerpt(json.dumps(forced)))


def check_deployment(report, apps):
    from kubernetes import client
    labels = {"app": "pyweb"}
    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="pyweb"),
        spec=client.V1DeploymentSpec(
            replicas=2, selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]))))
    apps.create_namespaced_deployment(NAMESPACE, body)
    deadline, status = time.monotonic() + 20, None
    while time.monotonic() < deadline:
        dep = apps.read_namespaced_deployment_status("pyweb", NAMESPACE)
        status = dep.status
        if status and status.ready_replicas == 2 and status.observed_generation == dep.metadata.generation:
            break
        time.sleep(0.5)
    report.check(status is not None and status.ready_replicas == 2 and status.available_replicas == 2
                 and status.updated_replicas == 2 and status.replicas == 2,
                 "AppsV1Api read_namespaced_deployment_status reaches 2 ready/available/updated replicas within 20 s",
                 f"status={status}")
    conditions = {c.type: c.status for c in (status.conditions or [])} if status else {}
    report.check(conditions.get("Available") == "True", "Deployment condition Available=True",
                 f"conditions={conditions}")


def check_watch(report, custom):
    from kubernetes import watch
    args = (GROUP, VERSION, NAMESPACE, PLURAL)
    rv = custom.list_namespaced_custom_object(*args)["metadata"]["resourceVersion"]
    errors = []

    def writer():
        try:
            time.sleep(1.0)
            custom.create_namespaced_custom_object(*args, myapp("py-w"))
            time.sleep(0.3)
            custom.patch_namespaced_custom_object(*args, "py-w", {"spec": {"replicas": 3}})
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))

    thread = threading.Thread(target=writer, daemon=True)
    w = watch.Watch()
    events, start = [], time.monotonic()
    thread.start()
    try:
        for event in w.stream(custom.list_namespaced_custom_object, *args, resource_version=rv, timeout_seconds=5):
            obj = event["object"]
            events.append((event["type"], obj.get("metadata", {}).get("name"), obj.get("spec", {}).get("replicas")))
            if time.monotonic() - start > 20:
                w.stop()
    finally:
        thread.join(10)
    seconds = time.monotonic() - start
    mine = [e for e in events if e[1] == "py-w"]
    report.check(not errors and mine[:2] == [("ADDED", "py-w", 2), ("MODIFIED", "py-w", 3)],
                 "Watch.stream receives ADDED then MODIFIED for changes made from another thread",
                 f"events={events}; writer errors={errors}")
    report.check(4 <= seconds <= 9, "Watch.stream with timeout_seconds=5 ends after about 5 s",
                 f"ended after {seconds:.1f} s")
    others = [e for e in events if e[1] != "py-w"]
    report.check(not others, "watch from the list resourceVersion sends only newer changes", f"extra events={others}")


def check_access_reviews(report, api_client):
    """AuthorizationV1Api: SelfSubjectAccessReview and SelfSubjectRulesReview for the admin."""
    from kubernetes import client
    authz = client.AuthorizationV1Api(api_client)
    review = authz.create_self_subject_access_review(client.V1SelfSubjectAccessReview(
        spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
            verb="create", group="apps", resource="deployments", namespace=NAMESPACE))))
    report.check(review.status is not None and review.status.allowed is True,
                 "AuthorizationV1Api create_self_subject_access_review: admin may create deployments",
                 f"status={review.status}")
    rules = authz.create_self_subject_rules_review(client.V1SelfSubjectRulesReview(
        spec=client.V1SelfSubjectRulesReviewSpec(namespace=NAMESPACE)))
    report.check(rules.status is not None and not rules.status.incomplete
                 and any(r.verbs == ["*"] and r.resources == ["*"] for r in rules.status.resource_rules or []),
                 "AuthorizationV1Api create_self_subject_rules_review lists the admin's * rule",
                 f"status={rules.status}")


def check_metadata_only(report, api_client):
    """A metadata-only list (client-go's metadata client media type) gives PartialObjectMetadataList."""
    body = api_client.call_api(
        f"/api/v1/namespaces/{NAMESPACE}/configmaps", "GET",
        header_params={"Accept": "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"},
        response_type="object", auth_settings=["BearerToken"], _return_http_data_only=True)
    items = (body or {}).get("items", [])
    report.check(body and body.get("kind") == "PartialObjectMetadataList" and items
                 and all(i.get("kind") == "PartialObjectMetadata" and "data" not in i for i in items),
                 "metadata-only list of configmaps (PartialObjectMetadataList)", f"body: {excerpt(json.dumps(body))}")


def check_admission_webhook(report, core, api_client, workdir):
    from kubernetes import client
    hook = Webhook(workdir)
    admission = client.AdmissionregistrationV1Api(api_client)
    name = "compat-deny-python"
    try:
        admission.create_validating_webhook_configuration(json.loads(hook.configuration(name)))
        report.ok("AdmissionregistrationV1Api create_validating_webhook_configuration")
        error = api_error(lambda: core.create_namespaced_config_map(NAMESPACE, {"metadata": {"name": DENY_NAME}}))
        want = f'admission webhook "deny.compat.example.com" denied the request: {MESSAGE}'
        body = json.loads(error.body) if error is not None and error.body else {}
        report.check(error is not None and error.status == 403 and body.get("reason") == "Forbidden"
                     and body.get("message") == want,
                     "a create the webhook denies raises ApiException 403 with kube-apiserver's message",
                     describe(error))
        raw = core.create_namespaced_config_map(NAMESPACE, {"metadata": {"name": "webhook-allowed"}},
                                                _preload_content=False)
        warning = raw.headers.get("Warning", "")
        report.check(raw.status == 201 and WARNING in warning and warning.startswith("299 "),
                     "an allowed create carries the webhook's warning as a 299 Warning header",
                     f"status={raw.status} Warning={warning!r}")
    finally:
        api_error(lambda: admission.delete_validating_webhook_configuration(name))
        hook.stop()


def check_namespace_delete(report, core):
    """Deleting the suite's namespace removes its contents and then the namespace (within 20 s)."""
    core.delete_namespace(NAMESPACE)
    deadline, error = time.monotonic() + 20, None
    while time.monotonic() < deadline:
        error = api_error(lambda: core.read_namespace(NAMESPACE))
        if error is not None:
            break
        time.sleep(0.5)
    report.check(error is not None and error.status == 404, "CoreV1Api delete_namespace: namespace gone within 20 s",
                 describe(error) if error is not None else "namespace still readable after 20 s")


def check_expired_watch(report, binary):
    """A second server keeps 5 watch events; watching from an older RV must give 410 Expired."""
    from kubernetes import client, watch
    server = Server(binary, ["--watch-history", "5"])
    try:
        core, _, _, _ = clients(server.kubeconfig)
        cm = core.create_namespaced_config_map("default", client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="churn"), data={"n": "0"}))
        old_rv = cm.metadata.resource_version
        for n in range(1, 21):
            core.patch_namespaced_config_map("churn", "default", {"data": {"n": str(n)}})
        report.ok("20 writes on a server with --watch-history 5")
        outcome = {}

        def run_watch(kwargs, key):
            try:
                got = [e["type"] for e in watch.Watch().stream(core.list_namespaced_config_map, "default",
                                                                resource_version=old_rv, **kwargs)]
                outcome[key] = ("events", got)
            except client.rest.ApiException as e:
                outcome[key] = ("error", e.status, e.reason)
            except Exception as e:  # noqa: BLE001
                outcome[key] = ("other", repr(e))

        for key, kwargs in [("timeout", {"timeout_seconds": 5}), ("retry", {})]:
            thread = threading.Thread(target=run_watch, args=(kwargs, key), daemon=True)
            thread.start()
            thread.join(20)
            result = outcome.get(key, ("hung", "no result within 20 s"))
            what = ("Watch.stream(timeout_seconds=5) from a compacted resourceVersion raises ApiException 410 Expired"
                    if key == "timeout" else
                    "Watch.stream without timeout retries once, then raises ApiException 410")
            report.check(result[0] == "error" and result[1] == 410 and "Expired" in str(result[2]), what,
                         f"outcome={result}; old resourceVersion={old_rv}")
        stream = core.list_namespaced_config_map("default", resource_version=old_rv, watch=True,
                                                 timeout_seconds=5, _preload_content=False)
        buffer = b""
        try:
            for chunk in stream.stream(1024):
                buffer += chunk
                if b"\n" in buffer:
                    break
        finally:
            stream.close()
        line = buffer.decode("utf-8", "replace").split("\n")[0]
        try:
            event = json.loads(line)
        except ValueError:
            event = {}
        obj = event.get("object", {})
        report.check(event.get("type") == "ERROR" and obj.get("kind") == "Status" and obj.get("code") == 410
                     and obj.get("reason") in ("Expired", "Gone"),
                     "raw watch from a compacted resourceVersion is an ERROR event with a 410 Status",
                     f"first line: {excerpt(line)}")
    finally:
        server.stop()
        server.cleanup()


def run(report):
    if len(sys.argv) != 2:
        raise RuntimeError("usage: compat_python.py PATH/TO/opbench-apiserver")
    try:
        import kubernetes
    except ImportError as e:
        report.skip(f"python3-kubernetes not importable ({e}): the Python compat suite did not run")
        return
    print(f"# kubernetes python client {kubernetes.__version__} ({sys.executable})", flush=True)
    server = Server(sys.argv[1])
    try:
        print(f"# server {server.url}", flush=True)
        core, apps, custom, api_client = clients(server.kubeconfig)
        for step in (lambda: check_custom_objects(report, core, custom), lambda: check_configmaps(report, core),
                     lambda: check_server_side_apply(report, core, api_client),
                     lambda: check_deployment(report, apps), lambda: check_watch(report, custom),
                     lambda: check_access_reviews(report, api_client), lambda: check_metadata_only(report, api_client),
                     lambda: check_admission_webhook(report, core, api_client, server.workdir),
                     lambda: check_namespace_delete(report, core)):
            try:
                step()
            except Exception as e:  # noqa: BLE001 - an unexpected error fails this group, the next still runs
                report.fail("unexpected client error", f"{type(e).__name__}: {excerpt(str(e))}")
    finally:
        server.stop()
        server.cleanup()
    check_expired_watch(report, sys.argv[1])


if __name__ == "__main__":
    main_guard(run)
