#!/bin/sh
# ctest: tst_testwaits (label unit). Tests wait on conditions (QTRY_*, QSignalSpy::wait, a later
# event observed) or move a FakeClock; they do not sleep for a real time and hope. This check
# fails naming file:line for every real-time wait in tests/ — QTest::qWait(, QTest::qSleep(,
# QThread::sleep/msleep/usleep(, std::this_thread::sleep_for/until, sleep(/usleep( — outside the
# allow-list below (code only: comments are ignored). For "nothing happened" checks in-process,
# tests/support/eventloop.h's drainEventLoop() runs what is queued without waiting.
# Usage: tests/check_test_waits.sh SOURCE_DIR
set -eu
root=${1:?usage: check_test_waits.sh SOURCE_DIR}
cd "$root"

# The allow-list: file, the number of such calls it may hold, and why each is no real-time wait.
# Every entry is a short event-loop yield inside a loop that steps a FakeClock against a real
# socket: it lets replies in between two fake-time steps; no assertion depends on how long it
# took. The count must match exactly, so the list shrinks when a call goes.
allowed() {
  cat <<'LIST'
tests/cache/tst_reflector_faults.cpp 1 stepUntil(): 5 ms yield between 100 ms FakeClock steps (loopback replies)
tests/manager/tst_leaderelector.cpp 1 1 ms yield per 100 ms FakeClock step, then QTRY on the answers counted
tests/manager/tst_managershutdown.cpp 1 1 ms yield per 100 ms FakeClock step until the lease is lost
tests/apiserver/tst_apiserver_manywatches.cpp 1 1 ms yield between writes so the reading watcher drains its socket
tests/controller/tst_cancellation.cpp 1 5 ms yield per 100 ms FakeClock step until the reconcile ends
LIST
}

pattern='(^|[^[:alnum:]_])(QTest::)?q(Wait|Sleep)[[:space:]]*\(|QThread::(u|m)?sleep[[:space:]]*\(|std::this_thread::sleep_(for|until)|(^|[^[:alnum:]_.>])u?sleep[[:space:]]*\('
hits=$(mktemp)
trap 'rm -f "$hits"' EXIT
# Matches in code, with comments (// to the end of the line) cut off first.
grep -rnE --include='*.cpp' --include='*.h' "$pattern" tests | while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  code=$(printf '%s\n' "${rest#*:}" | sed 's|//.*$||')
  if printf '%s\n' "$code" | grep -qE "$pattern"; then
    printf '%s:%s:%s\n' "$file" "$line" "$(printf '%s' "$code" | sed 's/^[[:space:]]*//')" >>"$hits"
  fi
done

status=0
files=$(cut -d: -f1 "$hits" | sort -u)
for file in $files; do
  found=$(grep -c "^$file:" "$hits")
  permitted=$(allowed | awk -v f="$file" '$1 == f { print $2 }')
  if [ -z "$permitted" ] || [ "$found" -gt "$permitted" ]; then
    echo "real-time wait in a test (wait on the condition or move the FakeClock instead):"
    grep "^$file:" "$hits" | sed 's/^/  /'
    status=1
  fi
done
# Stale entries: a file that holds fewer calls than its entry allows.
allowed | while read -r file permitted _why; do
  found=$(grep -c "^$file:" "$hits" || true)
  if [ "$found" -lt "$permitted" ]; then
    echo "tests/check_test_waits.sh: the allow-list lets $file hold $permitted real-time waits, it holds $found: lower the entry"
    exit 1
  fi
done || status=1
if [ "$status" -eq 0 ]; then
  echo "no real-time waits in tests/ outside the allow-list ($(wc -l <"$hits") allowed)"
fi
exit "$status"
