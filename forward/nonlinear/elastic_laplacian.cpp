#include "forward/nonlinear/elastic_laplacian.h"

namespace softfit {

double laplacianStiffness(MaterialModel model, const LameParameters& p) {
  return model == MaterialModel::ARAP ? 2.0 * p.mu : 2.0 * p.mu + p.lambda;
}

SparseMatrix elasticLaplacian(const PhysicalModel& model, double scale) {
  SparseMatrix L = model.pattern().zeroMatrix();
  BlockAssembler assembler(model.pattern(), L);
  const ElasticEnergy& elastic = model.elastic();
  const auto& elements = elastic.elements();
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    const double k = scale * laplacianStiffness(elastic.model(), elastic.parameters()[e]);
    for (const auto& q : el.quadrature)
      for (int b = 0; b < el.nodeCount(); ++b)
        for (int a = 0; a < el.nodeCount(); ++a)
          assembler.addBlock(el.nodes[a], el.nodes[b],
                             (q.weight * k * q.dNdX.row(a).dot(q.dNdX.row(b))) * Mat3::Identity());
  }
  return L;
}

}  // namespace softfit
