#include "observations/displacement_observations.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/io/json_fields.h"
#include "observations/observation_json.h"

namespace softfit {

DisplacementObservations displacementObservationsFromStates(const std::vector<State>& states,
                                                            const std::vector<int>& nodes, int stride,
                                                            double simulationDt, double weight) {
  if (states.empty()) throw InputError("displacement observations: no states");
  if (stride < 1) throw InputError("displacement observations: stride must be at least 1");
  if (!(weight >= 0.0)) throw InputError("displacement observations: weight must be >= 0");
  const int nodeCount = static_cast<int>(states[0].x.size() / 3);
  for (const int n : nodes)
    if (n < 0 || n >= nodeCount)
      throw InputError("displacement observations: node " + std::to_string(n) + " is out of range (the body has " +
                       std::to_string(nodeCount) + " nodes)");
  DisplacementObservations obs;
  obs.dt = stride * simulationDt;
  for (std::size_t s = 0, f = 0; s < states.size(); s += stride, ++f) {
    DisplacementFrame frame;
    frame.frame = static_cast<int>(f);
    frame.weight = weight;
    frame.nodes = nodes;
    const VecX& x = states[s].x;
    if (nodes.empty()) {
      frame.positions = Eigen::Map<const PointMatrix>(x.data(), x.size() / 3, 3);
    } else {
      frame.positions.resize(static_cast<Eigen::Index>(nodes.size()), 3);
      for (std::size_t i = 0; i < nodes.size(); ++i)
        frame.positions.row(static_cast<Eigen::Index>(i)) = x.segment<3>(3 * nodes[i]).transpose();
    }
    obs.frames.push_back(std::move(frame));
  }
  return obs;
}

DisplacementObservations readDisplacementObservations(const std::string& path) {
  const nlohmann::json root = readJsonFile(path);
  DisplacementObservations obs;
  obs.source = path;
  withErrorPrefix(path, [&] {
    if (!root.is_object()) throw InputError("expected a JSON object with \"frames\"");
    const JsonFields f(root, "");
    f.allowOnly({"dt", "frames", "description"});
    obs.dt = f.number("dt", 0.0);
    if (!(obs.dt >= 0.0)) throw InputError("dt: must be >= 0");
    if (!root.contains("frames")) throw InputError("missing required field \"frames\"");
    const auto& frames = root.at("frames");
    if (!frames.is_array()) throw InputError("frames: expected an array of frame objects");
    std::set<int> seen;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const std::string field = "frames[" + std::to_string(i) + "]";
      const JsonFields fr(frames[i], field);
      fr.allowOnly({"frame", "weight", "nodes", "positions"});
      DisplacementFrame d;
      d.frame = fr.integer("frame");
      if (d.frame < 0) throw InputError(fr.field("frame") + ": must be >= 0");
      if (!seen.insert(d.frame).second)
        throw InputError(fr.field("frame") + " = " + std::to_string(d.frame) + ": frame listed twice");
      d.weight = fr.number("weight", 1.0);
      if (!(d.weight >= 0.0)) throw InputError(fr.field("weight") + ": must be >= 0");
      if (fr.has("nodes")) {
        d.nodes = fr.integerArray("nodes");
        std::vector<int> sorted = d.nodes;
        std::sort(sorted.begin(), sorted.end());
        if (!sorted.empty() && sorted.front() < 0) throw InputError(fr.field("nodes") + ": negative node index");
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
          throw InputError(fr.field("nodes") + ": node " +
                           std::to_string(*std::adjacent_find(sorted.begin(), sorted.end())) + " is listed twice");
        if (d.nodes.empty()) throw InputError(fr.field("nodes") + ": empty (omit \"nodes\" to observe every node)");
      }
      if (!fr.has("positions")) throw InputError("missing required field \"" + fr.field("positions") + "\"");
      d.positions = jsonPointArray(frames[i].at("positions"), fr.field("positions"));
      if (!d.nodes.empty() && d.positions.rows() != static_cast<Eigen::Index>(d.nodes.size()))
        throw InputError(fr.field("positions") + ": " + std::to_string(d.positions.rows()) + " positions for " +
                         std::to_string(d.nodes.size()) + " nodes");
      if (d.positions.rows() == 0) throw InputError(fr.field("positions") + ": no positions");
      obs.frames.push_back(std::move(d));
    }
    if (obs.frames.empty()) throw InputError("frames: no frame given");
  });
  return obs;
}

void writeDisplacementObservations(const std::string& path, const DisplacementObservations& observations) {
  nlohmann::json root = nlohmann::json::object();
  if (observations.dt > 0.0) root["dt"] = observations.dt;
  nlohmann::json frames = nlohmann::json::array();
  for (const DisplacementFrame& f : observations.frames) {
    if (!f.positions.allFinite())
      throw InputError(path + ": frame " + std::to_string(f.frame) + " has non-finite target positions");
    nlohmann::json j = {{"frame", f.frame}, {"weight", f.weight}};
    if (!f.nodes.empty()) j["nodes"] = f.nodes;
    j["positions"] = toJson(f.positions);
    frames.push_back(j);
  }
  root["frames"] = frames;
  writeTextFile(path, root.dump(1) + "\n");
}

}  // namespace softfit
