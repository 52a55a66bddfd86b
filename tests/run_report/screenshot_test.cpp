// Renders a real run's report in headless Chromium (Debian: chromium-headless-shell) and checks that the
// screenshot is not blank. Skips, saying which package to install, when no Chromium is found.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "run_report/run_report_fixtures.hpp"

namespace kopt {
namespace screenshot_test {

using test::RunFixture;

std::optional<std::string> find_chromium() {
  if (char const* given = std::getenv("KOPT_CHROMIUM"); given != nullptr && *given != '\0') return given;
  for (char const* path : {"/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell",
                           "/usr/bin/chrome-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser",
                           "/usr/bin/google-chrome"}) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return std::string(path);
  }
  return std::nullopt;
}

struct Image {
  std::size_t width = 0;
  std::size_t height = 0;
  std::vector<std::uint32_t> pixels;  // 0xRRGGBB
};

std::optional<Image> read_png(std::filesystem::path const& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, path.c_str()) == 0) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> buffer(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, buffer.data(), 0, nullptr) == 0) {
    png_image_free(&image);
    return std::nullopt;
  }
  Image out;
  out.width = image.width;
  out.height = image.height;
  out.pixels.reserve(out.width * out.height);
  for (std::size_t i = 0; i + 2 < buffer.size(); i += 3)
    out.pixels.push_back((std::uint32_t{buffer[i]} << 16) | (std::uint32_t{buffer[i + 1]} << 8) |
                         buffer[i + 2]);
  return out;
}

std::string quoted(std::string const& text) {
  std::string out = "'";
  for (char const c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TEST_F(RunFixture, ChromiumRendersAReportThatIsNotBlank) {
  auto const chromium = find_chromium();
  if (!chromium) {
    GTEST_SKIP() << "no headless Chromium found: install the Debian package chromium-headless-shell "
                    "(apt-get install -y chromium-headless-shell) or set KOPT_CHROMIUM";
  }
  RunReport const report = report_of(make_run("mcts", 30, 5));
  auto const html_path = dir.path() / "report.html";
  auto const png_path = dir.path() / "shot.png";
  std::ofstream(html_path) << render_run_html(report);
  std::string const command =
      "timeout 60 " + quoted(*chromium) +
      " --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=" + quoted(png_path.string()) +
      " --window-size=1200,2000 " + quoted("file://" + html_path.string()) + " >" +
      quoted((dir.path() / "log").string()) + " 2>&1";
  int const status = std::system(command.c_str());
  ASSERT_EQ(status, 0) << command << "\n" << test::read_text(dir.path() / "log");
  auto const image = read_png(png_path);
  ASSERT_TRUE(image) << "cannot decode " << png_path;
  EXPECT_EQ(image->width, 1200u);
  EXPECT_EQ(image->height, 2000u);
  std::set<std::uint32_t> colours(image->pixels.begin(), image->pixels.end());
  EXPECT_GE(colours.size(), 50u) << "text, badges, plot: many distinct colours";
  std::uint32_t const background = image->pixels.front();  // the page margin, top-left
  std::size_t const differing = static_cast<std::size_t>(std::count_if(
      image->pixels.begin(), image->pixels.end(), [&](std::uint32_t pixel) { return pixel != background; }));
  EXPECT_GT(static_cast<double>(differing), 0.30 * static_cast<double>(image->pixels.size()))
      << "most of the page is covered by the report's cards";
  auto has = [&](std::uint32_t rgb, int tolerance) {
    return std::any_of(colours.begin(), colours.end(), [&](std::uint32_t c) {
      auto channel = [](std::uint32_t v, int shift) { return static_cast<int>((v >> shift) & 0xFFu); };
      return std::abs(channel(c, 16) - channel(rgb, 16)) <= tolerance &&
             std::abs(channel(c, 8) - channel(rgb, 8)) <= tolerance &&
             std::abs(channel(c, 0) - channel(rgb, 0)) <= tolerance;
    });
  };
  EXPECT_TRUE(has(0x1a7f37, 8)) << "the green of the speedup and the best-so-far line";
  EXPECT_TRUE(has(0xdafbe1, 4)) << "the green of the ok badges";
}

}  // namespace screenshot_test
}  // namespace kopt
