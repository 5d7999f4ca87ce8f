#include "generate/entry_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

namespace sitemill::detail {
namespace {

static_assert(std::is_trivially_copyable_v<w3c_datetime>);

// The fixed part of a record. What an entry may lack follows only when it
// has it (flags), then loc, xml and links: a spool of millions of entries
// is written and read once each, so its bytes are its cost.
struct record_head {
  std::uint64_t line;
  std::uint32_t input;
  std::uint32_t set;
  std::uint32_t loc_size;
  std::uint32_t xml_size;
  std::uint32_t links_at;
  std::uint32_t link_count;  // (hreflang size, href size) pairs follow
  extension_mask uses;
  std::uint8_t flags;
};
constexpr std::uint8_t has_lastmod = 1, has_news = 2, is_deferred = 4;

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
  // glibc ignores the size when it is to allocate the buffer itself (and
  // moves 4 KiB per system call): the spool brings its own.
  auto buffer = std::make_unique<char[]>(io_buffer);
  std::setvbuf(f, buffer.get(), _IOFBF, io_buffer);
  return entry_spool(std::move(path), f, std::move(buffer));
}

entry_spool::entry_spool(std::string path, std::FILE* file,
                         std::unique_ptr<char[]> io)
    : path_(std::move(path)), file_(file), io_(std::move(io)) {}

entry_spool::entry_spool(entry_spool&& o) noexcept
    : path_(std::move(o.path_)),
      file_(o.file_),
      io_(std::move(o.io_)),
      entries_(o.entries_),
      bytes_(o.bytes_),
      buffer_(std::move(o.buffer_)),
      links_(std::move(o.links_)),
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
  h.link_count = static_cast<std::uint32_t>(e.links.size());
  h.uses = e.uses;
  h.flags = (e.lastmod ? has_lastmod : 0) | (e.news_published ? has_news : 0) |
            (e.deferred != spooled_entry::not_deferred ? is_deferred : 0);
  // One record, one fwrite: stdio's per-call locking and bookkeeping cost
  // more than the copy into a buffer that keeps its capacity.
  auto put = [this](const auto& v) {
    buffer_.append(reinterpret_cast<const char*>(&v), sizeof v);
  };
  buffer_.clear();
  put(h);
  if (h.flags & is_deferred) put(e.deferred);
  if (e.lastmod) put(*e.lastmod);
  if (e.news_published) put(*e.news_published);
  buffer_ += e.loc;
  buffer_ += e.xml;
  for (const hreflang_clusters::link& l : e.links) {
    const std::uint32_t sizes[2] = {static_cast<std::uint32_t>(l.hreflang.size()),
                                    static_cast<std::uint32_t>(l.href.size())};
    put(sizes);
    buffer_ += l.hreflang;
    buffer_ += l.href;
  }
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    return fail("write");
  ++entries_;
  bytes_ += buffer_.size();
  return {};
}

status entry_spool::rewind() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)
    return fail("rewind");
  return {};
}

// A deferred entry's links, after its loc and xml: read to the end of
// buffer_ (which must not move again until the next record), then viewed.
bool entry_spool::read_links(std::uint32_t count) {
  std::vector<std::uint32_t> sizes;
  sizes.reserve(std::size_t{count} * 2);
  std::vector<std::size_t> at;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint32_t pair[2];
    if (std::fread(pair, sizeof pair, 1, file_) != 1) return read_failed();
    const std::size_t from = buffer_.size();
    buffer_.resize(from + pair[0] + pair[1]);
    if (std::fread(buffer_.data() + from, 1, std::size_t{pair[0]} + pair[1],
                   file_) != std::size_t{pair[0]} + pair[1])
      return read_failed();
    sizes.insert(sizes.end(), pair, pair + 2);
    at.push_back(from);
  }
  links_.clear();
  const std::string_view all = buffer_;
  for (std::uint32_t i = 0; i < count; ++i)
    links_.push_back({all.substr(at[i], sizes[2 * i]),
                      all.substr(at[i] + sizes[2 * i], sizes[2 * i + 1])});
  return true;
}

bool entry_spool::read_failed() {
  errno = std::ferror(file_) ? errno : EIO;
  (void)fail("read");
  return false;
}

std::optional<spooled_entry> entry_spool::next() {
  record_head h;
  if (std::fread(&h, sizeof h, 1, file_) != 1) {
    if (std::ferror(file_)) (void)fail("read");
    return std::nullopt;
  }
  spooled_entry e;
  auto get = [this](auto& v) {
    return std::fread(&v, sizeof v, 1, file_) == 1 || read_failed();
  };
  if (h.flags & is_deferred)
    if (!get(e.deferred)) return std::nullopt;
  if (h.flags & has_lastmod)
    if (!get(e.lastmod.emplace())) return std::nullopt;
  if (h.flags & has_news)
    if (!get(e.news_published.emplace())) return std::nullopt;
  buffer_.resize(std::size_t{h.loc_size} + h.xml_size);
  if (std::fread(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    read_failed();
    return std::nullopt;
  }
  // The links go on growing buffer_: view it only once they are in.
  if (h.link_count > 0) {
    if (!read_links(h.link_count)) return std::nullopt;
    e.links = links_;
  }
  e.loc = std::string_view(buffer_).substr(0, h.loc_size);
  e.xml = std::string_view(buffer_).substr(h.loc_size, h.xml_size);
  e.links_at = h.links_at;
  e.input = h.input;
  e.set = h.set;
  e.line = h.line;
  e.uses = h.uses;
  return e;
}

}  // namespace sitemill::detail
