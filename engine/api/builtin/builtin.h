// SPDX-License-Identifier: Apache-2.0
#pragma once
// The built-in kinds operators own, in one include: typed views that know their kind
// (KindInfo) and the value types their setters take. Setters overlay onto the object read from
// the server (engine/api/builtin/overlay.h), so re-applying them does not rewrite its defaults.

#include "engine/api/builtin/container.h"
#include "engine/api/builtin/job.h"
#include "engine/api/builtin/overlay.h"
#include "engine/api/builtin/podtemplate.h"
#include "engine/api/builtin/secret.h"
#include "engine/api/builtin/service.h"
#include "engine/api/builtin/serviceaccount.h"
#include "engine/api/builtin/statefulset.h"
#include "engine/api/configmap.h"
#include "engine/api/deployment.h"
#include "engine/api/event.h"
#include "engine/api/lease.h"
#include "engine/api/namespaceobject.h"
#include "engine/api/pod.h"
