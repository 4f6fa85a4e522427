// SPDX-License-Identifier: Apache-2.0
#pragma once
// The process's allocator. The build links gperftools' tcmalloc when it is installed
// (cmake/OpbenchAllocator.cmake): the engine's hot paths are Qt JSON and string work, a
// stream of small short-lived allocations, and glibc's malloc/free took about 18 % of the API
// server's instructions; tcmalloc's per-thread caches made `opbench-bench reconcile --apps 5000`
// about 25 % faster on 2 cores (bench/README.md, "Allocator"). allocatorName() says which one
// runs. configureAllocator() tunes glibc's malloc for the process's role (a controller, or an
// API server answering large lists) when glibc's malloc is the one in use. Each main calls it
// once, first thing (runOperator(), runWorkbench(), opbench-apiserver).

namespace opbench {

/// How the C allocator treats large transient buffers (list bodies, watch buffers, parser
/// scratch).
enum class AllocatorProfile {
    /// A long-running controller (operator, workbench, informers): a fixed 256 KiB mmap
    /// threshold keeps such buffers in their own mappings, returned to the system when freed.
    /// glibc would otherwise raise its threshold each time a large block is freed (up to 32 MiB),
    /// after which those buffers come from the heap and their pages stay resident: on a
    /// 10,000-Deployment sync the fixed threshold saves about 4 MB of peak RSS
    /// (`opbench-bench sync`).
    Controller,
    /// An API server answering multi-megabyte lists: glibc's adaptive threshold, so that the
    /// next list body reuses the heap pages of the last one instead of faulting in a fresh
    /// mapping (about 5,000 page faults per 20 MB body): a 10,000-Deployment list is served
    /// in about 100 ms instead of about 150 (`opbench-bench apiserver`), for a resident heap
    /// about the size of the largest list.
    Server,
};

/// Tunes glibc's malloc for `profile`. Call once, first thing in main(). Respects an explicit
/// `MALLOC_MMAP_THRESHOLD_` in the environment. No effect with tcmalloc or other C libraries.
void configureAllocator(AllocatorProfile profile = AllocatorProfile::Controller);

/// The allocator this build runs on: "tcmalloc (gperftools)" or "glibc malloc" (the
/// workbench's About box).
const char *allocatorName();

} // namespace opbench
