// The planted graph-replay trace of demo_graphs.h. Times are microseconds.
//
// Host thread, in order:
//   ProfilerStep#1 [0, 1000): CUDAGraph::replay [0, 28) around cudaGraphLaunch
//     [5, 25) (replay A1); cudaDeviceSynchronize [28, 405); optimizer.step
//     [405, 500); cudaLaunchKernel [500, 510) of `add` [510, 600);
//     cudaDeviceSynchronize [510, 605); the data loader [605, 1000).
//   ProfilerStep#2 [1000, 2000): CUDAGraph::replay [1000, 1025) around
//     cudaGraphLaunch [1000, 1020) (A2); CUDAGraph::replay [1395, 1412) around
//     cudaGraphLaunch [1400, 1410) (B); cudaDeviceSynchronize [1412, 1565);
//     optimizer.step [1565, 2000).
// Gaps: inside a replay (A1 130-150, 250-300; A2 1120-1140, 1240-1290; B
// 1500-1530) the next node's replay began before the gap: graph, 170 in all.
// [400, 510): `add`'s launch began at 500, after the gap; the window holds
// sync 5, optimizer.step 95 (host compute), the launch 10: host_compute.
// [600, 1020): A2's first node starts its replay, so the host rules apply:
// sync 5, the loader 395, the launch 20: input. [1390, 1410): B's launch
// began at 1400; CUDAGraph::replay 5 (host compute), the launch 10 and 5
// with nothing: launch (the launch covers more than the idle 5).
#include "demo/demo_graphs.h"

#include <vector>

#include "loaders/trace_builder.h"

namespace stepline::demo {
namespace {

constexpr TimeNs GraphDemoUs(int64_t us) { return us * 1000; }

class GraphDemoBuilder {
 public:
  explicit GraphDemoBuilder(bool record_ids) : b_("kineto-json"), record_ids_(record_ids) {
    b_.SetProcessName(kHostPid, "python", 0);
    main_ = b_.ThreadTrack(kHostPid, 1);
    b_.SetThreadName(kHostPid, 1, "python main", 0);
    b_.SetProcessName(0, "GPU 0", 0);
    b_.SetProcessDevice(0, 0);
    stream_ = b_.ThreadTrack(0, 7);
    b_.SetTrackKind(stream_, TrackKind::kGpuStream, 0);
    b_.SetThreadName(0, 7, "stream 7", 0);
    cpu_op_ = b_.Intern("cpu_op");
    runtime_ = b_.Intern("cuda_runtime");
    kernel_ = b_.Intern("kernel");
    memset_ = b_.Intern("gpu_memset");
    annotation_ = b_.Intern("user_annotation");
    graph_key_ = b_.Intern("graph id");
    node_key_ = b_.Intern("graph node id");
  }
  void Host(int64_t start_us, int64_t end_us, std::string_view name, StringId category) {
    Add(main_, start_us, end_us, name, category, GpuKind::kNone, {});
  }
  void Op(int64_t start_us, int64_t end_us, std::string_view name) { Host(start_us, end_us, name, cpu_op_); }
  void Runtime(int64_t start_us, int64_t end_us, std::string_view name) { Host(start_us, end_us, name, runtime_); }
  void Marker(int64_t start_us, int64_t end_us, std::string_view name) { Host(start_us, end_us, name, annotation_); }

  struct Node {
    int64_t start_us, end_us;
    std::string_view name;
    GpuKind kind;
    int64_t node_id;
  };
  // One cudaGraphLaunch [start, end) inside CUDAGraph::replay [op_start, op_end), and its nodes.
  void Replay(int64_t op_start, int64_t op_end, int64_t start_us, int64_t end_us, int64_t graph_id,
              const std::vector<Node>& nodes) {
    Op(op_start, op_end, "CUDAGraph::replay");
    const SliceId launch = Add(main_, start_us, end_us, "cudaGraphLaunch", runtime_, GpuKind::kNone, {});
    b_.NoteLaunch(++correlation_, launch);
    for (const Node& n : nodes) {
      std::vector<Arg> args;
      if (record_ids_) args = {{graph_key_, ArgValue::Int(graph_id)}, {node_key_, ArgValue::Int(n.node_id)}};
      const StringId category = n.kind == GpuKind::kMemset ? memset_ : kernel_;
      b_.NoteDeviceActivity(correlation_, Add(stream_, n.start_us, n.end_us, n.name, category, n.kind, args));
    }
  }
  void Launch(int64_t start_us, int64_t end_us, int64_t kernel_start_us, int64_t kernel_end_us,
              std::string_view kernel) {
    const SliceId launch = Add(main_, start_us, end_us, "cudaLaunchKernel", runtime_, GpuKind::kNone, {});
    b_.NoteLaunch(++correlation_, launch);
    b_.NoteDeviceActivity(correlation_,
                          Add(stream_, kernel_start_us, kernel_end_us, kernel, kernel_, GpuKind::kKernel, {}));
  }
  Trace Finish() { return b_.Finish(); }

 private:
  static constexpr int64_t kHostPid = 100;
  SliceId Add(TrackId track, int64_t start_us, int64_t end_us, std::string_view name, StringId cat, GpuKind kind,
              const std::vector<Arg>& args) {
    SliceTable::Row row;
    row.track = track;
    row.start_ns = GraphDemoUs(start_us);
    row.dur_ns = GraphDemoUs(end_us) - GraphDemoUs(start_us);
    row.name = b_.Intern(name);
    row.category = cat;
    row.gpu_kind = kind;
    if (!args.empty()) row.arg_set = b_.AddArgs(args);
    return b_.AddSlice(row);
  }
  loaders::TraceBuilder b_;
  bool record_ids_;
  TrackId main_, stream_;
  StringId cpu_op_, runtime_, kernel_, memset_, annotation_, graph_key_, node_key_;
  uint64_t correlation_ = 0;
};

}  // namespace

Trace PlantedGraphTrace(bool record_ids) {
  GraphDemoBuilder g(record_ids);
  const std::vector<GraphDemoBuilder::Node> a = {{0, 100, "graph_a_k1", GpuKind::kKernel, 11},
                                                 {120, 220, "graph_a_k2", GpuKind::kKernel, 12},
                                                 {270, 370, "graph_a_k3", GpuKind::kKernel, 13}};
  auto shifted = [&](int64_t by) {
    std::vector<GraphDemoBuilder::Node> out = a;
    for (auto& n : out) {
      n.start_us += by;
      n.end_us += by;
    }
    return out;
  };
  g.Marker(0, 1000, "ProfilerStep#1");
  g.Replay(0, 28, 5, 25, 3, shifted(30));
  g.Runtime(28, 405, "cudaDeviceSynchronize");
  g.Op(405, 500, "optimizer.step");
  g.Launch(500, 510, 510, 600, "add");
  g.Runtime(510, 605, "cudaDeviceSynchronize");
  g.Op(605, 1000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  g.Marker(1000, 2000, "ProfilerStep#2");
  g.Replay(1000, 1025, 1000, 1020, 3, shifted(1020));
  g.Replay(1395, 1412, 1400, 1410, 5,
           {{1410, 1500, "gemm", GpuKind::kKernel, 21},
            {1505, 1510, "Memset (Device)", GpuKind::kMemset, 22},
            {1530, 1560, "relu", GpuKind::kKernel, 23}});
  g.Runtime(1412, 1565, "cudaDeviceSynchronize");
  g.Op(1565, 2000, "optimizer.step");
  return g.Finish();
}

}  // namespace stepline::demo
