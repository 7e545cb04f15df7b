#include "forward/energies/hessian_projection.h"

#include "forward/errors.h"

namespace softfit {

ElementEigensystem parseElementEigensystem(const std::string& name, const std::string& field) {
  if (name == "numeric") return ElementEigensystem::Numeric;
  if (name == "analytic") return ElementEigensystem::AnalyticStableNeoHookean;
  throw InputError(field + " = '" + name + "': unknown element eigensystem (valid: numeric, analytic)");
}

std::string elementEigensystemName(ElementEigensystem eigensystem) {
  return eigensystem == ElementEigensystem::Numeric ? "numeric" : "analytic";
}

}  // namespace softfit
