#include "apps/distribute/result_bytes.h"

#include <cstring>
#include <stdexcept>

namespace softfit::apps {

ByteWriter& ByteWriter::raw(const void* data, size_t size) {
  bytes_.append(static_cast<const char*>(data), size);
  return *this;
}

ByteWriter& ByteWriter::add(const std::string& s) {
  add(static_cast<std::int64_t>(s.size()));
  return raw(s.data(), s.size());
}

ByteWriter& ByteWriter::add(const VecX& v) {
  add(static_cast<std::int64_t>(v.size()));
  return raw(v.data(), sizeof(double) * static_cast<size_t>(v.size()));
}

void ByteReader::raw(void* data, size_t size) {
  if (size > bytes_.size() - position_) throw std::runtime_error("task result: truncated bytes");
  std::memcpy(data, bytes_.data() + position_, size);
  position_ += size;
}

double ByteReader::real() {
  double v;
  raw(&v, sizeof v);
  return v;
}

std::int64_t ByteReader::integer() {
  std::int64_t v;
  raw(&v, sizeof v);
  return v;
}

std::string ByteReader::text() {
  const std::int64_t n = integer();
  if (n < 0 || static_cast<size_t>(n) > bytes_.size() - position_) throw std::runtime_error("task result: bad string");
  std::string s(bytes_.data() + position_, static_cast<size_t>(n));
  position_ += static_cast<size_t>(n);
  return s;
}

VecX ByteReader::vector() {
  const std::int64_t n = integer();
  if (n < 0 || static_cast<size_t>(n) > (bytes_.size() - position_) / sizeof(double))
    throw std::runtime_error("task result: bad vector");
  VecX v(n);
  raw(v.data(), sizeof(double) * static_cast<size_t>(n));
  return v;
}

}  // namespace softfit::apps
