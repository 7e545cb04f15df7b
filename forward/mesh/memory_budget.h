#pragma once
// Refusing a request that cannot fit in memory before allocating for it: a size read
// from a file or the command line (box cells, lattice nodes, image pixels) is turned into
// an estimate of the bytes it needs and checked against the machine's physical memory.
#include <string>

namespace softfit {

// Bytes a simulation stores per tet (element data, Hessian blocks, solver fill), a
// deliberately low estimate: a mesh refused by it could not run on this machine.
constexpr long double kSimulationBytesPerTet = 2048;

// The machine's physical memory in bytes (a large default when it cannot be read).
long double physicalMemoryBytes();

// InputError "<what>: needs about X GB of memory, more than this machine's Y GB" when
// `bytes` exceeds the physical memory (or is not finite).
void requireMemory(long double bytes, const std::string& what);

}  // namespace softfit
