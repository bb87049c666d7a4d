// Transparent huge pages for the large buffers the model is built in: off
// unless STEPLINE_HUGE_PAGES=1.
//
// A fresh 4 KiB page costs a fault; a 2 MiB page costs one fault for 512 of
// them. On the 2-core build VM, filling 300 MB of fresh memory takes 0.6 to
// 0.75 s/GB in small pages, and 0.1 s/GB in huge pages that the process (or
// one that exited a moment ago) freed recently. But the VM reports free
// memory to its host (virtio-balloon free page reporting, in 2 MiB blocks,
// a couple of seconds after they are freed), and a huge page taken from
// such memory measured 2.7 to 3.9 s/GB: the host backs it again. A load
// starts on memory the machine has not touched for a while, so the advice
// made it slower, not faster (medians of 6
// alternating runs: `stepline info` of the 413 MB demo 1.02 -> 0.74 s with
// three idle seconds before each run, 1.07 -> 0.76 s back to back; its .zst
// 2.38 -> 1.25 s, its .gz 2.13 -> 1.36 s). On a machine whose free memory stays
// backed, STEPLINE_HUGE_PAGES=1 gives the advice back (GrowArray,
// grow_array.h; the decode buffers, byte_buffer.cpp).
#pragma once

#include <cstddef>

namespace stepline {

// Buffers smaller than this are left alone (the advice is a system call).
inline constexpr size_t kHugePageAdviceMinBytes = size_t{4} << 20;

// Whether STEPLINE_HUGE_PAGES asks for the advice (read once).
bool HugePagesWanted();

// Advises the whole pages of [data, data + bytes) when bytes reach the
// minimum and huge pages are `wanted`.
void AdviseHugePages(const void* data, size_t bytes, bool wanted = HugePagesWanted());

}  // namespace stepline
