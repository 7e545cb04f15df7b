#pragma once
// A small RGB canvas with lines, rectangles and a 5x7 bitmap font, saved as PNG (libpng).
#include <cstdint>
#include <string>
#include <vector>

namespace softfit {

struct Rgb {
  std::uint8_t r, g, b;
};

class RasterImage {
 public:
  RasterImage(int width, int height, Rgb background);
  int width() const { return width_; }
  int height() const { return height_; }
  void setPixel(int x, int y, Rgb c);
  Rgb pixel(int x, int y) const;  // black outside the image
  void line(double x0, double y0, double x1, double y1, Rgb c, int thickness = 1);
  void rectangle(int x0, int y0, int x1, int y1, Rgb c);  // outline
  void fill(int x0, int y0, int x1, int y1, Rgb c);
  // Text in a 5x7 font (digits, letters, . - + | ( ) and space), scaled by `scale`.
  void text(int x, int y, const std::string& s, Rgb c, int scale = 2);
  static int textWidth(const std::string& s, int scale = 2) { return static_cast<int>(s.size()) * 6 * scale; }
  // Throws InputError naming `path` on failure.
  void savePng(const std::string& path) const;

 private:
  int width_, height_;
  std::vector<std::uint8_t> pixels_;  // RGB rows
};

}  // namespace softfit
