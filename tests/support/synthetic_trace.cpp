// SyntheticTrace (see synthetic_trace.h).
#include "tests/support/synthetic_trace.h"

#include "model/sl_assert.h"

namespace stepline::testing {

SyntheticTrace::SyntheticTrace() {
  host_process_ = trace_.mutable_processes().Append({100, trace_.mutable_strings().Intern("python"), 0, -1});
}

TrackId SyntheticTrace::HostThread(std::string_view name) {
  auto it = threads_.find(name);
  if (it != threads_.end()) return it->second;
  TrackTable::Row row;
  row.kind = TrackKind::kHostThread;
  row.process = host_process_;
  row.tid = static_cast<int64_t>(threads_.size()) + 1;
  row.name = trace_.mutable_strings().Intern(name);
  const TrackId id = trace_.mutable_tracks().Append(row);
  threads_.emplace(std::string(name), id);
  return id;
}

ProcessId SyntheticTrace::DeviceProcess(int32_t device) {
  auto it = device_processes_.find(device);
  if (it != device_processes_.end()) return it->second;
  const std::string name = "GPU " + std::to_string(device);
  const ProcessId id = trace_.mutable_processes().Append({device, trace_.mutable_strings().Intern(name), 0, device});
  device_processes_.emplace(device, id);
  return id;
}

TrackId SyntheticTrace::Stream(int32_t device, int64_t stream) {
  auto it = streams_.find({device, stream});
  if (it != streams_.end()) return it->second;
  TrackTable::Row row;
  row.kind = TrackKind::kGpuStream;
  row.process = DeviceProcess(device);
  row.tid = stream;
  row.name = trace_.mutable_strings().Intern("stream " + std::to_string(stream));
  row.device_id = device;
  const TrackId id = trace_.mutable_tracks().Append(row);
  streams_.emplace(std::make_pair(device, stream), id);
  return id;
}

SyntheticTrace::PendingSlice& SyntheticTrace::Last() {
  SL_ASSERT(!slices_.empty() && "add a slice before its args");
  return slices_.back();
}

SyntheticTrace& SyntheticTrace::Thread(std::string_view name) {
  current_thread_ = HostThread(name);
  return *this;
}

SyntheticTrace& SyntheticTrace::Slice(std::string_view name, TimeNs start_ns, DurNs dur_ns) {
  SL_ASSERT(!current_thread_.is_none() && "call Thread() first");
  slices_.push_back({current_thread_, start_ns, dur_ns, std::string(name), GpuKind::kNone, {}});
  return *this;
}

SyntheticTrace& SyntheticTrace::Device(int32_t device_id) {
  current_device_ = device_id;
  return *this;
}

SyntheticTrace& SyntheticTrace::Gpu(GpuKind kind, int64_t stream, TimeNs start_ns, DurNs dur_ns,
                                    std::string_view name) {
  slices_.push_back({Stream(current_device_, stream), start_ns, dur_ns, std::string(name), kind, {}});
  last_gpu_op_ = slices_.size() - 1;
  return *this;
}

SyntheticTrace& SyntheticTrace::Copy(GpuKind kind, int64_t stream, TimeNs start_ns, DurNs dur_ns) {
  const char* name = "Memcpy";
  switch (kind) {
    case GpuKind::kMemcpyH2D: name = "Memcpy HtoD"; break;
    case GpuKind::kMemcpyD2H: name = "Memcpy DtoH"; break;
    case GpuKind::kMemcpyD2D: name = "Memcpy DtoD"; break;
    case GpuKind::kMemset: name = "Memset"; break;
    default: break;
  }
  return Gpu(kind, stream, start_ns, dur_ns, name);
}

SyntheticTrace& SyntheticTrace::LaunchedFrom(std::string_view thread, TimeNs start_ns, DurNs dur_ns,
                                             std::string_view api) {
  SL_ASSERT(last_gpu_op_ != SIZE_MAX && "add a GPU op before its launch");
  slices_.push_back({HostThread(thread), start_ns, dur_ns, std::string(api), GpuKind::kNone, {}});
  launch_flows_.emplace_back(slices_.size() - 1, last_gpu_op_);
  return *this;
}

SyntheticTrace& SyntheticTrace::StepsRow(std::string_view name, TimeNs start_ns, DurNs dur_ns) {
  auto it = steps_rows_.find(current_device_);
  if (it == steps_rows_.end()) {
    TrackTable::Row row;
    row.kind = TrackKind::kGpuDerived;
    row.process = DeviceProcess(current_device_);
    row.tid = 0xDEADBEEF;
    row.name = trace_.mutable_strings().Intern("Steps");
    row.device_id = current_device_;
    it = steps_rows_.emplace(current_device_, trace_.mutable_tracks().Append(row)).first;
  }
  slices_.push_back({it->second, start_ns, dur_ns, std::string(name), GpuKind::kNone, {}});
  return *this;
}

SyntheticTrace& SyntheticTrace::Arg(std::string_view key, int64_t value) {
  Last().args.push_back({std::string(key), ArgType::kInt, value, 0, {}});
  return *this;
}

SyntheticTrace& SyntheticTrace::ArgDouble(std::string_view key, double value) {
  Last().args.push_back({std::string(key), ArgType::kDouble, 0, value, {}});
  return *this;
}

SyntheticTrace& SyntheticTrace::ArgString(std::string_view key, std::string_view value) {
  Last().args.push_back({std::string(key), ArgType::kString, 0, 0, std::string(value)});
  return *this;
}

SyntheticTrace& SyntheticTrace::ArgJson(std::string_view key, std::string_view json) {
  Last().args.push_back({std::string(key), ArgType::kJson, 0, 0, std::string(json)});
  return *this;
}

Trace SyntheticTrace::Build() {
  StringPool& strings = trace_.mutable_strings();
  SliceTable& table = trace_.mutable_slices();
  table.Reserve(slices_.size());
  for (const PendingSlice& p : slices_) {
    std::vector<stepline::Arg> args;
    for (const PendingArg& a : p.args) {
      ArgValue v;
      switch (a.type) {
        case ArgType::kInt: v = ArgValue::Int(a.i); break;
        case ArgType::kDouble: v = ArgValue::Double(a.d); break;
        case ArgType::kJson: v = ArgValue::Json(strings.Intern(a.s)); break;
        default: v = ArgValue::String(strings.Intern(a.s)); break;
      }
      args.push_back({strings.Intern(a.key), v});
    }
    const ArgSetId set = trace_.mutable_args().AddSet(args);
    table.Append({p.track, p.start_ns, p.dur_ns, strings.Intern(p.name), StringId::None(), set, p.kind});
  }
  for (const auto& [from, to] : launch_flows_) {
    FlowTable::Pending f;
    f.from = FlowEndpoint::OfSlice(SliceId::FromIndex(from));
    f.to = FlowEndpoint::OfSlice(SliceId::FromIndex(to));
    f.kind = FlowKind::kLaunch;
    trace_.mutable_flows().AddPending(f);
  }
  trace_.Finalize();
  return std::move(trace_);
}

}  // namespace stepline::testing
