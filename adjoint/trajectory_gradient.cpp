#include "adjoint/trajectory_gradient.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include "forward/errors.h"
#include "forward/registry/integrator_registry.h"

namespace softfit {

CheckpointStrategy parseCheckpointStrategy(const std::string& name, const std::string& field) {
  if (name == "all") return CheckpointStrategy::StoreAll;
  if (name == "periodic") return CheckpointStrategy::Periodic;
  if (name == "binomial" || name == "revolve") return CheckpointStrategy::Binomial;
  throw InputError(field + " = \"" + name + "\": unknown checkpointing (valid: all, periodic, binomial)");
}

namespace {

// Forward stepping with the bookkeeping the reverse pass needs.
class ForwardRunner {
 public:
  ForwardRunner(PhysicalModel& model, const IntegratorSettings& settings, double dt,
                std::function<void()> onStep = {})
      : model_(model), integrator_(makeIntegrator(settings)), dt_(dt), onStep_(std::move(onStep)) {}

  State step(const State& current, const State* previous, int index) {
    ++forwardSteps;
    State next;
    try {
      next = integrator_->step(model_, current, previous, dt_);
    } catch (const SolveError& e) {
      std::ostringstream msg;
      msg << "forward step " << index << " failed, no gradient computed: " << e.what();
      throw SolveError(msg.str());
    }
    if (onStep_) onStep_();
    return next;
  }
  TimeIntegrator& integrator() { return *integrator_; }
  int forwardSteps = 0;

 private:
  PhysicalModel& model_;
  std::unique_ptr<TimeIntegrator> integrator_;
  double dt_;
  std::function<void()> onStep_;
};

// Adjoint vectors of the frames still open in the reverse sweep.
struct AdjointFrame {
  VecX x, v;
};

class ReverseSweep {
 public:
  ReverseSweep(PhysicalModel& model, TimeIntegrator& integrator, TrajectoryLoss& loss, double dt, int steps)
      : model_(model), integrator_(integrator), loss_(loss), dt_(dt), steps_(steps), gradient_(model.elastic().elements().size()) {}

  // Adds l_k's gradient at frame k to its adjoint.
  void seed(int k, const State& s) {
    AdjointFrame& f = frame(k);
    loss += loss_.evaluate(k, s, f.x, f.v);
  }

  // Reverse of step k (states k-1 -> k), given states k, k-1 and k-2 (or null).
  void reverseStep(int k, const State& next, const State& current, const State* previous) {
    StepAdjoint adj;
    AdjointFrame& out = frame(k);
    adj.nextX = out.x;
    adj.nextV = out.v;
    AdjointFrame& cur = frame(k - 1);
    adj.currentX = std::move(cur.x);
    adj.currentV = std::move(cur.v);
    const int n = model_.dofCount();
    adj.previousX = VecX::Zero(n);
    adj.previousV = VecX::Zero(n);
    adj.parameters = &gradient_;
    adj.solveGuess = std::move(solveGuess_);
    integrator_.adjointStep(model_, next, current, previous, dt_, adj);
    solveGuess_ = std::move(adj.solveGuess);
    cur.x = std::move(adj.currentX);
    cur.v = std::move(adj.currentV);
    if (previous) {
      AdjointFrame& prev = frame(k - 2);
      prev.x += adj.previousX;
      prev.v += adj.previousV;
    }
    frames_.erase(k);
  }

  AdjointFrame& frame(int k) {
    auto it = frames_.find(k);
    if (it == frames_.end()) {
      const int n = model_.dofCount();
      it = frames_.emplace(k, AdjointFrame{VecX::Zero(n), VecX::Zero(n)}).first;
    }
    return it->second;
  }

  double loss = 0.0;
  ModelGradient& gradient() { return gradient_; }

 private:
  PhysicalModel& model_;
  TimeIntegrator& integrator_;
  TrajectoryLoss& loss_;
  double dt_;
  int steps_;
  ModelGradient gradient_;
  std::map<int, AdjointFrame> frames_;
  VecX solveGuess_;  // the last reverse step's linear solve (StepAdjoint::solveGuess)
};

// Forward states held by the checkpointing, by frame index, with the peak count.
class StateStore {
 public:
  void put(int k, const State& s) {
    states_[k] = s;
    peak_ = std::max(peak_, static_cast<int>(states_.size()));
  }
  const State& get(int k) const { return states_.at(k); }
  const State* find(int k) const {
    auto it = states_.find(k);
    return it == states_.end() ? nullptr : &it->second;
  }
  bool has(int k) const { return states_.count(k) != 0; }
  void drop(int k) { states_.erase(k); }
  int peak() const { return peak_; }

 private:
  std::map<int, State> states_;
  int peak_ = 0;
};

class Reverser {
 public:
  Reverser(StateStore& store, ForwardRunner& runner, ReverseSweep& sweep) : store_(store), runner_(runner), sweep_(sweep) {}

  // Reverses steps b, b-1, ..., a+1. Needs state a (and a-1 for a > 0) in the store;
  // keeps at most `slots` further states stored at once (recursive bisection, revolve
  // style), recomputing what it dropped.
  void reverse(int a, int b, int slots) {
    if (b <= a) return;
    if (b - a <= slots) {
      for (int k = a + 1; k <= b; ++k)
        if (!store_.has(k)) store_.put(k, runner_.step(store_.get(k - 1), store_.find(k - 2), k));
      for (int k = b; k > a; --k) {
        sweep_.seed(k, store_.get(k));
        sweep_.reverseStep(k, store_.get(k), store_.get(k - 1), store_.find(k - 2));
        store_.drop(k);
      }
      return;
    }
    if (slots < 3) {
      // No room to split: recompute from a for every step, last first (quadratic).
      for (int k = b; k > a; --k) {
        State prev2, prev = store_.get(a);
        bool havePrev2 = store_.has(a - 1);
        if (havePrev2) prev2 = store_.get(a - 1);
        for (int j = a + 1; j < k; ++j) {
          State next = runner_.step(prev, havePrev2 ? &prev2 : nullptr, j);
          prev2 = std::move(prev);
          havePrev2 = true;
          prev = std::move(next);
        }
        const State sk = runner_.step(prev, havePrev2 ? &prev2 : nullptr, k);
        sweep_.seed(k, sk);
        sweep_.reverseStep(k, sk, prev, havePrev2 ? &prev2 : nullptr);
      }
      return;
    }
    // Advance to the midpoint keeping only the pair (mid-1, mid), reverse the right
    // half with two slots fewer, then the left half (which recomputes up to mid).
    const int mid = a + (b - a) / 2;
    State prev2, prev = store_.get(a);
    bool havePrev2 = store_.has(a - 1);
    if (havePrev2) prev2 = store_.get(a - 1);
    for (int j = a + 1; j <= mid; ++j) {
      State next = runner_.step(prev, havePrev2 ? &prev2 : nullptr, j);
      prev2 = std::move(prev);
      havePrev2 = true;
      prev = std::move(next);
    }
    const bool ownsBefore = !store_.has(mid - 1);
    if (ownsBefore) store_.put(mid - 1, prev2);
    store_.put(mid, prev);
    reverse(mid, b, slots - 2);
    store_.drop(mid);
    if (ownsBefore) store_.drop(mid - 1);
    reverse(a, mid, slots);
  }

 private:
  StateStore& store_;
  ForwardRunner& runner_;
  ReverseSweep& sweep_;
};

}  // namespace

TrajectoryGradient trajectoryGradient(const TrajectorySetup& setup, TrajectoryLoss& loss,
                                      const CheckpointOptions& checkpoints) {
  setup.validate();
  PhysicalModel& model = *setup.model;
  const double dt = setup.dt;
  const State& initial = setup.initial;
  const int steps = setup.steps;
  ForwardRunner runner(model, setup.integrator, dt, checkpoints.onForwardStep);
  runner.integrator().reset();
  ReverseSweep sweep(model, runner.integrator(), loss, dt, steps);
  StateStore store;
  Reverser reverser(store, runner, sweep);
  store.put(0, initial);
  switch (checkpoints.strategy) {
    case CheckpointStrategy::StoreAll:
      reverser.reverse(0, steps, steps);
      break;
    case CheckpointStrategy::Periodic: {
      const int period = std::max(1, checkpoints.period);
      // Forward pass keeping the pair (k-1, k) at every multiple of the period.
      State prev2, prev = initial;
      bool havePrev2 = false;
      for (int k = 1; k <= steps; ++k) {
        State next = runner.step(prev, havePrev2 ? &prev2 : nullptr, k);
        prev2 = std::move(prev);
        havePrev2 = true;
        prev = std::move(next);
        if (k % period == 0 && k < steps) {
          store.put(k - 1, prev2);
          store.put(k, prev);
        }
      }
      const int last = ((steps - 1) / period) * period;
      for (int a = last; a >= 0; a -= period) {
        reverser.reverse(a, std::min(a + period, steps), period);
        if (a > 0) {
          store.drop(a);
          if (a - 1 > 0 && (a - 1) % period != 0) store.drop(a - 1);
        }
      }
      break;
    }
    case CheckpointStrategy::Binomial: {
      if (checkpoints.maxStates < 2) throw InputError("checkpointing max_states must be at least 2");
      reverser.reverse(0, steps, checkpoints.maxStates - 1);
      break;
    }
  }
  sweep.seed(0, initial);
  TrajectoryGradient result;
  result.loss = sweep.loss;
  result.parameters = sweep.gradient();
  result.initialX = sweep.frame(0).x;
  result.initialV = sweep.frame(0).v;
  result.checkpoints.forwardSteps = runner.forwardSteps;
  result.checkpoints.peakStoredStates = store.peak();
  result.checkpoints.peakStateBytes =
      static_cast<std::size_t>(store.peak()) * 2 * sizeof(double) * static_cast<std::size_t>(model.dofCount());
  return result;
}

namespace {

// The forward pass alone: onFrame(k, state) for the initial state (k = 0) and every step.
void forEachForwardFrame(const TrajectorySetup& setup, const std::function<void(int, const State&)>& onFrame) {
  setup.validate();
  ForwardRunner runner(*setup.model, setup.integrator, setup.dt);
  runner.integrator().reset();
  onFrame(0, setup.initial);
  State prev2, prev = setup.initial;
  bool havePrev2 = false;
  for (int k = 1; k <= setup.steps; ++k) {
    State next = runner.step(prev, havePrev2 ? &prev2 : nullptr, k);
    onFrame(k, next);
    prev2 = std::move(prev);
    havePrev2 = true;
    prev = std::move(next);
  }
}

}  // namespace

double trajectoryLoss(const TrajectorySetup& setup, TrajectoryLoss& loss) {
  const int n = setup.model ? setup.model->dofCount() : 0;
  VecX gx = VecX::Zero(n), gv = VecX::Zero(n);
  double total = 0.0;
  forEachForwardFrame(setup, [&](int k, const State& state) { total += loss.evaluate(k, state, gx, gv); });
  return total;
}

VecX trajectoryResiduals(const TrajectorySetup& setup, const TrajectoryLoss& loss) {
  if (!loss.hasResiduals()) throw InputError("trajectoryResiduals: the loss is not a sum of squared residuals");
  std::vector<double> r;
  forEachForwardFrame(setup, [&](int k, const State& state) { loss.appendResiduals(k, state, r); });
  return Eigen::Map<const VecX>(r.data(), static_cast<Eigen::Index>(r.size()));
}

}  // namespace softfit
