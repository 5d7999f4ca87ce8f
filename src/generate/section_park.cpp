#include "generate/section_park.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>

namespace sitemill::detail {
namespace {

static_assert(std::is_trivially_copyable_v<w3c_datetime>);
constexpr std::size_t record_fixed = 2;  // has_lastmod, uses

// A parked record in the file: the fingerprint and the record's length,
// then the record.
struct park_head {
  std::uint64_t fingerprint;
  std::uint64_t length;
};

status failed(const char* what, const std::string& path) {
  return error{std::string("cannot ") + what + " " + path +
               " (a section's parked entries): " + std::strerror(errno)};
}

}  // namespace

void append_parked_tail(std::string& out,
                        const std::optional<w3c_datetime>& lastmod,
                        extension_mask uses) {
  if (lastmod)
    out.append(reinterpret_cast<const char*>(&*lastmod), sizeof *lastmod);
  out += static_cast<char>(lastmod ? 1 : 0);
  out += static_cast<char>(uses);
}

void append_parked(std::string& out, const parked_entry& e) {
  out += e.xml;
  append_parked_tail(out, e.lastmod, e.uses);
}

parked_entry read_parked(std::string_view record) {
  parked_entry e;
  std::size_t end = record.size() - record_fixed;
  e.uses = static_cast<extension_mask>(record[end + 1]);
  if (record[end] != 0) {
    end -= sizeof(w3c_datetime);
    w3c_datetime d;
    std::memcpy(&d, record.data() + end, sizeof d);
    e.lastmod = d;
  }
  e.xml = record.substr(0, end);
  return e;
}

std::uint32_t parked_xml_size(std::string_view record) {
  const std::size_t fixed =
      record_fixed +
      (record[record.size() - record_fixed] != 0 ? sizeof(w3c_datetime) : 0);
  return static_cast<std::uint32_t>(record.size() - fixed);
}

section_park::section_park(std::string path) : path_(std::move(path)) {}

section_park::~section_park() {
  if (created_) ::unlink(path_.c_str());
}

status section_park::add(std::uint64_t fingerprint, std::string_view record) {
  const park_head head{fingerprint, record.size()};
  buffer_.append(reinterpret_cast<const char*>(&head), sizeof head);
  buffer_ += record;
  ++entries_;
  xml_bytes_ += parked_xml_size(record);
  if (buffer_.size() >= park_buffer_bytes) return flush();
  return {};
}

status section_park::flush() {
  if (buffer_.empty()) return {};
  const int flags =
      O_WRONLY | O_APPEND | O_CLOEXEC | (created_ ? 0 : O_CREAT | O_EXCL);
  const int fd = ::open(path_.c_str(), flags, 0600);
  if (fd < 0) return failed("create", path_);
  created_ = true;
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      status s = failed("write", path_);
      ::close(fd);
      return s;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return failed("write", path_);
  disk_bytes_ += buffer_.size();
  buffer_.clear();
  buffer_.shrink_to_fit();  // a parked section holds no buffer while idle
  return {};
}

status section_park::replay(
    const std::function<status(std::uint64_t, std::string_view)>& each) {
  if (status s = flush(); !s) return s;
  if (!created_) return {};
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(
      std::fopen(path_.c_str(), "rbe"), &std::fclose);
  if (!f) return failed("read", path_);
  std::setvbuf(f.get(), nullptr, _IOFBF, 256 * 1024);
  std::string record;
  park_head head{};
  while (std::fread(&head, sizeof head, 1, f.get()) == 1) {
    record.resize(head.length);
    if (head.length > 0 &&
        std::fread(record.data(), head.length, 1, f.get()) != 1)
      return error{path_ + " ends inside a record (a section's parked " +
                   "entries were cut short)"};
    if (status s = each(head.fingerprint, record); !s) return s;
  }
  if (std::ferror(f.get())) return failed("read", path_);
  f.reset();
  ::unlink(path_.c_str());
  created_ = false;
  return {};
}

}  // namespace sitemill::detail
