#pragma once
// Scenes of the thesis' experiments, rebuilt from its text (scene JSON, as `softfit`
// reads them). Sizes the thesis does not give are chosen and stated in the comments.
#include <nlohmann/json.hpp>

namespace softfit::thesis {

// Fig. 5.4 test case (40 steps; the thesis shows it only as a picture): a cut-cell grid
// bar, box SDF centred (0, 1, 0) with half-extents (0.5, 0.1, 0.1), clamped at x = -0.5,
// swinging down under gravity (0, -10, 0) from rest: warped corotation, E 2000, nu 0.3,
// density 1, Rayleigh alpha1 0.1, alpha2 0.01, Newmark theta 0.6, dt 0.01.
// cell 0.05: 320 cells (all full: the faces lie on nodes).
nlohmann::json barScene(double cell);

// Fig. 5.9 swinging torus (30 steps): torus SDF centred (0, 1, 0), axis z (the ring hangs
// in the xy plane), major radius 0.5, minor 0.2, fixed at the top (nodes with y > 1.62),
// pushed sideways (initial velocity (1, 0, 0.5)) under gravity (0, -10, 0): warped
// corotation, E 2000, nu 0.3, density 10, alpha (0.1, 0.01), Newmark theta 0.6, dt 0.01.
// cell 0.041: 9232 active nodes, 7316 cells (thesis: 9220 / 7180).
nlohmann::json torusScene(double cell);

}  // namespace softfit::thesis
