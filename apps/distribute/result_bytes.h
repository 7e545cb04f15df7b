#pragma once
// Task results as bytes, for WorkDistribution: numbers are copied bit for bit (no text
// round trip), so a result gathered from another rank is the same double.
#include <cstdint>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit::apps {

class ByteWriter {
 public:
  ByteWriter& add(double v) { return raw(&v, sizeof v); }
  ByteWriter& add(std::int64_t v) { return raw(&v, sizeof v); }
  ByteWriter& add(int v) { return add(static_cast<std::int64_t>(v)); }
  ByteWriter& add(bool v) { return add(static_cast<std::int64_t>(v)); }
  ByteWriter& add(const std::string& s);
  ByteWriter& add(const VecX& v);
  const std::string& bytes() const { return bytes_; }

 private:
  ByteWriter& raw(const void* data, size_t size);
  std::string bytes_;
};

// Reads what a ByteWriter wrote, in the same order; std::runtime_error past the end.
class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  double real();
  std::int64_t integer();
  bool boolean() { return integer() != 0; }
  std::string text();
  VecX vector();
  bool atEnd() const { return position_ == bytes_.size(); }

 private:
  void raw(void* data, size_t size);
  const std::string& bytes_;
  size_t position_ = 0;
};

}  // namespace softfit::apps
