// Silhouette labels (capture_segmentation.h): object pixels on the object's image
// boundary (a non-object 4-neighbour or the image border) become Silhouette, interior
// object pixels and other labels stay.
#include <gtest/gtest.h>

#include "reconstruct/capture_segmentation.h"

namespace softfit {
namespace {

TEST(LabelSilhouettes, OnlyTheObjectsBoundaryPixels) {
  // 7 x 5 image: the object is the 4 x 3 block u = 1..4, v = 1..3, except (4, 3), a
  // ground pixel; the pixel (5, 2) is a lone object pixel touching the border side.
  DepthMap depth(7, 5);
  SegmentedView view;
  view.points.camera = 0;
  for (int v = 0; v < 5; ++v)
    for (int u = 0; u < 7; ++u) {
      view.points.pixels.push_back(v * 7 + u);
      const bool block = u >= 1 && u <= 4 && v >= 1 && v <= 3 && !(u == 4 && v == 3);
      view.labels.push_back(block || (u == 6 && v == 2) ? PointLabel::Object : PointLabel::Ground);
    }
  view.points.points = PointMatrix::Zero(35, 3);
  labelSilhouettes(depth, view);
  const auto label = [&](int u, int v) { return view.labels[v * 7 + u]; };
  // Interior: (2, 2) and (3, 2) have object pixels on all four sides.
  EXPECT_EQ(label(2, 2), PointLabel::Object);
  EXPECT_EQ(label(3, 2), PointLabel::Object);
  int objects = 0, silhouettes = 0;
  for (PointLabel l : view.labels) {
    objects += l == PointLabel::Object;
    silhouettes += l == PointLabel::Silhouette;
  }
  EXPECT_EQ(objects, 2);
  EXPECT_EQ(silhouettes, 11 - 2 + 1);  // the block's other 9 pixels and the one at the border
  EXPECT_EQ(label(6, 2), PointLabel::Silhouette);
  EXPECT_EQ(label(4, 3), PointLabel::Ground);
  EXPECT_EQ(label(0, 0), PointLabel::Ground);
}

}  // namespace
}  // namespace softfit
