#pragma once
// The SDF volume file format: a small JSON header next to a raw sample file.
//
//   bunny_sdf.json:
//   {
//     "format": "softfit-sdf-volume",
//     "version": 1,
//     "dims": [nx, ny, nz],          // samples per axis, each >= 2
//     "origin": [x, y, z],           // position of sample (0, 0, 0)
//     "spacing": h | [hx, hy, hz],   // sample distance, > 0
//     "data": "bunny_sdf.f64",       // raw samples, path relative to the header
//     "type": "float64"              // or "float32"; little-endian IEEE 754
//   }
//
// The raw file holds exactly nx*ny*nz values, x fastest (index i + nx (j + ny k)), no
// header, negative inside. NumPy: `phi.astype('<f8').tofile(path)` for phi indexed
// [k, j, i] (C order with x last).
#include <string>

#include "grid/sdf_volume.h"

namespace softfit {

// Throws InputError naming the header (or raw) file for a missing or malformed header,
// unknown keys, a raw file whose size does not match dims, or non-finite values.
SdfVolume readSdfVolume(const std::string& headerPath);

// Writes `<headerPath>` and the float64 raw file next to it (same stem, ".f64").
// InputError naming the path when it cannot be written.
void writeSdfVolume(const std::string& headerPath, const SdfVolume& volume);

}  // namespace softfit
