// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/webhookcallrecord.h"

namespace opbench::apiserver {

QString describeFailure(WebhookCallRecord::Failure failure)
{
    switch (failure) {
    case WebhookCallRecord::Failure::None:
        return {};
    case WebhookCallRecord::Failure::Unreachable:
        return QStringLiteral("unreachable");
    case WebhookCallRecord::Failure::Tls:
        return QStringLiteral("TLS");
    case WebhookCallRecord::Failure::Timeout:
        return QStringLiteral("timeout");
    case WebhookCallRecord::Failure::BadResponse:
        return QStringLiteral("bad response");
    }
    return {};
}

} // namespace opbench::apiserver
