#include "sitemill/report/issue_spool.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include "detail/spill_file.h"

namespace sitemill {
namespace {

// One issue on disk: line, the two lengths, then the bytes of input and
// reason. The file lives and dies with the process, so native byte order.
struct record_head {
  std::uint64_t line;
  std::uint32_t input_size;
  std::uint32_t reason_size;
};

std::uint32_t clamp_size(std::size_t n) {
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace

issue_spool::issue_spool(std::string temp_dir)
    : temp_dir_(std::move(temp_dir)) {
  if (temp_dir_.empty()) temp_dir_ = detail::temp_directory();
}

issue_spool::~issue_spool() {
  for (std::FILE* f : files_)
    if (f != nullptr) std::fclose(f);
}

std::FILE* issue_spool::file_for(issue_kind kind) {
  std::FILE*& f = files_[static_cast<std::size_t>(kind)];
  if (f != nullptr || !failure_) return f;
  std::string path = temp_dir_ + "/.sitemill-issues-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    failure_ = error{"cannot create a temporary file in " + temp_dir_ +
                     " for the report's issues: " + std::strerror(errno)};
    return nullptr;
  }
  // Unlinked at once: nothing is left behind, whatever ends the process.
  ::unlink(path.c_str());
  f = ::fdopen(fd, "w+b");
  if (f == nullptr) {
    failure_ = error{"cannot open a temporary file for the report's issues: " +
                     std::string(std::strerror(errno))};
    ::close(fd);
  }
  return f;
}

bool issue_spool::write(issue_kind kind, const record_issue& issue) {
  std::FILE* f = file_for(kind);
  if (f == nullptr) return false;
  const record_head head{issue.line, clamp_size(issue.input.size()),
                         clamp_size(issue.reason.size())};
  const bool written = std::fwrite(&head, sizeof head, 1, f) == 1 &&
                       std::fwrite(issue.input.data(), 1, head.input_size, f) ==
                           head.input_size &&
                       std::fwrite(issue.reason.data(), 1, head.reason_size,
                                   f) == head.reason_size;
  if (!written)
    failure_ = error{"cannot keep the report's issues in " + temp_dir_ + ": " +
                     std::strerror(errno)};
  return written;
}

void issue_spool::add(issue_kind kind, const record_issue& issue) {
  ++counts_[static_cast<std::size_t>(kind)];
  if (!failure_) return;
  if (write(kind, issue)) ++kept_[static_cast<std::size_t>(kind)];
}

void issue_spool::add_duplicate(const duplicate_record& d) {
  constexpr auto kind = issue_kind::duplicate;
  ++counts_[static_cast<std::size_t>(kind)];
  if (!failure_) return;
  if (write(kind, {d.input, d.line, d.url}) &&
      write(kind, {d.first_input, d.first_line, {}}))
    ++kept_[static_cast<std::size_t>(kind)];
}

status issue_spool::for_each_duplicate(
    const std::function<void(const duplicate_record&)>& visit) const {
  duplicate_record d;
  bool first = true;
  return for_each(issue_kind::duplicate, [&](const record_issue& issue) {
    if (first) {
      d.input = issue.input;
      d.line = issue.line;
      d.url = issue.reason;
    } else {
      d.first_input = issue.input;
      d.first_line = issue.line;
      visit(d);
    }
    first = !first;
  });
}

status issue_spool::for_each(
    issue_kind kind,
    const std::function<void(const record_issue&)>& visit) const {
  std::FILE* f = files_[static_cast<std::size_t>(kind)];
  if (f == nullptr) return {};
  if (std::fflush(f) != 0 || std::fseek(f, 0, SEEK_SET) != 0)
    return error{"cannot read back the report's issues: " +
                 std::string(std::strerror(errno))};
  record_issue issue;
  record_head head{};
  bool ok = true;
  // Only whole records: a write that failed may have left part of one.
  std::uint64_t n = kept_[static_cast<std::size_t>(kind)];
  if (kind == issue_kind::duplicate) n *= 2;  // two records each
  for (; n > 0; --n) {
    if (std::fread(&head, sizeof head, 1, f) != 1) {
      ok = false;
      break;
    }
    issue.line = head.line;
    issue.input.resize(head.input_size);
    issue.reason.resize(head.reason_size);
    if (std::fread(issue.input.data(), 1, head.input_size, f) !=
            head.input_size ||
        std::fread(issue.reason.data(), 1, head.reason_size, f) !=
            head.reason_size) {
      ok = false;
      break;
    }
    visit(issue);
  }
  ok = ok && std::ferror(f) == 0;
  // Back to the end, so that issues added later append.
  if (std::fseek(f, 0, SEEK_END) != 0) ok = false;
  if (!ok) return error{"cannot read back the report's issues"};
  return {};
}

}  // namespace sitemill
