#include "worker/gpu/evaluate_activity.hpp"

#include <string>

#include "kopt/worker/kernel_activity_summary.hpp"
#include "worker/gpu/kernel_activity.hpp"

namespace kopt::worker {
namespace {

void add_note(SizeVerdict& entry, std::string const& note) {
  if (note.empty()) return;
  entry.activity_note = entry.activity_note ? *entry.activity_note + "; " + note : note;
}

}  // namespace

void add_kernel_activity(ActivitySubjects const& subjects, SizeVerdict& entry) {
  auto record = [&](Callable* callable, void** args, double deadline_ms, char const* what) {
    ActivityCall call;
    call.watchdog = subjects.watchdog;
    call.callable = callable;
    call.args = args;
    call.deadline_ms = deadline_ms;
    call.what = what;
    call.flush_buffer = subjects.flush_buffer;
    call.flush_bytes = subjects.flush_bytes;
    return record_kernel_activity(call);
  };
  if (!subjects.candidate_launcher) {
    entry.activity = to_json(kernel_mode_activity());
  } else if (subjects.candidate != nullptr) {
    ActivityOutcome const outcome =
        record(subjects.candidate, subjects.candidate_args, subjects.candidate_deadline_ms, "the candidate");
    if (outcome.activity) {
      entry.activity = to_json(*outcome.activity);
    } else {
      add_note(entry, outcome.note);
      return;  // the same cause (CUPTI) would stop the reference; after a failed call the device may be
               // unusable
    }
  }
  if (subjects.reference != nullptr) {
    ActivityOutcome const outcome =
        record(subjects.reference, subjects.reference_args, 600000, "the task's reference");
    if (outcome.activity) {
      entry.reference_activity = to_json(*outcome.activity);
    } else {
      add_note(entry, "reference: " + outcome.note);
    }
  }
}

}  // namespace kopt::worker
