// SPDX-License-Identifier: Apache-2.0
#pragma once
// ClientTap: one optional observer of the Client's calls, for recording a run and replaying it
// (engine/recording). The Client calls it through a nullable pointer (Client::setTap), so a run
// without a tap pays one branch per call. A recorder reads each finished call with the object
// sent and the server's reply; a replayer answers writes and live reads itself (no API server)
// and learns when each call starts, to bring the cache it rebuilds up to that point.

#include "engine/api/expected.h"
#include "engine/client/restclient.h"
#include "engine/controller/reconcilecontext.h"

namespace opbench {

class ClientTap
{
public:
    virtual ~ClientTap() = default;
    /// Call `call` of the reconcile `ctx` is about to be admitted (reads and writes).
    virtual void callStarting(const ReconcileContext &ctx, const PendingCall &call)
    {
        Q_UNUSED(ctx);
        Q_UNUSED(call);
    }
    /// A write (verb create/update/updateStatus/patch/patchStatus/delete) or live get about to
    /// be sent: true answers it with `*reply` instead of the API server; false lets it go out.
    virtual bool answer(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, Expected<DeleteResult> *reply)
    {
        Q_UNUSED(ctx);
        Q_UNUSED(call);
        Q_UNUSED(sent);
        Q_UNUSED(reply);
        return false;
    }
    /// A call finished (as recorded in the trace). `sent`: writes, the object sent (patches: the
    /// object patched); `reply`: writes and live gets, the object the server answered (null on
    /// errors, cache reads and deletes of a gone object).
    virtual void callFinished(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply)
        = 0;

protected:
    ClientTap() = default;
    ClientTap(const ClientTap &) = default;
    ClientTap &operator=(const ClientTap &) = default;
    ClientTap(ClientTap &&) = default;
    ClientTap &operator=(ClientTap &&) = default;
};

} // namespace opbench
