// MeasureParseFloorMs (see parse_floor.h): the loader's speculative chunk plan
// (json_chunker.h) and chunk documents, parsed by `threads` threads that each
// keep one simdjson parser, claiming chunks in order from a shared counter.
#include "loaders/chrome_json/parse_floor.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "loaders/chrome_json/chunk_document.h"
#include "loaders/chrome_json/json_chunker.h"
#include "model/worker_thread.h"

namespace stepline::loaders {
namespace {

namespace od = simdjson::ondemand;

constexpr uint64_t kChunkBytes = uint64_t{4} << 20;  // the loader's chunk size for large inputs

// Visits `value` and everything in it; `sum` keeps the reads from being optimized away.
bool Visit(od::value value, uint64_t* sum) {
  od::json_type type;
  if (value.type().get(type)) return false;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (value.get_object().get(object)) return false;
      for (auto member : object) {
        od::field field;
        std::string_view key;
        if (std::move(member).get(field) || field.unescaped_key().get(key)) return false;
        *sum += key.size();
        if (!Visit(field.value(), sum)) return false;
      }
      return true;
    }
    case od::json_type::array: {
      od::array array;
      if (value.get_array().get(array)) return false;
      for (auto element : array) {
        od::value v;
        if (std::move(element).get(v) || !Visit(v, sum)) return false;
      }
      return true;
    }
    case od::json_type::number: {
      double d;
      if (value.get_double().get(d)) return false;
      *sum += static_cast<uint64_t>(d != 0);
      return true;
    }
    case od::json_type::string: {
      std::string_view s;
      if (value.get_string().get(s)) return false;
      *sum += s.size();
      return true;
    }
    case od::json_type::boolean: {
      bool b;
      if (value.get_bool().get(b)) return false;
      *sum += b;
      return true;
    }
    case od::json_type::null: {
      bool null = false;
      return !value.is_null().get(null) && null;
    }
  }
  return false;
}

bool ParseChunk(const ChunkSpec& spec, std::string_view json, od::parser* parser, std::unique_ptr<char[]>* buffer,
                size_t* capacity, uint64_t* sum) {
  const ChunkDocument doc = BuildChunkDocument(spec, json, buffer, capacity);
  od::document d;
  if (parser->iterate(doc.data, doc.size, doc.size + kDocumentPadding).get(d)) return false;
  od::value top;
  if (d.get_value().get(top)) return false;
  return Visit(top, sum);
}

}  // namespace

std::optional<double> MeasureParseFloorMs(std::string_view json, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ChunkSpec> plan = PlanSpeculativeChunks(json, kChunkBytes);
  std::atomic<size_t> next{0};
  std::atomic<bool> ok{true};
  std::atomic<uint64_t> total{0};
  const auto work = [&] {
    od::parser parser;
    std::unique_ptr<char[]> buffer;
    size_t capacity = 0;
    uint64_t sum = 0;
    for (size_t i = next++; i < plan.size() && ok; i = next++) {
      if (!ParseChunk(plan[i], json, &parser, &buffer, &capacity, &sum)) ok = false;
    }
    total += sum;
  };
  std::vector<WorkerThread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  JoinAll(helpers);
  if (!ok || total.load() == 0) return std::nullopt;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace stepline::loaders
