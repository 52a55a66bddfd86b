// Loading the strategy library: every <root>/*/strategies.toml, each entry checked field by field, and
// the template each names read. docs/strategies.md ("strategies.toml").
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <sstream>

#include "kopt/detail/toml.hpp"
#include "kopt/detail/toml_precheck.hpp"
#include "kopt/propose.hpp"
#include "kopt/text.hpp"
#include "propose/contract.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// Reads one [[strategy]] entry; problems are appended to `errors` as "file: strategy[i].field: ...".
class EntryReader {
 public:
  EntryReader(fs::path manifest, std::size_t index, toml::table const& table,
              std::vector<std::string>& errors)
      : manifest_(std::move(manifest)), index_(index), table_(table), errors_(errors) {}

  std::optional<LibraryStrategy> read() {
    static std::set<std::string, std::less<>> const known{
        "name",     "families", "template", "signature", "lengths",     "params",
        "defaults", "in_place", "updates",  "unread",    "defines",     "launch",
        "dtypes",   "min_arch", "arch",     "addresses", "description", "applies_when"};
    for (auto const& [key, node] : table_) {
      if (!known.contains(key.str()))
        fail(std::string(key.str()), "is not a known field",
             "one of name, families, template, signature, lengths, params, defaults, in_place, updates, "
             "unread, defines, launch, dtypes, min_arch, arch, addresses, description, applies_when");
    }
    LibraryStrategy s;
    s.manifest = manifest_;
    s.name = text("name", true, "a snake_case strategy name");
    s.families = list("families", true);
    auto const template_file = text("template", true, "a template file name relative to the manifest");
    s.signature = text("signature", true, "a signature such as \"void (T* out, const T* in, int n)\"");
    s.lengths = lengths(s.signature);
    s.params = list("params", false);
    s.defaults = defaults(s.signature);
    s.in_place = in_place(s.signature);
    s.updates = updates(s.signature);
    s.unread = list("unread", false);
    s.defines = defines(s.params);
    s.addresses = list("addresses", false);
    s.description = text("description", true, "a plain-language description");
    s.applies_when = text("applies_when", true, "the conditions where it pays off, in plain language");
    for (auto const& dtype_name : list("dtypes", false)) {
      auto dtype = dtype_from_string(dtype_name);
      if (!dtype || (*dtype != DType::f32 && *dtype != DType::bf16)) {
        fail("dtypes", "'" + dtype_name + "' is not supported", "f32 or bf16");
      } else {
        s.dtypes.push_back(*dtype);
      }
    }
    if (s.dtypes.empty()) s.dtypes = {DType::f32, DType::bf16};
    if (auto const* node = table_.get("min_arch")) {
      auto const* integer = node->as_integer();
      if (integer == nullptr || integer->get() < 50 || integer->get() > 200) {
        fail("min_arch", "is not an architecture number", "an integer such as 80 or 90");
      } else {
        s.min_arch = static_cast<int>(integer->get());
      }
    }
    if (table_.get("arch") != nullptr) {
      s.arch = text("arch", false, "an architecture-specific target such as \"sm_90a\"");
      static RE2 const specific(R"(sm_([0-9]+)a)", RE2::Latin1);
      int number = 0;  // RE2 refuses a number that does not fit an int
      if (!s.arch.empty() && !RE2::FullMatch(s.arch, specific, &number)) {
        fail("arch", "'" + s.arch + "' is not an architecture-specific target", "a value such as \"sm_90a\"");
      } else if (!s.arch.empty()) {
        s.min_arch = number;
      }
    }
    if (!template_file.empty()) {
      s.template_path = manifest_.parent_path() / template_file;
      if (auto body = read_text_file(s.template_path)) {
        s.template_text = expand_includes(*body, s.template_path);
        replace_launch(s);
        // A knob is set by the tuner's -D flag: a define of the same name would override it unseen.
        for (auto const& [name, value] : s.defines) {
          RE2 const knob("//[ \\t]*kopt:knob[ \\t]+" + RE2::QuoteMeta(name) + "\\b", RE2::Latin1);
          if (RE2::PartialMatch(s.template_text, knob)) {
            fail("defines." + name, "is a knob of the template", "a name that is not a `// kopt:knob`");
          }
        }
      } else {
        fail("template", "'" + s.template_path.string() + "' cannot be read", "an existing template file");
      }
    }
    check_unread(s);
    if (failed_) return std::nullopt;
    return s;
  }

 private:
  void fail(std::string const& field, std::string const& what, std::string const& expected) {
    errors_.push_back(fmt::format("{}: strategy[{}].{}: {}; expected {}", manifest_.string(), index_, field,
                                  what, expected));
    failed_ = true;
  }

  std::string text(std::string const& key, bool required, std::string const& expected) {
    auto const* node = table_.get(key);
    if (node == nullptr) {
      if (required) fail(key, "is missing", expected);
      return {};
    }
    auto const* value = node->as_string();
    if (value == nullptr || value->get().empty()) {
      fail(key, "is not a non-empty string", expected);
      return {};
    }
    return value->get();
  }

  // The signature's parameters, for checking the fields that name them. The element type T and the index
  // type I are placeholders, read as float and int (a type the parser does not know made every check of
  // `lengths` a no-op).
  static Result<Signature> contract_of(std::string const& signature) {
    std::string const typed = with_index_type(with_element_type(signature, "float"), "int");
    return parse_signature("void kopt_contract" + typed.substr(std::min(typed.find('('), typed.size())));
  }

  // `lengths = { out = "n", A = "M * N" }`: elements of each pointer role, over the integer roles.
  std::map<std::string, std::string, std::less<>> lengths(std::string const& signature) {
    std::map<std::string, std::string, std::less<>> out;
    auto const* node = table_.get("lengths");
    if (node == nullptr) return out;
    std::string const expected =
        "a table of pointer roles and element counts, e.g. { out = \"n\", A = \"M * N\" }";
    auto const* table = node->as_table();
    if (table == nullptr) {
      fail("lengths", "is not a table", expected);
      return out;
    }
    auto const contract = contract_of(signature);
    for (auto const& [key, value] : *table) {
      std::string const role(key.str());
      auto const* text = value.as_string();
      auto const expr =
          text == nullptr ? Result<Expr>(make_error(ErrorCode::invalid_spec, "")) : Expr::parse(text->get());
      if (!expr) {
        fail("lengths." + role, "is not an integer expression", expected);
        continue;
      }
      if (contract) {
        auto const& params = contract->params;
        auto const is_role = [&](std::string const& name, bool pointer) {
          return std::any_of(params.begin(), params.end(),
                             [&](Param const& p) { return p.name == name && p.is_pointer == pointer; });
        };
        if (!is_role(role, true))
          fail("lengths." + role, "is not a pointer parameter of the signature", expected);
        for (std::string const& name : expr->identifiers()) {
          if (!is_role(name, false)) {
            fail("lengths." + role, "names '" + name + "', which is not a scalar parameter of the signature",
                 expected);
          }
        }
      }
      out[role] = text->get();
    }
    return out;
  }

  // `defines = { ARGMIN = 1 }`: macros defined before the template's text. A name is an upper-case C
  // identifier; a value an integer, a string of letters, digits, '_' and '.' (one preprocessor token), or
  // "{{name}}" for one of the strategy's `params`: the task's expression, parenthesised (an integrand).
  std::map<std::string, std::string, std::less<>> defines(std::vector<std::string> const& params) {
    std::map<std::string, std::string, std::less<>> out;
    auto const* node = table_.get("defines");
    if (node == nullptr) return out;
    std::string const expected = "a table of macro names and values, e.g. { ARGMIN = 1 }";
    auto const* table = node->as_table();
    if (table == nullptr) {
      fail("defines", "is not a table", expected);
      return out;
    }
    auto const is_name = [](std::string_view t) {
      return !t.empty() && (std::isupper(static_cast<unsigned char>(t[0])) != 0 || t[0] == '_') &&
             std::all_of(t.begin(), t.end(), [](char c) {
               return std::isupper(static_cast<unsigned char>(c)) != 0 ||
                      std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
             });
    };
    auto const is_token = [](std::string_view t) {
      return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
      });
    };
    for (auto const& [key, value] : *table) {
      std::string const name(key.str());
      if (!is_name(name)) {
        fail("defines." + name, "is not an upper-case macro name",
             "letters A-Z, digits and '_', e.g. ARGMIN");
        continue;
      }
      std::optional<std::string> text;
      if (auto const* integer = value.as_integer()) text = std::to_string(integer->get());
      if (auto const* string = value.as_string(); string != nullptr && is_token(string->get()))
        text = string->get();
      if (auto const* string = value.as_string(); string != nullptr && !define_param(string->get()).empty()) {
        std::string const param(define_param(string->get()));
        if (std::find(params.begin(), params.end(), param) != params.end()) {
          text = string->get();
        } else {
          fail("defines." + name, "names '" + param + "', which is not in the strategy's params",
               "\"{{NAME}}\" for a NAME listed in params");
          continue;
        }
      }
      if (!text) {
        fail("defines." + name, "is not a value for a macro",
             "an integer, one token such as \"1.5f\", or \"{{NAME}}\" for one of params");
        continue;
      }
      out[name] = *text;
    }
    return out;
  }

  // `defaults = { eps = "1e-6" }`: a value for a scalar role the task does not pass (a decimal number for a
  // float role, an integer expression without names for an integer one).
  std::map<std::string, std::string, std::less<>> defaults(std::string const& signature) {
    std::map<std::string, std::string, std::less<>> out;
    auto const* node = table_.get("defaults");
    if (node == nullptr) return out;
    std::string const expected = "a table of scalar roles and values, e.g. { eps = \"1e-6\" }";
    auto const* table = node->as_table();
    if (table == nullptr) {
      fail("defaults", "is not a table", expected);
      return out;
    }
    auto const contract = contract_of(signature);
    for (auto const& [key, value] : *table) {
      std::string const role(key.str());
      auto const* text = value.as_string();
      Param const* param = nullptr;
      if (contract) {
        for (Param const& p : contract->params) {
          if (p.name == role && !p.is_pointer) param = &p;
        }
      }
      if (param == nullptr) {
        fail("defaults." + role, "is not a scalar parameter of the signature", expected);
        continue;
      }
      bool const floating = param->dtype == DType::f32 || param->dtype == DType::f64;
      bool const valid = text != nullptr && (floating ? is_decimal_number(text->get())
                                                      : Expr::parse(text->get()).ok() &&
                                                            Expr::parse(text->get())->identifiers().empty());
      if (!valid) {
        fail("defaults." + role, std::string("is not a value for the ") + param->c_type + " role",
             floating ? "a decimal number such as \"1e-6\"" : "an integer such as \"1\"");
        continue;
      }
      out[role] = text->get();
    }
    return out;
  }

  // `in_place = { out = "in" }` (or `{ c = ["a", "b"] }`): output roles that may be the same buffer as an
  // input role (the kernel reads each element of the input before, and in the same thread as, it writes
  // that element of the output).
  std::map<std::string, std::vector<std::string>, std::less<>> in_place(std::string const& signature) {
    std::map<std::string, std::vector<std::string>, std::less<>> out;
    auto const* node = table_.get("in_place");
    if (node == nullptr) return out;
    std::string const expected =
        "a table of output roles and the input role(s) each may share a buffer with, e.g. { out = \"in\" }";
    auto const* table = node->as_table();
    if (table == nullptr) {
      fail("in_place", "is not a table", expected);
      return out;
    }
    auto const contract = contract_of(signature);
    auto const pointer_role = [&](std::string_view name) -> Param const* {
      if (!contract) return nullptr;
      for (Param const& p : contract->params) {
        if (p.name == name && p.is_pointer) return &p;
      }
      return nullptr;
    };
    for (auto const& [key, value] : *table) {
      std::string const role(key.str());
      std::vector<std::string> reads;
      if (auto const* one = value.as_string()) reads.push_back(one->get());
      if (auto const* many = value.as_array()) {
        for (auto const& item : *many)
          reads.push_back(item.as_string() != nullptr ? item.as_string()->get() : "");
      }
      Param const* written = pointer_role(role);
      if (written == nullptr || written->is_const) {
        fail("in_place." + role, "is not a non-const pointer parameter of the signature", expected);
        continue;
      }
      bool const valid = !reads.empty() && std::all_of(reads.begin(), reads.end(), [&](std::string const& r) {
        Param const* read = pointer_role(r);
        return read != nullptr && read->is_const && read->dtype == written->dtype;
      });
      if (!valid) {
        fail("in_place." + role, "does not name const pointer parameters of the same element type", expected);
        continue;
      }
      out[role] = std::move(reads);
    }
    return out;
  }

  // `unread = ["K", "NNZ"]`: integer roles of the signature that the template's text never substitutes
  // ({{ARGi}} of the role appears nowhere: not in a launch or constraint line, not in the code).
  void check_unread(LibraryStrategy const& s) {
    auto const contract = contract_of(s.signature);
    for (std::string const& role : s.unread) {
      std::size_t index = 0;
      bool integer = false;
      for (std::size_t i = 0; contract && i < contract->params.size(); ++i) {
        Param const& p = contract->params[i];
        if (p.name != role) continue;
        index = i;
        integer = p.is_scalar() && !is_floating(p.dtype);
      }
      if (!integer) {
        fail("unread", "'" + role + "' is not an integer parameter of the signature",
             "the integer roles the template never reads, e.g. [\"K\", \"NNZ\"]");
      } else if (s.template_text.find(fmt::format("{{{{ARG{}}}}}", index)) != std::string::npos) {
        fail("unread", fmt::format("'{}' is read by the template ({{{{ARG{}}}}})", role, index),
             "only roles the template never substitutes");
      }
    }
  }

  // `updates = ["running_mean", "running_var"]`: non-const pointer roles the strategy reads before it
  // writes them.
  std::vector<std::string> updates(std::string const& signature) {
    std::vector<std::string> out = list("updates", false);
    auto const contract = contract_of(signature);
    for (std::string const& role : out) {
      bool const written =
          contract && std::any_of(contract->params.begin(), contract->params.end(), [&](Param const& p) {
            return p.name == role && p.is_pointer && !p.is_const;
          });
      if (!written) {
        fail("updates", "'" + role + "' is not a non-const pointer parameter of the signature",
             "a list of the roles the strategy reads and writes, e.g. [\"running_mean\"]");
      }
    }
    return out;
  }

  std::vector<std::string> list(std::string const& key, bool required) {
    std::vector<std::string> out;
    auto const* node = table_.get(key);
    if (node == nullptr) {
      if (required) fail(key, "is missing", "a list of strings");
      return out;
    }
    auto const* array = node->as_array();
    if (array == nullptr) {
      fail(key, "is not a list", "a list of strings");
      return out;
    }
    for (auto const& element : *array) {
      auto const* value = element.as_string();
      if (value == nullptr || value->get().empty()) {
        fail(key, "holds something other than a non-empty string", "a list of strings");
        continue;
      }
      out.push_back(value->get());
    }
    if (required && out.empty()) fail(key, "is empty", "at least one entry");
    return out;
  }

  // `launch = "grid=(..) block=(..) kernel={{ENTRY}}"`: the template's `// kopt:launch` line for this
  // strategy. One template serves contracts whose sizes sit at other positions (conv2d_nchw and
  // conv2d_nchw_strided: {{ARGi}} of the grid differ) with its code switched by `defines`.
  void replace_launch(LibraryStrategy& s) {
    if (table_.get("launch") == nullptr) return;
    std::string const launch =
        text("launch", false, "a launch line such as \"grid=(..) block=(..) kernel={{ENTRY}}\"");
    static RE2 const annotation(R"((?m)^[ \t]*//[ \t]*kopt:launch\b[^\n]*)", RE2::Latin1);
    std::string replaced = s.template_text;
    std::string rewrite = "// kopt:launch ";
    for (char const c : launch)
      rewrite += c == '\\' ? std::string("\\\\") : std::string(1, c);  // RE2's escape
    int const lines = RE2::GlobalReplace(&replaced, annotation, rewrite);
    if (launch.empty() || launch.find("grid=") == std::string::npos) {
      fail("launch", "'" + launch + "' gives no grid",
           "a launch line such as \"grid=(..) block=(..) kernel={{ENTRY}}\"");
    } else if (lines != 1) {
      fail("launch", fmt::format("the template has {} `// kopt:launch` lines", lines),
           "a template with exactly one launch line to replace");
    } else {
      s.template_text = std::move(replaced);
    }
  }

  // A line `// kopt:include FILE` is replaced by FILE's text (relative to the template; one level: an
  // included file may not include). Strategies of one family share their body this way and each
  // instantiation is still one self-contained source.
  std::string expand_includes(std::string const& text, fs::path const& path) {
    static RE2 const include(R"(^[ \t]*//[ \t]*kopt:include[ \t]+(\S+)[ \t]*$)", RE2::Latin1);
    std::string out;
    std::istringstream lines(text);
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      std::string included;
      if (!RE2::FullMatch(line, include, &included)) {
        out += line + "\n";
        continue;
      }
      auto const file = path.parent_path() / included;
      auto body = read_text_file(file);
      if (!body) {
        fail("template",
             fmt::format("{}:{}: kopt:include '{}' cannot be read", path.string(), number, file.string()),
             "an existing file next to the template");
        continue;
      }
      std::istringstream nested(*body);
      bool includes = false;
      for (std::string inner; std::getline(nested, inner) && !includes;)
        includes = RE2::FullMatch(inner, include);
      if (includes) {
        fail("template", fmt::format("{}: includes another file", file.string()),
             "one level of kopt:include");
        continue;
      }
      out += *body;
      if (!body->empty() && body->back() != '\n') out += "\n";
    }
    if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
    return out;
  }

  fs::path manifest_;
  std::size_t index_;
  toml::table const& table_;
  std::vector<std::string>& errors_;
  bool failed_ = false;
};

void read_manifest(fs::path const& manifest, std::vector<LibraryStrategy>& out,
                   std::vector<std::string>& errors) {
  auto text = read_text_file(manifest);
  if (!text) {
    errors.push_back(manifest.string() + ": cannot be read");
    return;
  }
  if (auto problem = detail::precheck_toml(*text)) {  // text toml++ 3.3 must not see (docs/fuzzing.md)
    errors.push_back(fmt::format("{}:{}:{}: {}; expected {}", manifest.string(), problem->line,
                                 problem->column, problem->what, problem->expected));
    return;
  }
  toml::table root;
  try {
    root = toml::parse(*text, manifest.string());
  } catch (toml::parse_error const& e) {
    errors.push_back(fmt::format("{}:{}: {}", manifest.string(), e.source().begin.line, e.description()));
    return;
  }
  for (auto const& [key, node] : root) {
    if (key.str() != "strategy") {
      errors.push_back(fmt::format("{}: '{}' is not a known table; expected [[strategy]] entries only",
                                   manifest.string(), key.str()));
    }
  }
  auto const* entries = root.get_as<toml::array>("strategy");
  if (entries == nullptr) {
    errors.push_back(manifest.string() + ": no [[strategy]] entries");
    return;
  }
  std::size_t index = 0;
  for (auto const& element : *entries) {
    auto const* table = element.as_table();
    if (table == nullptr) {
      errors.push_back(fmt::format("{}: strategy[{}] is not a table", manifest.string(), index));
    } else if (auto strategy = EntryReader(manifest, index, *table, errors).read()) {
      out.push_back(std::move(*strategy));
    }
    ++index;
  }
}

}  // namespace

LibraryStrategy const* StrategyLibrary::find(std::string_view name) const {
  auto it = std::find_if(strategies.begin(), strategies.end(),
                         [&](LibraryStrategy const& s) { return s.name == name; });
  return it == strategies.end() ? nullptr : &*it;
}

Result<StrategyLibrary> load_strategy_library(fs::path const& root) {
  StrategyLibrary library;
  library.root = root;
  auto const common = root / "common" / "strategy.cuh";
  auto header = read_text_file(common);
  if (!header) {
    return make_error(ErrorCode::not_found, common.string() +
                                                ": cannot be read; expected the strategy library's "
                                                "common header (is " +
                                                root.string() + " a strategies/ folder?)");
  }
  library.common_header = std::move(*header);
  std::vector<fs::path> manifests;
  std::error_code ec;
  for (auto const& entry : fs::directory_iterator(root, ec)) {
    auto const manifest = entry.path() / "strategies.toml";
    std::error_code unreadable;  // a folder that cannot be looked into holds no manifest
    if (entry.is_directory(unreadable) && fs::exists(manifest, unreadable)) manifests.push_back(manifest);
  }
  if (ec) return make_error(ErrorCode::io_error, root.string() + ": " + ec.message());
  std::sort(manifests.begin(), manifests.end());
  std::vector<std::string> errors;
  for (auto const& manifest : manifests) read_manifest(manifest, library.strategies, errors);
  std::set<std::string, std::less<>> names;
  for (auto const& s : library.strategies) {
    if (!names.insert(s.name).second) {
      errors.push_back(s.manifest.string() + ": strategy name '" + s.name +
                       "' is used twice in the library; expected unique names");
    }
  }
  if (!errors.empty()) {
    std::string message = "the strategy library has errors:";
    for (auto const& e : errors) message += "\n  " + e;
    return make_error(ErrorCode::invalid_spec, message);
  }
  return library;
}

}  // namespace kopt
