#include "optim/report/raster_image.h"

#include <png.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "forward/errors.h"

namespace softfit {

namespace {

// 5x7 glyphs, one string of 7 rows per character ('#' = ink).
const std::map<char, const char*>& font() {
  static const std::map<char, const char*> glyphs = {
      {'0', " ### #   ##  ### # ###  ##   # ### "},
      {'1', "  #   ##    #    #    #    #   ### "},
      {'2', " ### #   #    #   #   #   #   #####"},
      {'3', "#####   #   #     #     ##   # ### "},
      {'4', "   #   ##  # # #  # #####   #    # "},
      {'5', "######    ####     #    ##   # ### "},
      {'6', "  ##  #   #    #### #   ##   # ### "},
      {'7', "#####    #   #   #   #    #    #   "},
      {'8', " ### #   ##   # ### #   ##   # ### "},
      {'9', " ### #   ##   # ####    #   #  ##  "},
      {'.', "                          ##   ##  "},
      {'-', "                ###                "},
      {'+', "       #    #  #####  #    #       "},
      {'|', "  #    #    #    #    #    #    #  "},
      {'(', "   #   #   #    #    #     #     # "},
      {')', " #     #     #    #    #   #   #   "},
      {'a', "           ###     # #####   # ####"},
      {'b', "#    #    # ## ##  ##   ##   ##### "},
      {'c', "           ### #    #    #   # ### "},
      {'d', "    #    # ## ##  ###   ##   # ####"},
      {'e', "           ### #   #######     ### "},
      {'f', "  ##  #  # #   ###   #    #    #   "},
      {'g', "      #####   # ####    ##   # ### "},
      {'h', "#    #    # ## ##  ##   ##   ##   #"},
      {'i', "  #        ##    #    #    #   ### "},
      {'l', " ##    #    #    #    #    #   ### "},
      {'m', "          ## # # # ## # ##   ##   #"},
      {'n', "          # ## ##  ##   ##   ##   #"},
      {'o', "           ### #   ##   ##   # ### "},
      {'p', "          #### #   ##### #    #    "},
      {'r', "          # ## ##  ##    #    #    "},
      {'s', "           #####     ###     ##### "},
      {'t', " #    #   ###   #    #    #  #  ## "},
      {'u', "          #   ##   ##   ##  ## ## #"},
      {'x', "          #   # # #   #   # # #   #"},
      {'v', "          #   ##   ##   # # #   #  "},
      {':', "      ##   ##        ##   ##       "},
      {'k', "#    #    #  # # #  ##   # #  #  # "},
      {'y', "          #   ##   # ####    # ### "},
      {'w', "          #   ##   ## # ## # # # # "},
      {'=', "          #####     #####          "},
      {'/', "    #   #    #   #   #    #   #    "},
      {' ', "                                   "},
  };
  return glyphs;
}

}  // namespace

RasterImage::RasterImage(int width, int height, Rgb background)
    : width_(width), height_(height), pixels_(static_cast<size_t>(width) * height * 3) {
  fill(0, 0, width - 1, height - 1, background);
}

void RasterImage::setPixel(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  std::uint8_t* p = &pixels_[3 * (static_cast<size_t>(y) * width_ + x)];
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
}

Rgb RasterImage::pixel(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return {0, 0, 0};
  const std::uint8_t* p = &pixels_[3 * (static_cast<size_t>(y) * width_ + x)];
  return {p[0], p[1], p[2]};
}

void RasterImage::line(double x0, double y0, double x1, double y1, Rgb c, int thickness) {
  const int steps = static_cast<int>(std::max(std::abs(x1 - x0), std::abs(y1 - y0))) + 1;
  for (int s = 0; s <= steps; ++s) {
    const double t = static_cast<double>(s) / steps;
    const int x = static_cast<int>(std::lround(x0 + t * (x1 - x0))), y = static_cast<int>(std::lround(y0 + t * (y1 - y0)));
    for (int dx = 0; dx < thickness; ++dx)
      for (int dy = 0; dy < thickness; ++dy) setPixel(x + dx - thickness / 2, y + dy - thickness / 2, c);
  }
}

void RasterImage::rectangle(int x0, int y0, int x1, int y1, Rgb c) {
  line(x0, y0, x1, y0, c);
  line(x1, y0, x1, y1, c);
  line(x1, y1, x0, y1, c);
  line(x0, y1, x0, y0, c);
}

void RasterImage::fill(int x0, int y0, int x1, int y1, Rgb c) {
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) setPixel(x, y, c);
}

void RasterImage::text(int x, int y, const std::string& s, Rgb c, int scale) {
  for (size_t k = 0; k < s.size(); ++k) {
    const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
    const auto it = font().find(ch);
    if (it == font().end()) continue;
    const char* glyph = it->second;
    for (int row = 0; row < 7; ++row)
      for (int col = 0; col < 5; ++col)
        if (glyph[row * 5 + col] == '#')
          fill(x + (6 * static_cast<int>(k) + col) * scale, y + row * scale,
               x + (6 * static_cast<int>(k) + col) * scale + scale - 1, y + row * scale + scale - 1, c);
  }
}

void RasterImage::savePng(const std::string& path) const {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw InputError(path + ": cannot open for writing");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    throw InputError(path + ": PNG encoding failed");
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width_, height_, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height_; ++y)
    png_write_row(png, const_cast<png_bytep>(&pixels_[3 * static_cast<size_t>(y) * width_]));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fclose(file) != 0) throw InputError(path + ": write failed");
}

}  // namespace softfit
