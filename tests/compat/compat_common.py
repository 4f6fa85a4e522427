"""Shared helpers for the compat suites: start/stop opbench-apiserver and report checks.

Every check prints one line: ``ok - <what>``, ``FAIL - <what>: <details>`` or ``skip - <what>``.
``Report.finish()`` prints ``N passed, M failed`` and returns the process exit code (1 when M > 0,
77 when the client is missing and nothing ran).
Standard library only, so the suites run with Debian's /usr/bin/python3.
"""

import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SKIPPED = 77  # ctest SKIP_RETURN_CODE: the client is missing, so the suite did not run
DATA_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "compat"))


def excerpt(text, limit=600):
    """Shortens client output for a FAIL line (one line, at most `limit` characters)."""
    if text is None:
        return ""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " | ".join(line for line in text.strip().splitlines() if line.strip())
    return text if len(text) <= limit else text[:limit] + " …"


class Report:
    """Counts passed/failed checks and prints one line per check."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.known_gaps = 0

    def ok(self, what):
        self.passed += 1
        print(f"ok - {what}", flush=True)

    def fail(self, what, details):
        self.failed += 1
        print(f"FAIL - {what}: {details}", flush=True)

    def known(self, what, details):
        """A documented gap of the server (docs/apiserver.md, "Known gaps"): printed, counted, not a pass."""
        self.known_gaps += 1
        print(f"known gap - {what}: {details}", flush=True)

    def skip(self, what):
        self.skipped += 1
        print(f"skip - {what}", flush=True)

    def check(self, condition, what, details):
        """ok(what) when condition holds, else fail(what, details). Returns the condition."""
        if condition:
            self.ok(what)
        else:
            self.fail(what, details)
        return bool(condition)

    def finish(self):
        """Prints the summary; returns 1 when a check failed, SKIPPED (77, ctest SKIP_RETURN_CODE)
        when nothing ran because the client is missing, else 0."""
        if self.known_gaps:
            print(f"# {self.known_gaps} known gap(s), listed above", flush=True)
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        if self.failed:
            return 1
        return SKIPPED if self.skipped and not self.passed else 0


class Server:
    """One opbench-apiserver process on a free loopback port (HTTPS), with its kubeconfig.

    OPBENCH_COMPAT_SERVER_ARGS (shell words) adds server flags, e.g. "--fault error:rate=0.2,code=500"
    to see that the suites report failures."""

    def __init__(self, binary, extra_args=(), start_timeout=60):
        self.workdir = tempfile.mkdtemp(prefix="opbench-compat-")
        self.kubeconfig = os.path.join(self.workdir, "kubeconfig")
        self.stderr_path = os.path.join(self.workdir, "server.stderr")
        args = [binary, "--listen", "127.0.0.1:0", "--write-kubeconfig", self.kubeconfig,
                "--pod-ready-delay", "200", *extra_args,
                *shlex.split(os.environ.get("OPBENCH_COMPAT_SERVER_ARGS", ""))]
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._stderr,
                                     stdin=subprocess.DEVNULL)
        self.url = self._wait_listening(start_timeout)

    def _wait_listening(self, timeout):
        lines = queue.Queue()

        def pump():
            for raw in self.proc.stdout:
                lines.put(raw.decode("utf-8", "replace"))
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            if line is None:
                break
            match = re.search(r"listening on (\S+)", line)
            if match:
                return match.group(1)
        self.stop()
        raise RuntimeError(f"opbench-apiserver did not print 'listening on' within {timeout} s "
                           f"(rc={self.proc.returncode}); stderr: {excerpt(self.stderr_text())}")

    def stderr_text(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self):
        """Terminates the server (SIGTERM, then SIGKILL after 5 s); returns its exit code."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._stderr.close()
        return self.proc.returncode

    def cleanup(self):
        shutil.rmtree(self.workdir, ignore_errors=True)


def main_guard(run):
    """Runs `run(report)` and exits with the report's code; an exception counts as one failure."""
    report = Report()
    try:
        run(report)
    except Exception as e:  # noqa: BLE001 - a crash is a failed check, never a silent pass
        report.fail("suite aborted", f"{type(e).__name__}: {excerpt(str(e))}")
    sys.exit(report.finish())
