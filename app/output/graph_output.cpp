// The `graph_replays` JSON array (graph_output.h).
#include "app/output/graph_output.h"

#include "export/json_text.h"

namespace stepline::app {

void AppendGraphReplaysJson(const analysis::Report& report, std::string* out) {
  out->append(",\"graph_replays\":[");
  for (size_t i = 0; i < report.graph_replays.size(); ++i) {
    const analysis::GraphReplay& r = report.graph_replays[i];
    out->append(i == 0 ? "{\"graph_id\":" : ",{\"graph_id\":");
    exports::AppendJsonInt(out, r.graph_id);
    out->append(r.graph_id_recorded ? ",\"graph_id_recorded\":true" : ",\"graph_id_recorded\":false");
    out->append(",\"start_ns\":");
    exports::AppendJsonInt(out, r.start_ns);
    out->append(",\"dur_ns\":");
    exports::AppendJsonInt(out, r.end_ns - r.start_ns);
    out->append(",\"nodes\":");
    exports::AppendJsonInt(out, r.nodes);
    out->append(",\"node_ns\":");
    exports::AppendJsonInt(out, r.node_ns);
    out->append(",\"kernel_ns\":");
    exports::AppendJsonInt(out, r.kernel_ns);
    out->push_back('}');
  }
  out->push_back(']');
}

}  // namespace stepline::app
