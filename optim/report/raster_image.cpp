#include "optim/report/raster_image.h"

#include <cairo.h>

#include <cmath>

#include "forward/errors.h"

namespace softfit {

namespace {

constexpr const char* kFont = "DejaVu Sans";

void setColour(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

// The font size whose capital letters are about as tall as the old 5x7 glyphs at `scale`.
double fontSize(int scale) { return 7.0 * scale * 1.35; }

void selectFont(cairo_t* cr, int scale) {
  cairo_select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, fontSize(scale));
}

}  // namespace

void RasterImage::SurfaceDeleter::operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
void RasterImage::ContextDeleter::operator()(cairo_t* c) const { cairo_destroy(c); }

RasterImage::RasterImage(int width, int height, Rgb background)
    : width_(width),
      height_(height),
      surface_(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)),
      cairo_(cairo_create(surface_.get())) {
  if (cairo_surface_status(surface_.get()) != CAIRO_STATUS_SUCCESS)
    throw InputError("plot: cannot create a " + std::to_string(width) + " x " + std::to_string(height) + " image");
  setColour(cairo_.get(), background);
  cairo_paint(cairo_.get());
}

void RasterImage::setPixel(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  cairo_surface_flush(surface_.get());
  unsigned char* data = cairo_image_surface_get_data(surface_.get());
  const int stride = cairo_image_surface_get_stride(surface_.get());
  auto* p = reinterpret_cast<std::uint32_t*>(data + static_cast<std::size_t>(y) * stride) + x;
  *p = (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b;
  cairo_surface_mark_dirty_rectangle(surface_.get(), x, y, 1, 1);
}

Rgb RasterImage::pixel(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return {0, 0, 0};
  cairo_surface_flush(surface_.get());
  const unsigned char* data = cairo_image_surface_get_data(surface_.get());
  const int stride = cairo_image_surface_get_stride(surface_.get());
  const std::uint32_t p = *(reinterpret_cast<const std::uint32_t*>(data + static_cast<std::size_t>(y) * stride) + x);
  return {static_cast<std::uint8_t>(p >> 16), static_cast<std::uint8_t>(p >> 8), static_cast<std::uint8_t>(p)};
}

void RasterImage::line(double x0, double y0, double x1, double y1, Rgb c, int thickness) {
  cairo_t* cr = cairo_.get();
  setColour(cr, c);
  cairo_set_line_width(cr, thickness);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  // Pixel centres, so that a 1-pixel line covers one pixel column or row.
  cairo_move_to(cr, x0 + 0.5, y0 + 0.5);
  cairo_line_to(cr, x1 + 0.5, y1 + 0.5);
  cairo_stroke(cr);
}

void RasterImage::rectangle(int x0, int y0, int x1, int y1, Rgb c) {
  cairo_t* cr = cairo_.get();
  setColour(cr, c);
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, x1 - x0, y1 - y0);
  cairo_stroke(cr);
}

void RasterImage::fill(int x0, int y0, int x1, int y1, Rgb c) {
  cairo_t* cr = cairo_.get();
  setColour(cr, c);
  cairo_rectangle(cr, x0, y0, x1 - x0 + 1, y1 - y0 + 1);
  cairo_fill(cr);
}

void RasterImage::text(int x, int y, const std::string& s, Rgb c, int scale) {
  cairo_t* cr = cairo_.get();
  selectFont(cr, scale);
  setColour(cr, c);
  // Capitals' top at y: the baseline one cap height (about 0.73 em in DejaVu Sans) below.
  cairo_move_to(cr, x, y + 0.73 * fontSize(scale));
  cairo_show_text(cr, s.c_str());
  cairo_new_path(cr);
}

void RasterImage::verticalText(int x, int y, const std::string& s, Rgb c, int scale) {
  cairo_t* cr = cairo_.get();
  cairo_save(cr);
  cairo_translate(cr, x + 0.73 * fontSize(scale), y + textWidth(s, scale) / 2.0);
  cairo_rotate(cr, -M_PI / 2.0);
  selectFont(cr, scale);
  setColour(cr, c);
  cairo_move_to(cr, 0.0, 0.0);
  cairo_show_text(cr, s.c_str());
  cairo_new_path(cr);
  cairo_restore(cr);
}

int RasterImage::textWidth(const std::string& s, int scale) {
  cairo_surface_t* scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t* cr = cairo_create(scratch);
  selectFont(cr, scale);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, s.c_str(), &extents);
  cairo_destroy(cr);
  cairo_surface_destroy(scratch);
  return static_cast<int>(std::ceil(extents.x_advance));
}

void RasterImage::savePng(const std::string& path) const {
  cairo_surface_flush(surface_.get());
  const cairo_status_t status = cairo_surface_write_to_png(surface_.get(), path.c_str());
  if (status != CAIRO_STATUS_SUCCESS)
    throw InputError(path + ": cannot write the PNG (" + cairo_status_to_string(status) + ")");
}

}  // namespace softfit
