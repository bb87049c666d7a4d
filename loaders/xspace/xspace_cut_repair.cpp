// Cut XSpace files: the prefix repair (see xspace_cut_repair.h).
//
// XSpace nests planes > lines > events. A cut lands inside one field at each
// level; the deepest whole level we keep is the event: a cut event, stat or
// metadata entry is dropped whole, the line and plane around it keep every
// complete field before it. libprotobuf writes a plane's lines (field 3)
// before its event and stat metadata (4, 5), so a cut inside the lines loses
// the names of that plane's events; the diagnostic says so.
#include "loaders/xspace/xspace_cut_repair.h"

#include "loaders/proto_wire/wire_reader.h"
#include "loaders/xspace/xspace_framing.h"

namespace stepline::loaders::xspace {
namespace {

// One length-delimited field whose payload runs past the end.
struct CutField {
  uint64_t tag_at = 0;
  uint32_t number = 0;
  uint64_t length_at = 0, length_width = 0;  // the length varint
  uint64_t payload_at = 0;
  uint64_t declared_end = 0;
  bool has_length = false;  // false: the tag or the length itself is cut
};

bool ReadVarintAt(std::string_view bytes, uint64_t* pos, uint64_t* value) {
  WireReader r(bytes.data() + *pos, bytes.data() + bytes.size(), *pos);
  if (!r.ReadVarint(value)) return false;
  *pos = r.offset();
  return true;
}

CutField ReadCutField(std::string_view bytes, uint64_t tag_at) {
  CutField f;
  f.tag_at = tag_at;
  uint64_t pos = tag_at, tag = 0, len = 0;
  if (!ReadVarintAt(bytes, &pos, &tag)) return f;
  f.number = static_cast<uint32_t>(tag >> 3);
  if ((tag & 7) != 2) return f;
  f.length_at = pos;
  if (!ReadVarintAt(bytes, &pos, &len)) return f;
  f.length_width = pos - f.length_at;
  f.payload_at = pos;
  f.declared_end = pos + len;
  f.has_length = true;
  return f;
}

// Walks the fields of [begin, input end) and returns where the complete ones
// end; `cut` gets the field that runs past the end (if any). Only running out
// of bytes is tolerated: a malformed byte before the cut is an error.
bool WalkToCut(std::string_view bytes, uint64_t begin, uint64_t* complete_end, CutField* cut, bool* has_cut,
               uint64_t* fields_by_number, size_t numbers, WireError* error) {
  WireReader reader(bytes.data() + begin, bytes.data() + bytes.size(), begin);
  WireField f;
  *complete_end = begin;
  *has_cut = false;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      if (!reader.error().ran_out) {
        *error = reader.error();
        return false;
      }
      *cut = ReadCutField(bytes, f.tag_offset);
      if (cut->has_length && cut->declared_end - cut->payload_at > kMaxProtobufMessageBytes) {
        // No writer makes a field this long: damage, not a cut.
        *error = WireError{cut->length_at, "length exceeds 2 GiB, the largest protobuf message", false};
        return false;
      }
      *has_cut = true;
      return true;
    }
    if (f.number < numbers) ++fields_by_number[f.number];
    *complete_end = reader.offset();
  }
  return true;
}

// Rewrites the varint at `at` (of `width` bytes) to `value`, same width.
void PatchVarint(std::string* bytes, uint64_t at, uint64_t width, uint64_t value) {
  for (uint64_t i = 0; i < width; ++i) {
    uint8_t byte = value & 0x7F;
    value >>= 7;
    if (i + 1 < width) byte |= 0x80;
    (*bytes)[at + i] = static_cast<char>(byte);
  }
}

}  // namespace

Result<CutRepair, LoadError> RepairCutXSpace(std::string_view bytes, uint64_t cut_field_at, const std::string& path) {
  const auto invalid = [&](const WireError& e, const std::string& where) {
    return MakeUnexpected(LoadError{LoadErrorCode::kProtobufInvalid, path, e.offset, LoadError::kNoOffset,
                                    where + ": " + e.what});
  };
  CutRepair out;
  out.input_bytes = bytes.size();
  uint64_t keep = cut_field_at;  // by default the cut top-level field goes whole
  std::string what = "a top-level XSpace field";
  std::string dropped_names;
  CutField plane = ReadCutField(bytes, cut_field_at);
  out.declared_end = plane.has_length ? plane.declared_end : bytes.size();
  struct Patch {
    uint64_t at, width, value;
  };
  Patch patches[2];
  int patch_count = 0;
  if (plane.has_length && plane.number == 1) {
    what = "an XPlane";
    uint64_t plane_fields[7] = {};
    uint64_t plane_end = 0;
    CutField inner;
    bool inner_cut = false;
    WireError error;
    if (!WalkToCut(bytes, plane.payload_at, &plane_end, &inner, &inner_cut, plane_fields, 7, &error)) {
      return invalid(error, "the cut XPlane at byte " + std::to_string(plane.tag_at));
    }
    if (inner_cut && inner.has_length && inner.number == 3) {
      // The line: keep its complete events (and header fields before the cut).
      uint64_t line_fields[5] = {};
      uint64_t line_end = 0;
      CutField event;
      bool event_cut = false;
      if (!WalkToCut(bytes, inner.payload_at, &line_end, &event, &event_cut, line_fields, 5, &error)) {
        return invalid(error, "the cut XLine at byte " + std::to_string(inner.tag_at));
      }
      patches[patch_count++] = Patch{inner.length_at, inner.length_width, line_end - inner.payload_at};
      plane_end = line_end;
      ++plane_fields[3];
      what = "an XLine of an XPlane, after " + std::to_string(line_fields[4]) + " complete events of that line";
    } else if (inner_cut) {
      what = inner.number == 4 || inner.number == 5 ? "the metadata of an XPlane" : "an XPlane";
    }
    if (plane_fields[3] > 0 && plane_fields[4] == 0) {
      dropped_names = "; the plane's event and stat metadata (written after its lines) is missing, so its events "
                      "have no names";
    }
    patches[patch_count++] = Patch{plane.length_at, plane.length_width, plane_end - plane.payload_at};
    keep = plane_end;
  }
  out.bytes.assign(bytes.substr(0, keep));
  for (int i = 0; i < patch_count; ++i) PatchVarint(&out.bytes, patches[i].at, patches[i].width, patches[i].value);
  out.kept_bytes = keep;
  out.detail = "the input ends at byte " + std::to_string(bytes.size()) + " inside " + what + " (the field at byte " +
               std::to_string(cut_field_at) + " declares " +
               std::to_string(out.declared_end > bytes.size() ? out.declared_end - bytes.size() : 0) +
               " more bytes); loaded every complete event before byte " + std::to_string(keep) + ", dropped the " +
               std::to_string(bytes.size() - keep) + " bytes after it" + dropped_names;
  return out;
}

}  // namespace stepline::loaders::xspace
