// Heap accounting for the robustness properties: the binary that links alloc_track.cpp replaces
// the global operator new/delete with counting versions, so a property can measure the peak heap
// a decoder reaches on one input ("within limits").
#pragma once

#include <cstddef>

namespace voxrig::props {

/// Bytes currently allocated through operator new (usable sizes).
size_t heap_in_use();

/// Starts a measurement window: the peak is reset to the current use.
void heap_reset_peak();

/// The peak in-use bytes since the last heap_reset_peak(), minus the use at that moment.
size_t heap_peak_growth();

}  // namespace voxrig::props
