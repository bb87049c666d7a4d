// The idle-cause pattern table: glob matching, TSV parsing, and the embedded
// default (identical to assets/idle_cause_patterns.tsv; a test checks it).
#include "model/analysis/idle_cause_table.h"

#include <cctype>

namespace stepline::analysis {

const std::string_view kDefaultIdleCauseTsv =
    R"tsv(# Stepline idle-cause patterns: which host events explain a GPU idle gap.
# One row per pattern: CATEGORY<TAB>PATTERN[<TAB>comment]. Lines starting with
# '#' and blank lines are ignored. CATEGORY is input, sync, launch,
# host_compute or ignore (a transparent wrapper annotation, never blamed).
# PATTERN is a case-insensitive glob over the whole event name: '*' matches any
# run of characters, '?' exactly one. When several rows match a name, the LAST
# one wins, so rows appended at the end override the defaults above them.
# A host event matching no row is host_compute unless an enclosing event matches.
#
# --- the input pipeline ---
input	*IteratorGetNext*	TF IteratorGetNext / IteratorGetNextOp / MultiDeviceIteratorGetNextFromShard
input	tf_data_iterator_get_next*	tf.data iterator wait (XProf name)
input	Iterator::*	tf.data pipeline stages on the input threads
input	*DataLoader*__next__*	PyTorch DataLoader: enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__
input	*DataLoaderIter*	PyTorch DataLoader iterator internals
input	*Dataset*__getitem__*	PyTorch dataset reads (DataLoader workers)
input	*collate*	PyTorch batch assembly (default_collate)
input	*infeed*	TPU/XLA infeed enqueue and dequeue
input	*prefetch*wait*	prefetch waits
# --- blocking synchronization ---
sync	cu*Synchronize*	cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, cuStreamSynchronize, cuCtxSynchronize
sync	hip*Synchronize*	ROCm equivalents
sync	cudaMemcpy	synchronous copies
sync	cudaMemcpy2D
sync	cuMemcpyDtoH*
sync	cuMemcpyHtoD*
sync	hipMemcpy
sync	hipMemcpyDtoH*
sync	hipMemcpyHtoD*
sync	aten::item	PyTorch .item(): copies a scalar to the host and waits
sync	aten::_local_scalar_dense
sync	*cuda*synchronize*	Python frames such as torch/cuda/__init__.py(975): synchronize
# --- runtime launch calls ---
launch	cudaLaunchKernel*
launch	cudaLaunchCooperativeKernel*
launch	cuLaunchKernel*
launch	cuLaunchCooperativeKernel*
launch	hipLaunchKernel*
launch	hipExtLaunchKernel*
launch	hipModuleLaunchKernel*
launch	hipExtModuleLaunchKernel*
launch	cudaGraphLaunch*
launch	cuGraphLaunch*
launch	hipGraphLaunch*
launch	cudaMemcpy*Async*	asynchronous copies and memsets are enqueued like kernels; these rows come
launch	cuMemcpy*Async*	after the sync rows, so cuMemcpyDtoHAsync_v2 is a launch, cuMemcpyDtoH_v2 a sync
launch	hipMemcpy*Async*
launch	cudaMemset*Async*
launch	cuMemset*Async*
launch	hipMemset*Async*
launch	cudaEventRecord*	stream-ordering calls are enqueued too
launch	cuEventRecord*
launch	hipEventRecord*
launch	cudaStreamWaitEvent*
launch	cuStreamWaitEvent*
launch	hipStreamWaitEvent*
)tsv";

namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

// Iterative glob with single-star backtracking: on a mismatch, retry from the
// last '*' one character further into the text. Linear in practice.
bool GlobMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || Lower(pattern[p]) == Lower(text[t]))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star_p = p++;
      star_t = t;
    } else if (star_p != std::string_view::npos) {
      p = star_p + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

const IdleCauseTable& IdleCauseTable::Default() {
  static const IdleCauseTable table = [] {
    IdleCauseTable t;
    std::string error;
    Parse(kDefaultIdleCauseTsv, &t, &error);
    return t;
  }();
  return table;
}

bool IdleCauseTable::Parse(std::string_view tsv, IdleCauseTable* out, std::string* error) {
  IdleCauseTable parsed;
  size_t line_no = 0;
  while (!tsv.empty()) {
    const size_t eol = tsv.find('\n');
    std::string_view line = tsv.substr(0, eol);
    tsv.remove_prefix(eol == std::string_view::npos ? tsv.size() : eol + 1);
    ++line_no;
    if (Trim(line).empty() || Trim(line).front() == '#') continue;
    const size_t tab = line.find('\t');
    const std::string_view category_text = Trim(line.substr(0, tab));
    std::string_view pattern = tab == std::string_view::npos ? std::string_view() : line.substr(tab + 1);
    pattern = Trim(pattern.substr(0, pattern.find('\t')));
    HostCategory category;
    if (!ParseHostCategory(category_text, &category)) {
      *error = "line " + std::to_string(line_no) + ": unknown category \"" + std::string(category_text) + "\"";
      return false;
    }
    if (pattern.empty()) {
      *error = "line " + std::to_string(line_no) + ": missing pattern";
      return false;
    }
    parsed.Add(category, std::string(pattern));
  }
  *out = std::move(parsed);
  return true;
}

HostCategory IdleCauseTable::Classify(std::string_view name) const {
  for (size_t i = rows_.size(); i-- > 0;) {
    if (GlobMatch(rows_[i].pattern, name)) return rows_[i].category;
  }
  return HostCategory::kNone;
}

}  // namespace stepline::analysis
