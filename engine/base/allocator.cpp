// SPDX-License-Identifier: Apache-2.0
#include "engine/base/allocator.h"

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace opbench {

void configureAllocator(AllocatorProfile profile)
{
#if defined(__GLIBC__)
    if (profile == AllocatorProfile::Controller && std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr)
        mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#else
    (void)profile;
#endif
}

const char *allocatorName()
{
#if defined(OPBENCH_ALLOCATOR_NAME)
    return OPBENCH_ALLOCATOR_NAME;
#else
    return "system malloc";
#endif
}

} // namespace opbench
