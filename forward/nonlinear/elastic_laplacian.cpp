#include "forward/nonlinear/elastic_laplacian.h"

#include "forward/errors.h"

namespace softfit {

double laplacianStiffness(MaterialModel model, const LameParameters& p) {
  return model == MaterialModel::ARAP ? 2.0 * p.mu : 2.0 * p.mu + p.lambda;
}

double projectiveDynamicsStiffness(MaterialModel model, const LameParameters& p) {
  if (model == MaterialModel::ARAP) return 2.0 * p.mu;
  if (model == MaterialModel::Corotated) return 2.0 * p.mu + 3.0 * p.lambda;
  throw InputError("solver 'pd' (projective dynamics) needs material 'arap' or 'corotated' (got '" +
                   materialModelName(model) + "')");
}

SparseMatrix elasticLaplacian(const PhysicalModel& model, double scale, LaplacianWeights weights) {
  SparseMatrix L = model.pattern().zeroMatrix();
  BlockAssembler assembler(model.pattern(), L);
  const ElasticEnergy& elastic = model.elastic();
  const auto& elements = elastic.elements();
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    const LameParameters& p = elastic.parameters()[e];
    const double k = scale * (weights == LaplacianWeights::Liu ? laplacianStiffness(elastic.model(), p)
                                                                : projectiveDynamicsStiffness(elastic.model(), p));
    for (const auto& q : el.quadrature)
      for (int b = 0; b < el.nodeCount(); ++b)
        for (int a = 0; a < el.nodeCount(); ++a)
          assembler.addBlock(el.nodes[a], el.nodes[b],
                             (q.weight * k * q.dNdX.row(a).dot(q.dNdX.row(b))) * Mat3::Identity());
  }
  return L;
}

}  // namespace softfit
