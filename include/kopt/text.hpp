// Small text helpers shared by the modules.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kopt {

// `text` with ASCII letters in lower case (other bytes unchanged): case-insensitive matching of tool
// output, compiler logs and model replies.
std::string ascii_lower(std::string_view text);

// ASCII white space: space, \t, \n, \v, \f, \r (what std::isspace means in the "C" locale).
constexpr bool is_ascii_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// `text` without leading and trailing ASCII white space.
std::string_view trim(std::string_view text) noexcept;
// `text` without trailing ASCII white space.
std::string_view trim_end(std::string_view text) noexcept;
// Whether `text` is empty or only ASCII white space.
bool is_blank(std::string_view text) noexcept;

// `text` with &, <, >, " and ' replaced by their entities: safe inside HTML and SVG text and attributes.
std::string markup_escape(std::string_view text);

// The time now in UTC as ISO 8601 to the second, "2026-12-02T16:10:00Z" (thread-safe).
std::string utc_now_iso8601();

// strerror's text for an errno value, without strerror's shared buffer (safe from any thread).
std::string errno_text(int error_number);

// Whether `text` is a whole decimal number as C and TOML write it ("4096", "-0.5", "1e-5"): not hex, nan
// or inf.
bool is_decimal_number(std::string const& text);

// The whole file as bytes; nullopt when it cannot be opened or read.
std::optional<std::string> read_text_file(std::filesystem::path const& path);
// Writes `text` to `path` (created or truncated); false when it cannot be written completely.
bool write_text_file(std::filesystem::path const& path, std::string_view text);

}  // namespace kopt
