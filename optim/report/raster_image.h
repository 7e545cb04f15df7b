#pragma once
// An RGB canvas for the report plots, drawn by cairo (Debian libcairo2-dev):
// antialiased lines and rectangles, text in a real font (DejaVu Sans through fontconfig),
// saved as PNG. Coordinates are pixels, y down; integer rectangle corners are inclusive.
#include <cstdint>
#include <memory>
#include <string>

typedef struct _cairo_surface cairo_surface_t;
typedef struct _cairo cairo_t;

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
  // Text whose top-left corner is (x, y), `scale` x 7 pixels high (scale 2: 14 px).
  void text(int x, int y, const std::string& s, Rgb c, int scale = 2);
  // The same rotated 90 degrees counter-clockwise (a vertical axis label): its left edge
  // at x, its text centred on y.
  void verticalText(int x, int y, const std::string& s, Rgb c, int scale = 2);
  // Width in pixels of text(s) at this scale.
  static int textWidth(const std::string& s, int scale = 2);
  // Throws InputError naming `path` on failure.
  void savePng(const std::string& path) const;

 private:
  struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const;
  };
  struct ContextDeleter {
    void operator()(cairo_t* c) const;
  };
  int width_, height_;
  std::unique_ptr<cairo_surface_t, SurfaceDeleter> surface_;
  std::unique_ptr<cairo_t, ContextDeleter> cairo_;
};

}  // namespace softfit
