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
  std::uint64_t fingerprint;
  std::uint32_t input;
  std::uint32_t set;
  std::uint32_t section;
  std::uint32_t loc_size;
  std::uint32_t xml_size;
  std::uint32_t links_at;
  std::uint32_t link_count;  // (hreflang size, href size) pairs follow
  extension_mask uses;
  std::uint8_t flags;
};
static_assert(sizeof(record_head) == 48);
constexpr std::uint8_t has_lastmod = 1, has_news = 2, is_deferred = 4;

}  // namespace

result<entry_spool> entry_spool::create(std::string path) {
  auto file = spill_file::create(std::move(path));
  if (!file) return file.err();
  return entry_spool(std::move(*file));
}

entry_spool::entry_spool(spill_file file) : file_(std::move(file)) {}

entry_spool::entry_spool(entry_spool&& o) noexcept
    : file_(std::move(o.file_)),
      entries_(o.entries_),
      buffer_(std::move(o.buffer_)),
      links_(std::move(o.links_)),
      error_(std::move(o.error_)) {}

entry_spool::~entry_spool() = default;

status entry_spool::fail(const status& why) {
  if (error_.empty())
    error_ = "the entry spool: " + why.message();
  return sitemill::error{error_};
}

// Reads exactly `size` bytes of a record; false at the end of the spool
// (error_ empty) when `first`, the record's first bytes, or on a failure
// (error_ says it): the end of the file inside a record is one.
bool entry_spool::read(void* data, std::size_t size, bool first) {
  auto got = file_.read(data, size);
  if (!got) {
    (void)fail(got.err());
    return false;
  }
  if (!*got && !first)
    (void)fail(sitemill::error{"it ends inside an entry: " + file_.path()});
  return *got;
}

status entry_spool::add(const spooled_entry& e) {
  record_head h{};
  h.line = e.line;
  h.fingerprint = e.fingerprint;
  h.input = e.input;
  h.set = e.set;
  h.section = e.section;
  h.loc_size = static_cast<std::uint32_t>(e.loc.size());
  h.xml_size = static_cast<std::uint32_t>(e.xml.size());
  h.links_at = e.links_at;
  h.link_count = static_cast<std::uint32_t>(e.links.size());
  h.uses = e.uses;
  h.flags = (e.lastmod ? has_lastmod : 0) | (e.news_published ? has_news : 0) |
            (e.deferred != spooled_entry::not_deferred ? is_deferred : 0);
  // The fixed part and the fields an entry has, gathered on the stack, then
  // loc and xml: three appends, each one copy into the file's block.
  char head[sizeof h + sizeof e.deferred + 2 * sizeof(w3c_datetime)];
  std::size_t at = 0;
  auto gather = [&](const auto& v) {
    std::memcpy(head + at, &v, sizeof v);
    at += sizeof v;
  };
  gather(h);
  if (h.flags & is_deferred) gather(e.deferred);
  if (e.lastmod) gather(*e.lastmod);
  if (e.news_published) gather(*e.news_published);
  if (status s = file_.append(head, at); !s) return fail(s);
  if (status s = file_.append(e.loc.data(), e.loc.size()); !s) return fail(s);
  if (status s = file_.append(e.xml.data(), e.xml.size()); !s) return fail(s);
  for (const hreflang_clusters::link& l : e.links) {
    const std::uint32_t sizes[2] = {static_cast<std::uint32_t>(l.hreflang.size()),
                                    static_cast<std::uint32_t>(l.href.size())};
    for (const std::string_view part :
         {std::string_view(reinterpret_cast<const char*>(sizes), sizeof sizes),
          l.hreflang, l.href})
      if (status s = file_.append(part.data(), part.size()); !s)
        return fail(s);
  }
  ++entries_;
  return {};
}

status entry_spool::rewind() {
  if (status s = file_.rewind(); !s) return fail(s);
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
    if (!read(pair, sizeof pair)) return false;
    const std::size_t from = buffer_.size();
    buffer_.resize(from + pair[0] + pair[1]);
    if (!read(buffer_.data() + from, std::size_t{pair[0]} + pair[1]))
      return false;
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

std::optional<spooled_entry> entry_spool::next() {
  record_head h;
  if (const char* p = file_.try_view(sizeof h))
    std::memcpy(&h, p, sizeof h);  // the usual case: no call that can fail
  else if (!read(&h, sizeof h, /*first=*/true))
    return std::nullopt;
  // What follows the head, but the links, in one read, and where it lies in
  // the file's block when it can: a spool of 10^8 entries is read at the
  // speed of its smallest reads and copies. An entry with links is copied,
  // for reading its links moves on in the file.
  const std::size_t fields = ((h.flags & is_deferred) ? sizeof(std::uint64_t) : 0) +
                             ((h.flags & has_lastmod) ? sizeof(w3c_datetime) : 0) +
                             ((h.flags & has_news) ? sizeof(w3c_datetime) : 0);
  const std::size_t size = fields + h.loc_size + h.xml_size;
  std::string_view rest;
  if (const char* p = h.link_count == 0 ? file_.try_view(size) : nullptr) {
    rest = std::string_view(p, size);
  } else if (h.link_count == 0) {
    auto view = file_.read_view(size, buffer_);
    if (!view || !*view) {
      (void)fail(view ? sitemill::error{"it ends inside an entry: " +
                                        file_.path()}
                      : view.err());
      return std::nullopt;
    }
    rest = **view;
  } else {
    buffer_.resize(size);
    if (!read(buffer_.data(), buffer_.size())) return std::nullopt;
  }
  spooled_entry e;
  const char* at = h.link_count == 0 ? rest.data() : buffer_.data();
  if (h.flags & is_deferred) {
    std::memcpy(&e.deferred, at, sizeof e.deferred);
    at += sizeof e.deferred;
  }
  if (h.flags & has_lastmod) {
    std::memcpy(&e.lastmod.emplace(), at, sizeof(w3c_datetime));
    at += sizeof(w3c_datetime);
  }
  if (h.flags & has_news) {
    std::memcpy(&e.news_published.emplace(), at, sizeof(w3c_datetime));
    at += sizeof(w3c_datetime);
  }
  e.links_at = h.links_at;
  e.input = h.input;
  e.set = h.set;
  e.section = h.section;
  e.line = h.line;
  e.fingerprint = h.fingerprint;
  e.uses = h.uses;
  if (h.link_count > 0) {
    // The links go on growing buffer_: view it only once they are in.
    if (!read_links(h.link_count)) return std::nullopt;
    e.links = links_;
    rest = buffer_;
  }
  e.loc = rest.substr(fields, h.loc_size);
  e.xml = rest.substr(fields + h.loc_size, h.xml_size);
  return e;
}

}  // namespace sitemill::detail
