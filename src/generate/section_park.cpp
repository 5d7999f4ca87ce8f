#include "generate/section_park.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "detail/record_coding.h"

namespace sitemill::detail {
namespace {

constexpr std::size_t record_fixed = 2;  // what it has, uses
// The first byte of the two: what comes before them.
constexpr char has_lastmod = 1, has_deferral = 2;
// A deferral: its number, input and line as varints, then their length
// (one byte), so that it is read from the record's end: about 10 bytes.

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

// A lastmod in a record: its fields one after another, without the
// struct's padding, the nanoseconds only when there are some (most lastmods
// have none): 11 bytes or 15 where the struct takes 20. The byte of flags
// comes last, to be read first from the record's end. A field added to
// w3c_datetime changes its size: then add it here.
static_assert(sizeof(w3c_datetime) == 20, "a w3c_datetime field to park");
constexpr std::size_t packed_lastmod = 11;
constexpr std::size_t packed_nanos = 4;

void append_lastmod(std::string& out, const w3c_datetime& d) {
  char b[packed_nanos + packed_lastmod];
  char* p = b;
  const bool nanos = d.nanos != 0;
  if (nanos) {
    std::memcpy(p, &d.nanos, packed_nanos);
    p += packed_nanos;
  }
  std::memcpy(p, &d.year, 2);
  p[2] = static_cast<char>(d.month);
  p[3] = static_cast<char>(d.day);
  p[4] = static_cast<char>(d.hour);
  p[5] = static_cast<char>(d.minute);
  p[6] = static_cast<char>(d.second);
  p[7] = static_cast<char>(d.fraction_digits);
  std::memcpy(p + 8, &d.offset_minutes, 2);
  p[10] =
      static_cast<char>((d.zulu ? 1 : 0) | (d.negative_zero_offset ? 2 : 0) |
                        (nanos ? 4 : 0) | (static_cast<unsigned>(d.form) << 3));
  out.append(b, static_cast<std::size_t>(p + packed_lastmod - b));
}

// The lastmod append_lastmod() wrote ending at `end` of `record`; `end`
// moves back to its start.
w3c_datetime read_lastmod(std::string_view record, std::size_t& end) {
  w3c_datetime d;
  end -= packed_lastmod;
  const char* p = record.data() + end;
  std::memcpy(&d.year, p, 2);
  d.month = static_cast<std::uint8_t>(p[2]);
  d.day = static_cast<std::uint8_t>(p[3]);
  d.hour = static_cast<std::uint8_t>(p[4]);
  d.minute = static_cast<std::uint8_t>(p[5]);
  d.second = static_cast<std::uint8_t>(p[6]);
  d.fraction_digits = static_cast<std::uint8_t>(p[7]);
  std::memcpy(&d.offset_minutes, p + 8, 2);
  const auto flags = static_cast<unsigned char>(p[10]);
  d.zulu = (flags & 1) != 0;
  d.negative_zero_offset = (flags & 2) != 0;
  d.form = static_cast<datetime_form>(flags >> 3);
  if (flags & 4) {
    end -= packed_nanos;
    std::memcpy(&d.nanos, record.data() + end, packed_nanos);
  }
  return d;
}

// Where a record's lastmod starts (its fixed bytes, when it has none),
// without reading it.
std::size_t lastmod_start(std::string_view record) {
  std::size_t end = record.size() - record_fixed;
  if (record[end] & has_lastmod) {
    const auto flags = static_cast<unsigned char>(record[end - 1]);
    end -= packed_lastmod + ((flags & 4) != 0 ? packed_nanos : 0);
  }
  return end;
}

// The deferral append_parked_tail() wrote ending at `end` of `record`;
// `end` moves back to its start.
parked_deferral read_deferral(std::string_view record, std::size_t& end) {
  const auto length = static_cast<unsigned char>(record[end - 1]);
  end -= 1 + length;
  const char* p = record.data() + end;
  const char* const block_end = p + length;
  parked_deferral d;
  std::uint64_t input = 0;
  // Written by this run: a short block is a bug, caught by the tests.
  (void)(get_varint(p, block_end, d.number) &&
         get_varint(p, block_end, input) && get_varint(p, block_end, d.line));
  d.input = static_cast<std::uint32_t>(input);
  return d;
}

}  // namespace

void append_parked_tail(std::string& out,
                        const std::optional<w3c_datetime>& lastmod,
                        extension_mask uses, const parked_deferral* deferral) {
  if (deferral) {
    char b[3 * max_varint + 1];
    char* p = put_varint(b, deferral->number);
    p = put_varint(p, deferral->input);
    p = put_varint(p, deferral->line);
    *p = static_cast<char>(p - b);
    out.append(b, static_cast<std::size_t>(p + 1 - b));
  }
  if (lastmod) append_lastmod(out, *lastmod);
  const char fixed[record_fixed] = {
      static_cast<char>((lastmod ? has_lastmod : 0) |
                        (deferral ? has_deferral : 0)),
      static_cast<char>(uses)};
  out.append(fixed, record_fixed);
}

void append_parked(std::string& out, const parked_entry& e) {
  out += e.xml;
  append_parked_tail(out, e.lastmod, e.uses,
                     e.deferral ? &*e.deferral : nullptr);
}

parked_entry read_parked(std::string_view record) {
  parked_entry e;
  std::size_t end = record.size() - record_fixed;
  const char has = record[end];
  e.uses = parked_uses(record);
  if (has & has_lastmod) e.lastmod = read_lastmod(record, end);
  if (has & has_deferral) e.deferral = read_deferral(record, end);
  e.xml = record.substr(0, end);
  return e;
}

std::uint32_t parked_xml_size(std::string_view record) {
  std::size_t end = lastmod_start(record);
  if (parked_deferred(record))
    end -= 1 + static_cast<unsigned char>(record[end - 1]);
  return static_cast<std::uint32_t>(end);
}

bool parked_deferred(std::string_view record) {
  return (record[record.size() - record_fixed] & has_deferral) != 0;
}

std::optional<parked_deferral> parked_deferral_of(std::string_view record) {
  if (!parked_deferred(record)) return std::nullopt;
  std::size_t end = lastmod_start(record);
  return read_deferral(record, end);
}

std::string_view without_deferral(std::string_view record,
                                  std::string& scratch) {
  if (!parked_deferred(record)) return record;
  const std::size_t tail = lastmod_start(record);
  const std::size_t end =
      tail - 1 - static_cast<unsigned char>(record[tail - 1]);
  scratch.assign(record.substr(0, end));
  scratch += record.substr(tail);
  scratch[scratch.size() - record_fixed] &= ~has_deferral;
  return scratch;
}

section_park::section_park(std::string path) : path_(std::move(path)) {}

section_park::~section_park() {
  if (created_) ::unlink(path_.c_str());
}

status section_park::add(std::uint64_t fingerprint, std::string_view record) {
  const park_head head{fingerprint, record.size()};
  buffer_.append(reinterpret_cast<const char*>(&head), sizeof head);
  buffer_ += record;
  tally_ += prefix_tally{1, parked_xml_size(record), parked_uses(record)};
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
