// The long --help texts of `kopt` and its subcommands: what each does, an example, what the output means.
#pragma once

#include <string>

namespace kopt::cli::help {

std::string kopt_description();
std::string kopt_footer();
std::string init_description();
std::string init_footer();
std::string task_description();
std::string task_check_description();
std::string task_check_footer();
std::string eval_description();
std::string eval_footer();
std::string doctor_description();
std::string doctor_footer();
std::string report_description();
std::string report_footer();

}  // namespace kopt::cli::help
