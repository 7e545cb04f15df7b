#pragma once
// How projected Newton makes the elastic element Hessians positive semi-definite: the
// eigenvalue filter (forward/math/psd_projection.h) and which eigensystem it filters.
// Shared by every Hessian of the incremental potential (PhysicalModel::addPotentialHessian,
// forward/integrators/step_problem.h).
#include <string>

#include "forward/math/psd_projection.h"

namespace softfit {

enum class ElementEigensystem {
  Numeric,                   // 12x12 element Hessian, SelfAdjointEigenSolver (ElasticEnergy)
  AnalyticStableNeoHookean,  // closed-form 9x9 dP/dF eigensystem per quadrature point
};
ElementEigensystem parseElementEigensystem(const std::string& name, const std::string& field);
std::string elementEigensystemName(ElementEigensystem eigensystem);

struct HessianProjection {
  EigenvalueFilter filter = EigenvalueFilter::Clamp;
  double epsilon = 0.0;  // Clamp: l -> max(l, epsilon)
  ElementEigensystem eigensystem = ElementEigensystem::Numeric;
};

}  // namespace softfit
