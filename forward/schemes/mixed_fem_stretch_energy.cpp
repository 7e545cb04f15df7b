#include "forward/schemes/mixed_fem_stretch_energy.h"

#include "forward/errors.h"
#include "forward/materials/stable_neo_hookean_material.h"
#include "forward/math/determinant.h"

namespace softfit {

namespace {

class StableNeoHookeanStretch final : public StretchEnergy {
 public:
  double energy(const Vec6& s, const LameParameters& p) const override {
    return material_.energyDensity(symmetricFromVoigt(s), p);
  }
  Vec6 gradient(const Vec6& s, const LameParameters& p) const override {
    return symmetricExpansion().transpose() * flatten(material_.firstPiola(symmetricFromVoigt(s), p));
  }
  Mat6 hessian(const Vec6& s, const LameParameters& p) const override {
    const Mat96& P = symmetricExpansion();
    return P.transpose() * material_.firstPiolaDerivative(symmetricFromVoigt(s), p) * P;
  }

 private:
  StableNeoHookeanMaterial material_;
};

// mu ||S - I||^2 + volume/2 (det S - 1)^2 (volume = lambda, or 0 for ARAP).
class CorotatedStretch final : public StretchEnergy {
 public:
  explicit CorotatedStretch(bool volumeTerm) : volumeTerm_(volumeTerm) {}
  double energy(const Vec6& s, const LameParameters& p) const override {
    const Mat3 S = symmetricFromVoigt(s);
    const double Jm1 = S.determinant() - 1.0;
    return p.mu * (S - Mat3::Identity()).squaredNorm() + 0.5 * volume(p) * Jm1 * Jm1;
  }
  Vec6 gradient(const Vec6& s, const LameParameters& p) const override {
    const Mat3 S = symmetricFromVoigt(s);
    const Mat3 g = 2.0 * p.mu * (S - Mat3::Identity()) + volume(p) * (S.determinant() - 1.0) * cofactor(S);
    return symmetricExpansion().transpose() * flatten(g);
  }
  Mat6 hessian(const Vec6& s, const LameParameters& p) const override {
    const Mat3 S = symmetricFromVoigt(s);
    const Vec9 c = flatten(cofactor(S));
    Mat9 H = volume(p) * (c * c.transpose() + (S.determinant() - 1.0) * determinantHessian(S));
    H.diagonal().array() += 2.0 * p.mu;
    const Mat96& P = symmetricExpansion();
    return P.transpose() * H * P;
  }

 private:
  double volume(const LameParameters& p) const { return volumeTerm_ ? p.lambda : 0.0; }
  bool volumeTerm_;
};

}  // namespace

std::unique_ptr<StretchEnergy> makeStretchEnergy(MaterialModel model, const std::string& field) {
  switch (model) {
    case MaterialModel::StableNeoHookean: return std::make_unique<StableNeoHookeanStretch>();
    case MaterialModel::Corotated: return std::make_unique<CorotatedStretch>(true);
    case MaterialModel::ARAP: return std::make_unique<CorotatedStretch>(false);
    default:
      throw InputError(field + ": mixed FEM supports stable_neo_hookean, corotated and arap, not " +
                       materialModelName(model));
  }
}

}  // namespace softfit
