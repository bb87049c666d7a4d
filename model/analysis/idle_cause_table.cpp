// The idle-cause pattern table: glob matching, TSV parsing, and the embedded
// default (identical to assets/idle_cause_patterns.tsv; a test checks it).
#include "model/analysis/idle_cause_table.h"

#include "model/ascii_case.h"

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
input	*TransferToDevice*	XLA/PjRt host-to-device transfers (tpu::System::TransferToDevice, TransferToDevice=>IssueEvent)
input	*TransferToInfeed*	XLA infeed transfers
input	*BufferFromPyval*	JAX device_put: a host array copied to the device
input	read	a blocking file or pipe read (syscall traces)
input	recv*	socket reads: recv, recvfrom, recvmsg
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
sync	*outfeed*	TPU/XLA outfeed dequeue: the host waits for results the device sends
sync	*TransferFromDevice*	XLA/PjRt device-to-host transfers: the host waits for the copy back
sync	*TransferFromOutfeed*
sync	Wait for *	PjRt buffer waits: Wait for donation holds, Wait for usage holds, Wait for event
sync	*BlockHostUntilReady*	XLA's wait for a buffer (behind JAX block_until_ready)
sync	*block_until_ready*	JAX: $api.py:3154 block_until_ready waits for the device
sync	pthread_cond_*wait	a thread blocked on a condition variable
sync	sem_*wait	a thread blocked on a semaphore (sem_wait, sem_timedwait)
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

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Iterative glob with single-star backtracking: on a mismatch, retry from the
// last '*' one character further into the text. Linear in practice.
// `fold` maps each character before comparing (case-insensitive, or as is
// when both sides are already lowercase).
template <typename Fold>
bool GlobMatchFolded(std::string_view pattern, std::string_view text, Fold fold) {
  size_t p = 0, t = 0;
  size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || fold(pattern[p]) == fold(text[t]))) {
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

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text) { return GlobMatchFolded(pattern, text, [](char c) { return AsciiLower(c); }); }

void IdleCauseTable::Add(HostCategory category, std::string pattern) {
  Compiled c;
  c.pattern = AsciiLower(pattern);
  std::string_view rest = c.pattern;
  while (!rest.empty()) {
    const size_t wild = rest.find_first_of("*?");
    const std::string_view run = rest.substr(0, wild);
    if (run.size() > c.literal.size()) c.literal = std::string(run);
    if (wild == std::string_view::npos) break;
    rest.remove_prefix(wild + 1);
  }
  rows_.push_back({category, std::move(pattern)});
  compiled_.push_back(std::move(c));
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
  thread_local std::string lower;
  lower.assign(name);
  for (char& c : lower) c = AsciiLower(c);
  auto same = [](char c) { return c; };
  for (size_t i = compiled_.size(); i-- > 0;) {
    const Compiled& c = compiled_[i];
    if (!c.literal.empty() && lower.find(c.literal) == std::string::npos) continue;
    if (GlobMatchFolded(c.pattern, lower, same)) return rows_[i].category;
  }
  return HostCategory::kNone;
}

}  // namespace stepline::analysis
