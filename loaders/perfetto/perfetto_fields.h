// Field numbers of the Perfetto messages the loader reads, one namespace per
// message, as listed in shared/docs/trace-formats.md section 3; the GPU
// render stage messages and the GpuCorrelation extension are from Perfetto's
// gpu_render_stage_event.proto and gpu_track_event.proto (docs/formats.md).
// Nothing else: the decoding lives next to its use.
#pragma once

#include <cstdint>

namespace stepline::loaders::perfetto {

namespace trace_field {  // Trace
inline constexpr uint32_t kPacket = 1;
}  // namespace trace_field

namespace packet_field {  // TracePacket
inline constexpr uint32_t kClockSnapshot = 6;
inline constexpr uint32_t kTimestamp = 8;
inline constexpr uint32_t kSequenceId = 10;  // trusted_packet_sequence_id
inline constexpr uint32_t kTrackEvent = 11;
inline constexpr uint32_t kInternedData = 12;
inline constexpr uint32_t kSequenceFlags = 13;
inline constexpr uint32_t kIncrementalStateCleared = 41;  // deprecated form of flag 1
inline constexpr uint32_t kPreviousPacketDropped = 42;
inline constexpr uint32_t kProcessDescriptor = 43;  // legacy
inline constexpr uint32_t kThreadDescriptor = 44;   // legacy
inline constexpr uint32_t kCompressedPackets = 50;
inline constexpr uint32_t kGpuRenderStageEvent = 53;
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kTracePacketDefaults = 59;
inline constexpr uint32_t kTrackDescriptor = 60;
inline constexpr uint32_t kFirstPacketOnSequence = 87;
inline constexpr uint32_t kZstdCompressedPackets = 133;
}  // namespace packet_field

inline constexpr uint32_t kSeqIncrementalStateCleared = 1;  // sequence_flags bits
inline constexpr uint32_t kSeqNeedsIncrementalState = 2;

namespace defaults_field {  // TracePacketDefaults / TrackEventDefaults
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kTrackEventDefaults = 11;
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kExtraCounterTrackUuids = 31;
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;
}  // namespace defaults_field

namespace track_descriptor_field {  // TrackDescriptor
inline constexpr uint32_t kUuid = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kProcess = 3;
inline constexpr uint32_t kThread = 4;
inline constexpr uint32_t kParentUuid = 5;
inline constexpr uint32_t kCounter = 8;
inline constexpr uint32_t kStaticName = 10;
inline constexpr uint32_t kAtraceName = 13;
}  // namespace track_descriptor_field

namespace process_field {  // ProcessDescriptor
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kProcessName = 6;
}  // namespace process_field

namespace thread_field {  // ThreadDescriptor
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kTid = 2;
inline constexpr uint32_t kThreadName = 5;
}  // namespace thread_field

namespace counter_field {  // CounterDescriptor
inline constexpr uint32_t kType = 1;  // 1 thread time ns, 2 instruction count
inline constexpr uint32_t kUnitMultiplier = 4;
inline constexpr uint32_t kIsIncremental = 5;
inline constexpr uint32_t kUnitName = 6;
}  // namespace counter_field

namespace track_event_field {  // TrackEvent
inline constexpr uint32_t kCategoryIids = 3;
inline constexpr uint32_t kDebugAnnotations = 4;
inline constexpr uint32_t kType = 9;
inline constexpr uint32_t kNameIid = 10;
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kExtraCounterValues = 12;
inline constexpr uint32_t kCategories = 22;
inline constexpr uint32_t kName = 23;
inline constexpr uint32_t kCounterValue = 30;
inline constexpr uint32_t kExtraCounterTrackUuids = 31;
inline constexpr uint32_t kFlowIdsOld = 36;
inline constexpr uint32_t kTerminatingFlowIdsOld = 42;
inline constexpr uint32_t kDoubleCounterValue = 44;
inline constexpr uint32_t kExtraDoubleCounterTrackUuids = 45;
inline constexpr uint32_t kExtraDoubleCounterValues = 46;
inline constexpr uint32_t kFlowIds = 47;
inline constexpr uint32_t kTerminatingFlowIds = 48;
inline constexpr uint32_t kGpuCorrelation = 3000;  // extension (gpu_track_event.proto): GpuCorrelation
}  // namespace track_event_field

namespace gpu_correlation_field {  // GpuCorrelation, on a host TrackEvent
inline constexpr uint32_t kSubmissionEventIds = 1;  // render stage events this event submitted
inline constexpr uint32_t kWaitEventIds = 2;        // render stage events this event waited for
}  // namespace gpu_correlation_field

namespace render_stage_field {  // GpuRenderStageEvent
inline constexpr uint32_t kEventId = 1;
inline constexpr uint32_t kDuration = 2;    // ns; unset: a point in time
inline constexpr uint32_t kHwQueueId = 3;   // deprecated: index into specifications.hw_queue
inline constexpr uint32_t kStageId = 4;     // deprecated: index into specifications.stage
inline constexpr uint32_t kContext = 5;     // graphics context: InternedGraphicsContext iid
inline constexpr uint32_t kExtraData = 6;   // {name = 1, value = 2}
inline constexpr uint32_t kSpecifications = 7;  // deprecated: {context_spec = 1, hw_queue = 2, stage = 3}
inline constexpr uint32_t kRenderTarget = 8;
inline constexpr uint32_t kSubmissionId = 10;
inline constexpr uint32_t kGpuId = 11;
inline constexpr uint32_t kCommandBuffer = 12;
inline constexpr uint32_t kHwQueueIid = 13;  // InternedGpuRenderStageSpecification iid
inline constexpr uint32_t kStageIid = 14;    // InternedGpuRenderStageSpecification iid
inline constexpr uint32_t kName = 17;
inline constexpr uint32_t kNameIid = 20;     // InternedData.event_names
inline constexpr uint32_t kSpecHwQueue = 2;  // in Specifications; Description {name = 1, description = 2}
inline constexpr uint32_t kSpecStage = 3;
}  // namespace render_stage_field

enum class EventType : uint8_t { kUnspecified = 0, kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4 };

namespace annotation_field {  // DebugAnnotation
inline constexpr uint32_t kNameIid = 1;
inline constexpr uint32_t kBoolValue = 2;
inline constexpr uint32_t kUintValue = 3;
inline constexpr uint32_t kIntValue = 4;
inline constexpr uint32_t kDoubleValue = 5;
inline constexpr uint32_t kStringValue = 6;
inline constexpr uint32_t kPointerValue = 7;
inline constexpr uint32_t kNestedValue = 8;
inline constexpr uint32_t kLegacyJsonValue = 9;
inline constexpr uint32_t kName = 10;
inline constexpr uint32_t kDictEntries = 11;
inline constexpr uint32_t kArrayValues = 12;
inline constexpr uint32_t kProtoValue = 14;
inline constexpr uint32_t kStringValueIid = 17;
}  // namespace annotation_field

namespace interned_field {  // InternedData; every entry is {iid = 1, name/str = 2}
inline constexpr uint32_t kEventCategories = 1;
inline constexpr uint32_t kEventNames = 2;
inline constexpr uint32_t kDebugAnnotationNames = 3;
inline constexpr uint32_t kGpuSpecifications = 24;  // InternedGpuRenderStageSpecification
                                                    // {iid = 1, name = 2, description = 3, category = 4}
inline constexpr uint32_t kDebugAnnotationStringValues = 29;
inline constexpr uint32_t kEntryIid = 1;
inline constexpr uint32_t kEntryName = 2;
}  // namespace interned_field

namespace clock_field {  // ClockSnapshot / ClockSnapshot.Clock
inline constexpr uint32_t kClocks = 1;
inline constexpr uint32_t kPrimaryTraceClock = 2;
inline constexpr uint32_t kClockId = 1;
inline constexpr uint32_t kTimestamp = 2;
inline constexpr uint32_t kIsIncremental = 3;
inline constexpr uint32_t kUnitMultiplierNs = 4;
}  // namespace clock_field

inline constexpr uint32_t kClockBoottime = 6;        // the default trace clock
inline constexpr uint32_t kFirstSequenceClock = 64;  // 64..127: scoped to one sequence
inline constexpr uint32_t kLastSequenceClock = 127;

}  // namespace stepline::loaders::perfetto
