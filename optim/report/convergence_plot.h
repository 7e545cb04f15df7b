#pragma once
// Convergence plot of a fit as a PNG: log10 of the cost (blue) and of the gradient
// infinity norm (red) against the iteration, with labelled axes.
#include <string>
#include <vector>

#include "optim/optimizer.h"

namespace softfit {

// Throws InputError naming `path` when the file cannot be written.
void writeConvergencePlot(const std::string& path, const std::vector<IterationRecord>& history);

}  // namespace softfit
