// SPDX-License-Identifier: Apache-2.0
#pragma once
// configureAllocator(): tunes glibc's malloc for the process's role (a controller, or an API
// server answering large lists). Each main calls it once, first thing (runOperator(),
// runWorkbench(), opbench-apiserver).

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

/// Tunes the C allocator for `profile`. Call once, first thing in main(). Respects an explicit
/// `MALLOC_MMAP_THRESHOLD_` in the environment. No effect with other C libraries.
void configureAllocator(AllocatorProfile profile = AllocatorProfile::Controller);

} // namespace opbench
