#pragma once
// Scenes of the thesis' experiments, rebuilt from its text (scene JSON, as `softfit`
// reads them). Sizes the thesis does not give are chosen and stated in the comments.
#include <nlohmann/json.hpp>
#include <string>

#include "forward/types.h"

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

namespace softfit::thesis {

// Ground-plane normal from the thesis' angles: (sin t cos p, sin t sin p, cos t).
Vec3 planeNormal(double theta, double phi);

// Fig. 5.5 collision test case (30 steps; the thesis shows it only as a picture): the
// Fig. 5.4 bar (barScene: box 1 x 0.2 x 0.2, material, damping, Newmark theta 0.6,
// dt 0.01) unclamped, centred (0, 0.3, 0), dropped at 1 m/s under gravity onto the ground
// plane with normal planeNormal(theta, phi), offset 0 (through the origin), sharpness 100
// (the thesis' alpha) and stiffness 1e4 N/m^3 per unit area (chosen for the bar's density
// 1: the softmin's push k exp(-alpha d) / alpha equals its weight, 2 Pa, ~4 cm above the
// plane; softfit's default 1e7 would hold it ~11 cm off). With the truth
// (kCollisionTheta, kCollisionPhi), a plane tilted 4.5 deg about x and 4.1 deg about z,
// the bar reaches the plane after ~12 steps, its -x end (the plane's high side) first,
// and bounces off down the slope (+x, -z): both angles move every node.
nlohmann::json collisionScene(double cell, double theta, double phi);
constexpr double kCollisionTheta = 1.65;  // pi/2 + 4.5 deg
constexpr double kCollisionPhi = 1.50;    // pi/2 - 4.1 deg

// Fig. 5.11 bunny (65 steps): the thesis' bunny_res3.obj (from --surfaces=DIR, not
// closed: winding-number SDF) scaled by 4 (0.62 x 0.61 x 0.48 m), its lowest point 0.1
// above the ground plane y = 0, dropped at 2 m/s: warped corotation, E 5e4, nu 0.3,
// density 100, alpha (0.1, 0.001), ground k 1e4, sharpness 100 (the cuboid values of
// Table B.6; the thesis gives none for the bunny), Newmark theta 0.6, dt 0.01. Plane
// normal from (theta, phi), offset d (dist = n.x + d). cell 0.0298: 2559 cells / 3494 active
// nodes (thesis 2560 / 3495). Multigrid PCG (the default; it needs the grid's
// volume-fraction floor: without it the multigrid was not positive definite here).
nlohmann::json bunnyScene(const std::string& surfaceDir, double cell, double theta, double phi, double offset);

// Fig. 5.12 dragon (first 30 of 300 steps): the thesis' dragon_res4.obj (non-manifold:
// winding-number SDF) scaled by 5 (1.0 x 0.72 x 0.45 m), the head (x < -0.35,
// y > 0.625) fixed, the body swinging down under gravity from rest: warped corotation,
// E 5000, nu 0.3, density 50, alpha (0.1, 0.01), Newmark theta 0.6, dt 0.01.
// cell 0.0205: 9971 cells / 13584 active nodes (thesis 9968 / 13575).
nlohmann::json dragonScene(const std::string& surfaceDir, double cell);

}  // namespace softfit::thesis
