// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/storage/freshness.h"

#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"

#include <QPointer>

#include <memory>

namespace opbench::apiserver {

Status tooLargeResourceVersion(quint64 wanted, quint64 current)
{
    Status s(504, QString::fromLatin1(StatusReason::Timeout),
        QStringLiteral("Timeout: Too large resource version: %1, current: %2").arg(wanted).arg(current));
    s.details().causes << StatusCause{
        QStringLiteral("ResourceVersionTooLarge"), QStringLiteral("Too large resource version"), {}};
    s.details().retryAfterSeconds = 1;
    return s;
}

namespace {

/// One pending wait: a connection to Store::committed plus a clock deadline; whichever fires
/// first finishes it and undoes the other.
struct Wait
{
    QPointer<QObject> context;
    Store *store = nullptr;
    Clock *clock = nullptr;
    quint64 rv = 0;
    quint64 deadline = 0;
    QMetaObject::Connection onCommit;
    std::function<void(bool)> done;
    bool finished = false;

    void finish(bool fresh)
    {
        if (finished)
            return;
        finished = true;
        QObject::disconnect(onCommit);
        if (!fresh)
            deadline = 0; // fired: nothing to cancel
        else if (deadline)
            clock->cancel(deadline);
        if (context)
            done(fresh);
    }
};

} // namespace

void whenFresh(
    Store *store, quint64 rv, std::chrono::milliseconds wait, QObject *context, std::function<void(bool fresh)> done)
{
    if (store->resourceVersion() >= rv) {
        done(true);
        return;
    }
    auto w = std::make_shared<Wait>();
    w->context = context;
    w->store = store;
    w->clock = store->clock();
    w->rv = rv;
    w->done = std::move(done);
    w->onCommit = QObject::connect(store, &Store::committed, context, [w](const StoreEvent &) {
        if (w->store->resourceVersion() >= w->rv)
            w->finish(true);
    });
    w->deadline = w->clock->callAfter(wait, context, [w]() { w->finish(false); });
}

} // namespace opbench::apiserver
