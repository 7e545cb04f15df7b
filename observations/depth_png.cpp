#include "observations/depth_png.h"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"
#include "observations/camera.h"

namespace softfit {

namespace {

// libpng reports errors through longjmp; these callbacks and the decode / encode
// functions below only touch plain data between setjmp and the jump.
struct PngErrorState {
  char message[256] = {0};
};

void pngError(png_structp png, png_const_charp msg) {
  auto* state = static_cast<PngErrorState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof state->message, "%s", msg ? msg : "unknown libpng error");
  png_longjmp(png, 1);
}

void pngWarning(png_structp, png_const_charp) {}

struct MemoryReader {
  const unsigned char* data;
  std::size_t size;
  std::size_t pos;
};

void readFromMemory(png_structp png, png_bytep out, png_size_t length) {
  auto* r = static_cast<MemoryReader*>(png_get_io_ptr(png));
  if (r->pos + length > r->size) png_error(png, "file is truncated");
  std::memcpy(out, r->data + r->pos, length);
  r->pos += length;
}

void writeToMemory(png_structp png, png_bytep in, png_size_t length) {
  auto* out = static_cast<std::vector<unsigned char>*>(png_get_io_ptr(png));
  out->insert(out->end(), in, in + length);
}

void flushNothing(png_structp) {}

// Returns false with state.message set on failure. `pixels` receives big-endian 16-bit
// samples, `rowBytes` per row.
bool decode(const std::vector<unsigned char>& bytes, PngErrorState& state, std::vector<unsigned char>& pixels,
            std::vector<png_bytep>& rows, png_uint_32& width, png_uint_32& height, int& bitDepth, int& colorType) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, pngError, pngWarning);
  if (!png) {
    std::snprintf(state.message, sizeof state.message, "cannot create the PNG reader");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    std::snprintf(state.message, sizeof state.message, "cannot create the PNG reader");
    return false;
  }
  MemoryReader reader{bytes.data(), bytes.size(), 0};
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &reader, readFromMemory);
  png_read_info(png, info);
  int interlace = 0;
  png_get_IHDR(png, info, &width, &height, &bitDepth, &colorType, &interlace, nullptr, nullptr);
  if (static_cast<long long>(width) * height > kMaxCameraPixels) {  // refused before allocating the pixels
    std::snprintf(state.message, sizeof state.message, "%u x %u pixels is more than %lld", width, height,
                  kMaxCameraPixels);
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  if (bitDepth != 16 || colorType != PNG_COLOR_TYPE_GRAY) {
    png_destroy_read_struct(&png, &info, nullptr);
    return true;  // the caller reports the format
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  const std::size_t rowBytes = png_get_rowbytes(png, info);
  pixels.assign(rowBytes * height, 0);
  rows.resize(height);
  for (png_uint_32 r = 0; r < height; ++r) rows[r] = pixels.data() + r * rowBytes;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

bool encode(const DepthImage16& image, PngErrorState& state, std::vector<unsigned char>& out,
            std::vector<unsigned char>& pixels, std::vector<png_bytep>& rows) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, pngError, pngWarning);
  if (!png) {
    std::snprintf(state.message, sizeof state.message, "cannot create the PNG writer");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(state.message, sizeof state.message, "cannot create the PNG writer");
    return false;
  }
  const std::size_t rowBytes = 2 * static_cast<std::size_t>(image.width);
  pixels.assign(rowBytes * image.height, 0);
  rows.resize(image.height);
  for (int v = 0; v < image.height; ++v) {
    rows[v] = pixels.data() + v * rowBytes;
    for (int u = 0; u < image.width; ++u) {
      const std::uint16_t value = image.at(u, v);
      rows[v][2 * u] = static_cast<unsigned char>(value >> 8);  // PNG samples are big-endian
      rows[v][2 * u + 1] = static_cast<unsigned char>(value & 0xffu);
    }
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, &out, writeToMemory, flushNothing);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 16,
               PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

DepthImage16 readDepthPng(const std::string& path) {
  const std::string text = readInputFile(path, "depth PNG");
  const std::vector<unsigned char> bytes(text.begin(), text.end());
  if (bytes.size() < 8 || png_sig_cmp(bytes.data(), 0, 8) != 0)
    throw InputError(path + ": not a PNG file (bad signature)");
  PngErrorState state;
  std::vector<unsigned char> pixels;
  std::vector<png_bytep> rows;
  png_uint_32 width = 0, height = 0;
  int bitDepth = 0, colorType = 0;
  if (!decode(bytes, state, pixels, rows, width, height, bitDepth, colorType))
    throw InputError(path + ": invalid PNG: " + state.message);
  if (bitDepth != 16 || colorType != PNG_COLOR_TYPE_GRAY)
    throw InputError(path + ": depth PNG must be 16-bit grayscale (found " + std::to_string(bitDepth) +
                     "-bit, colour type " + std::to_string(colorType) + ")");
  DepthImage16 image;
  image.width = static_cast<int>(width);
  image.height = static_cast<int>(height);
  image.values.resize(static_cast<std::size_t>(width) * height);
  for (png_uint_32 v = 0; v < height; ++v)
    for (png_uint_32 u = 0; u < width; ++u)
      image.values[static_cast<std::size_t>(v) * width + u] =
          static_cast<std::uint16_t>((rows[v][2 * u] << 8) | rows[v][2 * u + 1]);
  return image;
}

void writeDepthPng(const std::string& path, const DepthImage16& image) {
  if (image.width < 1 || image.height < 1 ||
      image.values.size() != static_cast<std::size_t>(image.width) * image.height)
    throw InputError(path + ": invalid depth image size " + std::to_string(image.width) + "x" +
                     std::to_string(image.height) + " with " + std::to_string(image.values.size()) + " values");
  PngErrorState state;
  std::vector<unsigned char> out, pixels;
  std::vector<png_bytep> rows;
  if (!encode(image, state, out, pixels, rows)) throw InputError(path + ": cannot encode PNG: " + state.message);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError(path + ": cannot open file for writing");
  file.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) throw InputError(path + ": error while writing file");
}

}  // namespace softfit
