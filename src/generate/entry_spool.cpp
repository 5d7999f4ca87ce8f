#include "generate/entry_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

#include "detail/record_coding.h"

namespace sitemill::detail {
namespace {

static_assert(std::is_trivially_copyable_v<w3c_datetime>);

// A record: its length (u32, what follows but the links), the flags, the
// fingerprint (8 bytes), then varints: the line less the previous record's
// (zigzag), the input, set and section, the deferred number less the
// previous deferred record's (zigzag, when deferred), the sizes of loc and
// xml, xml's size less links_at (zigzag) and the count of links; the uses
// and the count of xml's bytes left out (shared with the reference); the
// lastmod and news date when it has them, as they are; loc; the rest of
// xml. Then each link: its two sizes (u32) and its two strings.
constexpr std::uint8_t has_lastmod = 1, has_news = 2, is_deferred = 4;
// The most bytes a record's head takes before its dates, loc and xml.
constexpr std::size_t max_head = 1 + 8 + 9 * max_varint + 2;
// The reference: the first record's xml, this many bytes at most, so that
// the count of bytes shared with it is one byte.
constexpr std::size_t max_shared = 255;

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
      reference_(std::move(o.reference_)),
      last_line_(o.last_line_),
      last_deferred_(o.last_deferred_),
      read_line_(o.read_line_),
      read_deferred_(o.read_deferred_),
      buffer_(std::move(o.buffer_)),
      xml_(std::move(o.xml_)),
      loc_(std::move(o.loc_)),
      link_bytes_(std::move(o.link_bytes_)),
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
  if (entries_ == 0)
    reference_.assign(e.xml.substr(0, std::min(e.xml.size(), max_shared)));
  const std::size_t shared = common_prefix(e.xml, reference_, max_shared);
  const bool deferred = e.deferred != spooled_entry::not_deferred;
  // The head and the dates gathered on the stack, then loc and the rest of
  // xml: three appends, each one copy into the file's block.
  char head[4 + max_head + 2 * sizeof(w3c_datetime)];
  char* at = head + 4;
  *at++ = static_cast<char>((e.lastmod ? has_lastmod : 0) |
                            (e.news_published ? has_news : 0) |
                            (deferred ? is_deferred : 0));
  std::memcpy(at, &e.fingerprint, 8);
  at += 8;
  auto difference = [](std::uint64_t now, std::uint64_t before) {
    return zigzag(static_cast<std::int64_t>(now - before));
  };
  at = put_varint(at, difference(e.line, last_line_));
  last_line_ = e.line;
  at = put_varint(at, e.input);
  at = put_varint(at, e.set);
  at = put_varint(at, e.section);
  if (deferred) {
    at = put_varint(at, difference(e.deferred, last_deferred_));
    last_deferred_ = e.deferred;
  }
  at = put_varint(at, e.loc.size());
  at = put_varint(at, e.xml.size());
  at = put_varint(at, difference(e.xml.size(), e.links_at));
  at = put_varint(at, e.links.size());
  *at++ = static_cast<char>(e.uses);
  *at++ = static_cast<char>(shared);
  for (const auto& date : {e.lastmod, e.news_published}) {
    if (!date) continue;
    std::memcpy(at, &*date, sizeof(w3c_datetime));
    at += sizeof(w3c_datetime);
  }
  const std::uint64_t length = static_cast<std::uint64_t>(at - (head + 4)) +
                               e.loc.size() + (e.xml.size() - shared);
  if (length > 0xffffffffu)
    return fail(sitemill::error{"an entry is larger than 4 GiB"});
  const auto length32 = static_cast<std::uint32_t>(length);
  std::memcpy(head, &length32, 4);
  if (status s = file_.append(head, static_cast<std::size_t>(at - head)); !s)
    return fail(s);
  if (status s = file_.append(e.loc.data(), e.loc.size()); !s) return fail(s);
  if (status s = file_.append(e.xml.data() + shared, e.xml.size() - shared); !s)
    return fail(s);
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
  read_line_ = read_deferred_ = 0;
  return {};
}

status entry_spool::corrupt() {
  return fail(
      sitemill::error{"a record is cut short or changed: " + file_.path()});
}

// A deferred entry's links, after its record: read into link_bytes_, then
// viewed.
bool entry_spool::read_links(std::uint32_t count) {
  link_bytes_.clear();
  std::vector<std::uint32_t> sizes;
  sizes.reserve(std::size_t{count} * 2);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint32_t pair[2];
    if (!read(pair, sizeof pair)) return false;
    if (std::uint64_t{pair[0]} + pair[1] > file_.unread())
      return (void)corrupt(), false;
    const std::size_t from = link_bytes_.size();
    link_bytes_.resize(from + pair[0] + pair[1]);
    if (!read(link_bytes_.data() + from, std::size_t{pair[0]} + pair[1]))
      return false;
    sizes.insert(sizes.end(), pair, pair + 2);
  }
  links_.clear();
  const std::string_view all = link_bytes_;
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    links_.push_back({all.substr(at, sizes[2 * i]),
                      all.substr(at + sizes[2 * i], sizes[2 * i + 1])});
    at += std::size_t{sizes[2 * i]} + sizes[2 * i + 1];
  }
  return true;
}

std::optional<spooled_entry> entry_spool::next() {
  std::uint32_t length;
  if (const char* p = file_.try_view(sizeof length))
    std::memcpy(&length, p, sizeof length);  // the usual case: cannot fail
  else if (!read(&length, sizeof length, /*first=*/true))
    return std::nullopt;
  if (length > file_.unread()) return (void)corrupt(), std::nullopt;
  // The record in one read, where it lies in the file's block when it can:
  // a spool of 10^8 entries is read at the speed of its smallest reads and
  // copies.
  std::string_view record;
  if (const char* p = file_.try_view(length)) {
    record = std::string_view(p, length);
  } else {
    auto view = file_.read_view(length, buffer_);
    if (!view || !*view) {
      (void)fail(
          view ? sitemill::error{"it ends inside an entry: " + file_.path()}
               : view.err());
      return std::nullopt;
    }
    record = **view;
  }
  const char* at = record.data();
  const char* const end = at + record.size();
  if (end - at < 1 + 8) return (void)corrupt(), std::nullopt;
  const auto flags = static_cast<std::uint8_t>(*at++);
  spooled_entry e;
  std::memcpy(&e.fingerprint, at, 8);
  at += 8;
  std::uint64_t line, input, set, section, loc_size, xml_size, links_gap,
      link_count;
  bool ok = get_varint(at, end, line) && get_varint(at, end, input) &&
            get_varint(at, end, set) && get_varint(at, end, section);
  std::uint64_t deferred = 0;
  if (ok && (flags & is_deferred)) ok = get_varint(at, end, deferred);
  ok = ok && get_varint(at, end, loc_size) && get_varint(at, end, xml_size) &&
       get_varint(at, end, links_gap) && get_varint(at, end, link_count) &&
       end - at >= 2;
  if (!ok || input > 0xffffffffu || set > 0xffffffffu ||
      section > 0xffffffffu || link_count > 0xffffffffu)
    return (void)corrupt(), std::nullopt;
  e.uses = static_cast<extension_mask>(*at++);
  const auto shared = static_cast<unsigned char>(*at++);
  for (auto* date : {&e.lastmod, &e.news_published}) {
    if (!(flags & (date == &e.lastmod ? has_lastmod : has_news))) continue;
    if (static_cast<std::size_t>(end - at) < sizeof(w3c_datetime))
      return (void)corrupt(), std::nullopt;
    std::memcpy(&date->emplace(), at, sizeof(w3c_datetime));
    at += sizeof(w3c_datetime);
  }
  const auto left = static_cast<std::uint64_t>(end - at);
  const std::int64_t links_at =
      static_cast<std::int64_t>(xml_size) - unzigzag(links_gap);
  if (shared > reference_.size() || shared > xml_size || loc_size > left ||
      xml_size - shared != left - loc_size || links_at < 0 ||
      static_cast<std::uint64_t>(links_at) > xml_size)
    return (void)corrupt(), std::nullopt;
  read_line_ += static_cast<std::uint64_t>(unzigzag(line));
  e.line = read_line_;
  if (flags & is_deferred) {
    read_deferred_ += static_cast<std::uint64_t>(unzigzag(deferred));
    e.deferred = read_deferred_;
  }
  e.input = static_cast<std::uint32_t>(input);
  e.set = static_cast<std::uint32_t>(set);
  e.section = static_cast<std::uint32_t>(section);
  e.links_at = static_cast<std::uint32_t>(links_at);
  const std::string_view loc(at, loc_size);
  const std::string_view rest(at + loc_size, xml_size - shared);
  // An entry with links, or with a shared prefix to put back, is copied:
  // reading its links moves on in the file.
  if (shared > 0 || link_count > 0) {
    xml_.assign(reference_, 0, shared);
    xml_ += rest;
    e.xml = xml_;
  } else {
    e.xml = rest;
  }
  if (link_count > 0) {
    loc_.assign(loc);
    e.loc = loc_;
    if (!read_links(static_cast<std::uint32_t>(link_count)))
      return std::nullopt;
    e.links = links_;
  } else {
    e.loc = loc;
  }
  return e;
}

}  // namespace sitemill::detail
