// Tiny XSpaces for the XSpace loader tests, built with the protoc-generated
// classes of loaders/xspace/xplane.proto (libprotobuf is the encoder, so the
// tests do not share code with our hand-written decoder), plus small readers
// of the loaded Trace.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"
#include "xplane.pb.h"

namespace stepline::testing {

namespace xs = stepline::xspace;

// Adds metadata to one plane with ids 1, 2, 3... as producers do.
class PlaneBuilder {
 public:
  PlaneBuilder(xs::XSpace* space, int64_t id, const std::string& name) : plane_(space->add_planes()) {
    plane_->set_id(id);
    plane_->set_name(name);
  }
  xs::XPlane* plane() { return plane_; }

  int64_t StatMd(const std::string& name) {
    auto* e = plane_->add_stat_metadata();
    const int64_t id = plane_->stat_metadata_size();
    e->set_key(id);
    e->mutable_value()->set_id(id);
    e->mutable_value()->set_name(name);
    return id;
  }
  int64_t EventMd(const std::string& name, const std::string& display_name = "") {
    auto* e = plane_->add_event_metadata();
    const int64_t id = plane_->event_metadata_size();
    e->set_key(id);
    e->mutable_value()->set_id(id);
    e->mutable_value()->set_name(name);
    if (!display_name.empty()) e->mutable_value()->set_display_name(display_name);
    return id;
  }
  xs::XEventMetadata* MutableEventMd(int64_t id) { return plane_->mutable_event_metadata(static_cast<int>(id - 1))->mutable_value(); }
  xs::XLine* Line(int64_t id, const std::string& name, int64_t timestamp_ns = 0) {
    xs::XLine* l = plane_->add_lines();
    l->set_id(id);
    l->set_name(name);
    l->set_timestamp_ns(timestamp_ns);
    return l;
  }
  static xs::XEvent* Event(xs::XLine* line, int64_t md, int64_t offset_ps, int64_t duration_ps) {
    xs::XEvent* e = line->add_events();
    e->set_metadata_id(md);
    e->set_offset_ps(offset_ps);
    e->set_duration_ps(duration_ps);
    return e;
  }
  static xs::XStat* Stat(google::protobuf::RepeatedPtrField<xs::XStat>* stats, int64_t md) {
    xs::XStat* s = stats->Add();
    s->set_metadata_id(md);
    return s;
  }

 private:
  xs::XPlane* plane_;
};

inline std::string Serialize(const xs::XSpace& space) {
  std::string out;
  space.SerializeToString(&out);
  return out;
}

// Readers of a finalized trace.
inline TrackId FindTrack(const Trace& t, std::string_view name, int32_t device = -2) {
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId id = TrackId::FromIndex(i);
    if (t.str(t.tracks().name(id)) == name && (device == -2 || t.tracks().device_id(id) == device)) return id;
  }
  return TrackId::None();
}

inline std::vector<SliceId> TrackSlices(const Trace& t, TrackId track) {
  std::vector<SliceId> out;
  const auto& r = t.tracks().ranges(track);
  for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) out.push_back(SliceId(i));
  return out;
}

// Args of a slice as "key=value" strings, in order (strings unquoted).
inline std::vector<std::string> ArgStrings(const Trace& t, ArgSetId set) {
  std::vector<std::string> out;
  if (set.is_none()) return out;
  const ArgTable& args = t.args();
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    const ArgValue v = args.value(r);
    std::string value;
    switch (v.type) {
      case ArgType::kInt: value = std::to_string(v.as_int()); break;
      case ArgType::kUint:
      case ArgType::kDecimalString: value = std::to_string(v.as_uint()); break;
      case ArgType::kDouble: value = std::to_string(v.as_double()); break;
      case ArgType::kBool: value = v.as_bool() ? "true" : "false"; break;
      case ArgType::kString:
      case ArgType::kJson: value = std::string(t.str(v.as_string())); break;
    }
    out.push_back(std::string(t.str(args.key()[r])) + "=" + value);
  }
  return out;
}

}  // namespace stepline::testing
