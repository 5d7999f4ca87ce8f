#include "generate/entry_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

namespace sitemill::detail {
namespace {

static_assert(std::is_trivially_copyable_v<w3c_datetime>);

// The fixed part of a record; loc and xml bytes follow.
struct record_head {
  std::uint64_t line;
  std::uint32_t input;
  std::uint32_t loc_size;
  std::uint32_t xml_size;
  std::uint32_t links_at;
  std::uint32_t set;
  extension_mask uses;
  bool has_lastmod;
  bool has_news;
  w3c_datetime lastmod;
  w3c_datetime news_published;
};

// Big sequential blocks: the spool is written and read once, in order.
constexpr std::size_t io_buffer = 1 << 20;

}  // namespace

result<entry_spool> entry_spool::create(std::string path) {
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return sitemill::error{"cannot create " + path + ": " +
                           std::strerror(errno)};
  std::FILE* f = ::fdopen(fd, "w+b");
  if (f == nullptr) {
    const int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return sitemill::error{"cannot open " + path + ": " + std::strerror(err)};
  }
  std::setvbuf(f, nullptr, _IOFBF, io_buffer);
  return entry_spool(std::move(path), f);
}

entry_spool::entry_spool(std::string path, std::FILE* file)
    : path_(std::move(path)), file_(file) {}

entry_spool::entry_spool(entry_spool&& o) noexcept
    : path_(std::move(o.path_)),
      file_(o.file_),
      entries_(o.entries_),
      buffer_(std::move(o.buffer_)),
      error_(std::move(o.error_)) {
  o.file_ = nullptr;
  o.path_.clear();
}

entry_spool::~entry_spool() {
  if (file_ != nullptr) std::fclose(file_);
  if (!path_.empty()) ::unlink(path_.c_str());
}

status entry_spool::fail(const char* what) {
  if (error_.empty())
    error_ = std::string("cannot ") + what + " the entry spool " + path_ +
             ": " + std::strerror(errno);
  return sitemill::error{error_};
}

status entry_spool::add(const spooled_entry& e) {
  record_head h{};
  h.line = e.line;
  h.input = e.input;
  h.set = e.set;
  h.loc_size = static_cast<std::uint32_t>(e.loc.size());
  h.xml_size = static_cast<std::uint32_t>(e.xml.size());
  h.links_at = e.links_at;
  h.uses = e.uses;
  h.has_lastmod = e.lastmod.has_value();
  if (e.lastmod) h.lastmod = *e.lastmod;
  h.has_news = e.news_published.has_value();
  if (e.news_published) h.news_published = *e.news_published;
  // One record, one fwrite: stdio's per-call locking and bookkeeping cost
  // more than the copy into a buffer that keeps its capacity.
  buffer_.assign(reinterpret_cast<const char*>(&h), sizeof h);
  buffer_ += e.loc;
  buffer_ += e.xml;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    return fail("write");
  ++entries_;
  return {};
}

status entry_spool::rewind() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)
    return fail("rewind");
  return {};
}

std::optional<spooled_entry> entry_spool::next() {
  record_head h;
  if (std::fread(&h, sizeof h, 1, file_) != 1) {
    if (std::ferror(file_)) (void)fail("read");
    return std::nullopt;
  }
  buffer_.resize(std::size_t{h.loc_size} + h.xml_size);
  if (std::fread(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    errno = std::ferror(file_) ? errno : EIO;
    (void)fail("read");
    return std::nullopt;
  }
  spooled_entry e;
  e.loc = std::string_view(buffer_).substr(0, h.loc_size);
  e.xml = std::string_view(buffer_).substr(h.loc_size);
  e.links_at = h.links_at;
  e.input = h.input;
  e.set = h.set;
  e.line = h.line;
  e.uses = h.uses;
  if (h.has_lastmod) e.lastmod = h.lastmod;
  if (h.has_news) e.news_published = h.news_published;
  return e;
}

}  // namespace sitemill::detail
