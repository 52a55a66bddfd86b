// The calibration cache: round trip, errors that name the file and field, and applying it.
#include <gtest/gtest.h>

#include <fstream>

#include "kopt/eval.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace calibration_test {

DeviceInfo h200() {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-1234";
  d.driver_version = 13000;
  d.ceilings = DeviceCeilings{4.18e12, 66.9e12, 1.07e15};
  return d;
}

DeviceCalibration measured() {
  DeviceCalibration c;
  c.device_name = "NVIDIA H200";
  c.uuid = "GPU-1234";
  c.driver_version = 13000;
  c.dram_bytes_per_s = 4.3e12;
  c.fp32_flops_per_s = 60.1e12;
  c.bf16_tensor_flops_per_s = 700e12;
  c.fp16_tensor_flops_per_s = 720e12;
  c.measured_at = "2026-11-30T12:00:00Z";
  c.notes = {"a note"};
  return c;
}

void write(std::filesystem::path const& path, std::string const& text) {
  std::ofstream(path) << text;
}

TEST(CalibrationCache, PathNamesTheDeviceAndDriver) {
  auto const path = calibration_path("/cache", h200());
  EXPECT_EQ(path, std::filesystem::path("/cache/calibration/GPU-1234-driver13000.json"));
}

TEST(CalibrationCache, RoundTrips) {
  test::TempDir dir;
  auto const path = calibration_path(dir.path(), h200());
  ASSERT_TRUE(save_calibration(path, measured()));
  auto loaded = load_calibration(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->uuid, "GPU-1234");
  EXPECT_EQ(loaded->driver_version, 13000);
  EXPECT_DOUBLE_EQ(loaded->fp32_flops_per_s, 60.1e12);
  EXPECT_DOUBLE_EQ(loaded->fp16_tensor_flops_per_s, 720e12);
  EXPECT_EQ(loaded->notes, std::vector<std::string>{"a note"});
}

TEST(CalibrationCache, BadFilesNameTheFileAndTheField) {
  test::TempDir dir;
  auto const path = dir.path() / "c.json";
  auto missing = load_calibration(path);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);

  write(path, "not json");
  auto garbage = load_calibration(path);
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(garbage.error().message.find(path.string()), std::string::npos);

  write(path, R"({"schema": "kopt.calibration/1", "dram_bytes_per_s": 1, "fp32_flops_per_s": -5,
                  "bf16_tensor_flops_per_s": 1, "fp16_tensor_flops_per_s": 1, "driver_version": 13000})");
  auto negative = load_calibration(path);
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message.find("'fp32_flops_per_s'"), std::string::npos)
      << negative.error().message;

  write(path, R"({"schema": "something else"})");
  auto schema = load_calibration(path);
  ASSERT_FALSE(schema);
  EXPECT_NE(schema.error().message.find("'schema'"), std::string::npos) << schema.error().message;
}

TEST(ApplyCalibration, UsesTheMeasuredPeaksOnlyForTheSameDeviceAndDriver) {
  DeviceInfo const applied = apply_calibration(h200(), measured());
  EXPECT_DOUBLE_EQ(applied.ceilings.fp32_flops_per_s, 60.1e12);
  EXPECT_DOUBLE_EQ(applied.ceilings.tensor_flops_per_s, 720e12) << "the higher of BF16 and FP16";
  EXPECT_DOUBLE_EQ(applied.ceilings.dram_bytes_per_s, 4.18e12) << "the worker's own measurement stays";

  DeviceCalibration other = measured();
  other.driver_version = 12080;
  EXPECT_DOUBLE_EQ(apply_calibration(h200(), other).ceilings.fp32_flops_per_s, 66.9e12);
  other = measured();
  other.uuid = "GPU-9999";
  EXPECT_DOUBLE_EQ(apply_calibration(h200(), other).ceilings.tensor_flops_per_s, 1.07e15);

  DeviceInfo unmeasured = h200();
  unmeasured.ceilings.dram_bytes_per_s = 0.0;
  EXPECT_DOUBLE_EQ(apply_calibration(unmeasured, measured()).ceilings.dram_bytes_per_s, 4.3e12);
}

}  // namespace calibration_test
}  // namespace kopt
