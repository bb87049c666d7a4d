// DebugAnnotation -> args (see annotation_args.h).
#include "loaders/perfetto/annotation_args.h"

#include <cstdio>
#include <cstring>

#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {

struct Context {
  const SequenceState& seq;
  TraceBuilder* builder;
  std::vector<Arg>* out;
  AnnotationStats* stats;
  uint64_t* error_offset;
  const char** error;
};

void Note(uint64_t* count, uint64_t* first, uint64_t offset) {
  if ((*count)++ == 0) *first = offset;
}

// One annotation whose key is `prefix` (a dict entry's or array element's
// key is built from it). `named`: take the key from the annotation's own
// name fields (top level and dict entries), not from `prefix`.
bool Append(Context& c, std::string_view bytes, uint64_t base_offset, const std::string& prefix, bool named,
            int depth) {
  namespace da = annotation_field;
  if (depth > kMaxAnnotationDepth) {
    ++c.stats->too_deep;
    return true;
  }
  // First pass: the key (name fields may follow the value on the wire).
  std::string key = prefix;
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), base_offset);
  WireField f;
  if (named) {
    std::string name;
    while (!reader.done()) {
      if (!reader.Next(&f)) break;
      if (f.number == da::kName && f.type == WireType::kLen) name = PayloadView(f);
      if (f.number == da::kNameIid && f.type == WireType::kVarint) {
        auto it = c.seq.annotation_names.find(f.value);
        if (it != c.seq.annotation_names.end()) {
          name = c.builder->trace().str(it->second);
        } else {
          Note(&c.stats->missing_iid, &c.stats->missing_iid_first_offset, f.tag_offset);
          name = "annotation#" + std::to_string(f.value);
        }
      }
    }
    key = prefix.empty() ? name : prefix + "." + name;
    reader = WireReader(bytes.data(), bytes.data() + bytes.size(), base_offset);
  }
  size_t array_index = 0;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *c.error_offset = reader.error().offset;
      *c.error = reader.error().what;
      return false;
    }
    const auto add = [&](ArgValue v) { c.out->push_back(Arg{c.builder->Intern(key), v}); };
    const bool is_varint = f.type == WireType::kVarint;
    const bool is_len = f.type == WireType::kLen;
    switch (f.number) {
      case da::kBoolValue: if (is_varint) add(ArgValue::Bool(f.value != 0)); break;
      case da::kUintValue: if (is_varint) add(ArgValue::Uint(f.value)); break;
      case da::kIntValue: if (is_varint) add(ArgValue::Int(static_cast<int64_t>(f.value))); break;
      case da::kDoubleValue:
        if (f.type == WireType::kFixed64) {
          double d;
          std::memcpy(&d, &f.value, sizeof d);
          add(ArgValue::Double(d));
        }
        break;
      case da::kStringValue: if (is_len) add(ArgValue::String(c.builder->Intern(PayloadView(f)))); break;
      case da::kStringValueIid: {
        if (!is_varint) break;
        auto it = c.seq.annotation_strings.find(f.value);
        if (it != c.seq.annotation_strings.end()) {
          add(ArgValue::String(it->second));
        } else {
          Note(&c.stats->missing_iid, &c.stats->missing_iid_first_offset, f.tag_offset);
        }
        break;
      }
      case da::kPointerValue:
        if (is_varint) {
          char hex[24];
          std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(f.value));
          add(ArgValue::String(c.builder->Intern(hex)));
        }
        break;
      case da::kLegacyJsonValue: if (is_len) add(ArgValue::Json(c.builder->Intern(PayloadView(f)))); break;
      case da::kDictEntries:
        if (is_len && !Append(c, PayloadView(f), reader.OffsetOf(f.payload), key, true, depth + 1)) return false;
        break;
      case da::kArrayValues:
        if (is_len && !Append(c, PayloadView(f), reader.OffsetOf(f.payload),
                              key + "[" + std::to_string(array_index++) + "]", false, depth + 1)) {
          return false;
        }
        break;
      case da::kNestedValue:
      case da::kProtoValue: Note(&c.stats->unsupported, &c.stats->unsupported_first_offset, f.tag_offset); break;
      default: break;  // names (read above), proto type names
    }
  }
  return true;
}

}  // namespace

bool AppendAnnotationArgs(std::string_view bytes, uint64_t base_offset, const SequenceState& seq,
                          TraceBuilder* builder, std::vector<Arg>* out, AnnotationStats* stats,
                          uint64_t* error_offset, const char** error) {
  Context c{seq, builder, out, stats, error_offset, error};
  return Append(c, bytes, base_offset, std::string(), true, 0);
}

}  // namespace stepline::loaders::perfetto
