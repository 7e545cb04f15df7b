#include "observations/displacement_loss.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "forward/errors.h"
#include "forward/mesh/memory_budget.h"

namespace softfit {

namespace {

// A trajectory keeps positions and velocities (3 doubles each) per node and step.
constexpr long double kTrajectoryBytesPerNodeAndStep = 48;

}  // namespace

DisplacementLoss::DisplacementLoss(DisplacementObservations observations, int nodeCount, int stride)
    : observations_(std::move(observations)), nodeCount_(nodeCount), stride_(stride) {
  const std::string& src = observations_.source;
  if (stride_ < 1) throw InputError(src + ": stride must be at least 1");
  if (nodeCount_ < 1) throw InputError(src + ": the body has no nodes");
  if (observations_.frames.empty()) throw InputError(src + ": no observed frame");
  int maxFrame = 0;
  for (const DisplacementFrame& f : observations_.frames) {
    if (f.frame < 0) throw InputError(src + ": negative frame index " + std::to_string(f.frame));
    maxFrame = std::max(maxFrame, f.frame);
  }
  // The fit simulates up to the last observed frame and keeps its states: refuse a frame
  // index (say 2e9) whose trajectory cannot be indexed or held, before allocating.
  const long double steps = (maxFrame + 1.0L) * stride_;
  if (steps > INT_MAX)
    throw InputError(src + ": frame " + std::to_string(maxFrame) + " at stride " + std::to_string(stride_) +
                     " is more simulation steps than can be counted");
  requireMemory(steps * nodeCount_ * kTrajectoryBytesPerNodeAndStep,
                src + ": frame " + std::to_string(maxFrame) + " (" + std::to_string(static_cast<long long>(steps)) +
                    " steps of " + std::to_string(nodeCount_) + " nodes to simulate and keep)");
  entryOfFrame_.assign(maxFrame + 1, -1);
  for (std::size_t e = 0; e < observations_.frames.size(); ++e) {
    const DisplacementFrame& f = observations_.frames[e];
    const std::string where = src + ": frame " + std::to_string(f.frame);
    if (entryOfFrame_[f.frame] >= 0) throw InputError(where + ": observed twice");
    entryOfFrame_[f.frame] = static_cast<int>(e);
    if (!(f.weight >= 0.0) || !std::isfinite(f.weight)) throw InputError(where + ": weight must be >= 0");
    if (!f.positions.allFinite()) throw InputError(where + ": non-finite target position");
    if (f.nodes.empty()) {
      if (f.positions.rows() != nodeCount_)
        throw InputError(where + ": " + std::to_string(f.positions.rows()) +
                         " positions without a node list, but the body has " + std::to_string(nodeCount_) + " nodes");
    } else {
      if (f.positions.rows() != static_cast<Eigen::Index>(f.nodes.size()))
        throw InputError(where + ": " + std::to_string(f.positions.rows()) + " positions for " +
                         std::to_string(f.nodes.size()) + " nodes");
      for (const int n : f.nodes)
        if (n < 0 || n >= nodeCount_)
          throw InputError(where + ": node " + std::to_string(n) + " is out of range (the body has " +
                           std::to_string(nodeCount_) + " nodes)");
    }
  }
}

int DisplacementLoss::entryAtStep(int step) const {
  if (step < 0 || step % stride_ != 0) return -1;
  const int f = step / stride_;
  return f < static_cast<int>(entryOfFrame_.size()) ? entryOfFrame_[f] : -1;
}

int DisplacementLoss::lastStep() const { return (static_cast<int>(entryOfFrame_.size()) - 1) * stride_; }

const DisplacementFrame* DisplacementLoss::frameAtStep(int step, const State& state, Eigen::Index gradientSize) const {
  const int e = entryAtStep(step);
  if (e < 0) return nullptr;
  const DisplacementFrame& f = observations_.frames[e];
  if (state.x.size() != 3 * static_cast<Eigen::Index>(nodeCount_) || gradientSize != state.x.size())
    throw InputError(observations_.source + ": step " + std::to_string(step) + " (frame " + std::to_string(f.frame) +
                     "): the state has " + std::to_string(state.x.size() / 3) + " nodes, the observations expect " +
                     std::to_string(nodeCount_));
  return &f;
}

double DisplacementLoss::evaluate(int step, const State& state, VecX& gx, VecX& /*gv*/) {
  const DisplacementFrame* f = frameAtStep(step, state, gx.size());
  if (!f) return 0.0;
  double sum = 0.0;
  const int count = static_cast<int>(f->positions.rows());
  for (int i = 0; i < count; ++i) {
    const int node = f->nodes.empty() ? i : f->nodes[i];
    const Vec3 r = state.x.segment<3>(3 * node) - f->positions.row(i).transpose();
    sum += r.squaredNorm();
    gx.segment<3>(3 * node) += f->weight * r;
  }
  return 0.5 * f->weight * sum;
}

void DisplacementLoss::appendResiduals(int step, const State& state, std::vector<double>& r) const {
  const DisplacementFrame* f = frameAtStep(step, state, state.x.size());
  if (!f) return;
  const double scale = std::sqrt(f->weight);
  const int count = static_cast<int>(f->positions.rows());
  for (int i = 0; i < count; ++i) {
    const int node = f->nodes.empty() ? i : f->nodes[i];
    for (int c = 0; c < 3; ++c) r.push_back(scale * (state.x[3 * node + c] - f->positions(i, c)));
  }
}

}  // namespace softfit
