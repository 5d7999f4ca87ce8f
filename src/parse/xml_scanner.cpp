#include "parse/xml_scanner.h"

#include <array>
#include <cstring>

#include "detail/text.h"
#include "detail/utf8.h"
#include "parse/xml_bytes.h"

namespace sitemill::detail {
namespace {

using namespace xml_bytes;

// The caps. Each is far above what a sitemap holds (a field is at most 64
// KiB, a <url> a few levels deep with a handful of attributes) and below
// libxml2's own limits (depth 256, names 50,000 bytes), so reaching one only
// means libxml2 reads the document instead.
constexpr std::size_t max_carry = 1024 * 1024;  // a token cut by a feed
constexpr std::size_t max_depth = 128;
constexpr std::size_t max_attributes = 64;  // per element
constexpr std::size_t max_name = 512;       // prefix:local
constexpr std::size_t max_interned = 4096;  // distinct names and URIs
constexpr std::size_t max_interned_bytes = 256 * 1024;
// How far before a tag's '<' libxml2's push parser keeps the bytes of its
// line (parserInternals.c, xmlParserInputShrink: LINE_LEN): a tag that
// spans lines gets its column from them, so past it only libxml2 knows.
constexpr std::size_t kept_before_tag = 80;

constexpr std::string_view xml_namespace =
    "http://www.w3.org/XML/1998/namespace";
constexpr std::string_view xmlns_namespace = "http://www.w3.org/2000/xmlns/";

}  // namespace

xml_scanner::xml_scanner(sink& s) : sink_(s) {
  xml_prefix_ = intern("xml");
  xml_ns_ = intern(xml_namespace);
  open_.reserve(16);
  bindings_.reserve(16);
}

xml_scanner::~xml_scanner() = default;

bool xml_scanner::feed(const char* data, std::size_t size) {
  if (stopped_ || finished_) return false;
  std::size_t off = 0;
  // A token the last feed cut is completed from the front of these bytes, a
  // piece at a time (as if they came cut there), so that the rest is read
  // where it lies instead of copied behind it.
  for (std::size_t piece = 4096; !carry_.empty() && off < size; piece *= 2) {
    const std::size_t old = carry_.size();
    const std::size_t take = std::min(size - off, std::max(piece, old));
    carry_.append(data + off, take);
    off += take;
    const std::size_t n =
        scan(carry_.data(), carry_.data() + carry_.size(), false);
    if (stopped_) return false;
    if (n >= old) {
      off -= carry_.size() - n;  // what is left came from `data`
      carry_.clear();
    } else {
      carry_.erase(0, n);
    }
  }
  if (carry_.empty() && off < size) {
    const std::size_t n = scan(data + off, data + size, false);
    if (!stopped_ && off + n < size)
      carry_.assign(data + off + n, size - off - n);
  }
  if (carry_.size() > max_carry) stopped_ = true;
  return !stopped_;
}

bool xml_scanner::finish() {
  if (finished_) return !stopped_;
  finished_ = true;
  if (stopped_) return false;
  const std::size_t n =
      scan(carry_.data(), carry_.data() + carry_.size(), true);
  if (n < carry_.size()) stopped_ = true;
  carry_.clear();
  if (state_ != state::epilog) stopped_ = true;
  return !stopped_;
}

std::size_t xml_scanner::scan(const char* b, const char* e, bool last) {
  const char* p = b;
  mark_ = b;
  plain_since_mark_ = true;
  while (p < e && !stopped_) {
    const char* q = p;
    step s;
    if (state_ == state::start) {
      plain_since_mark_ = false;
      s = declaration(q, e);
      if (s == step::more && last) {
        state_ = state::prolog;  // too short for a declaration
        continue;
      }
    } else if (*p == '<') {
      // The usual tags first, as markup() would send them.
      if (e - p >= 2 && p[1] == '/' && state_ == state::content) {
        s = end_tag(q, e);
      } else if (e - p >= 2 && name_start(p[1]) && state_ != state::epilog) {
        s = start_tag(q, e);
      } else {
        s = markup(q, e);
      }
    } else if (state_ == state::content) {
      s = text(q, e);
    } else {
      plain_since_mark_ = false;
      while (q < e && is_space(*q)) ++q;
      s = q == p ? halt() : step::done;  // text outside the root, or CR
    }
    if (s == step::more && last) s = halt();
    if (s != step::done) break;
    p = q;
  }
  advance(mark_, p);
  return static_cast<std::size_t>(p - b);
}

void xml_scanner::advance_slow(const char* from, const char* to) {
  if (to <= from) return;
  const auto n = static_cast<std::uint64_t>(to - from);
  const bool ascii = ascii_one_line(from, to);
  const auto last_nl =
      ascii ? nullptr : static_cast<const char*>(memrchr(from, '\n', n));
  if (last_nl == nullptr) {
    column_ += ascii ? n : chars(from, to);
    line_bytes_ += n;
    return;
  }
  line_ += newlines(from, last_nl + 1);
  column_ = 1 + chars(last_nl + 1, to);
  line_bytes_ = static_cast<std::uint64_t>(to - last_nl - 1);
}

xml_scanner::step xml_scanner::declaration(const char*& p, const char* e) {
  // libxml2 takes "<?xml" and a space as the declaration only at the start.
  if (e - p < 6) return step::more;
  if (std::memcmp(p, "<?xml", 5) != 0 || !is_space(p[5])) {
    state_ = state::prolog;
    return step::done;
  }
  const auto end = static_cast<const char*>(
      memmem(p, static_cast<std::size_t>(e - p), "?>", 2));
  if (end == nullptr) return step::more;
  const char* q = p + 5;
  const auto spaces = [&] {
    const char* s = q;
    while (q < end && is_space(*q)) ++q;
    return q > s;
  };
  const auto pseudo = [&](std::string_view name, std::string_view& value) {
    if (static_cast<std::size_t>(end - q) < name.size() ||
        std::memcmp(q, name.data(), name.size()) != 0)
      return false;
    q += name.size();
    spaces();
    if (q >= end || *q != '=') return false;
    ++q;
    spaces();
    if (q >= end || (*q != '"' && *q != '\'')) return false;
    const char quote = *q++;
    const char* v = q;
    while (q < end && *q != quote) ++q;
    if (q >= end) return false;
    value = std::string_view(v, static_cast<std::size_t>(q - v));
    ++q;
    return true;
  };
  std::string_view version, encoding, standalone;
  if (!spaces() || !pseudo("version", version) || version != "1.0")
    return halt();
  bool space = spaces();
  if (space && q < end && *q == 'e') {
    // Any encoding but UTF-8 is libxml2's to convert (and report).
    if (!pseudo("encoding", encoding) || !iequals(encoding, "utf-8"))
      return halt();
    space = spaces();
  }
  if (space && q < end && *q == 's') {
    if (!pseudo("standalone", standalone) ||
        (standalone != "yes" && standalone != "no"))
      return halt();
    spaces();
  }
  if (q != end) return halt();
  p = end + 2;
  state_ = state::prolog;
  return step::done;
}

xml_scanner::step xml_scanner::markup(const char*& p, const char* e) {
  if (e - p < 2) return step::more;
  switch (p[1]) {
    case '/':
      return state_ == state::content ? end_tag(p, e) : halt();
    case '?':
      plain_since_mark_ = false;
      return pi(p, e);
    case '!': {
      plain_since_mark_ = false;
      constexpr std::string_view open_comment = "<!--";
      constexpr std::string_view open_cdata = "<![CDATA[";
      const std::string_view have(p, static_cast<std::size_t>(e - p));
      if (have.starts_with(open_comment)) return comment(p, e);
      if (have.starts_with(open_cdata))
        return state_ == state::content ? cdata(p, e) : halt();
      if (open_comment.starts_with(have) || open_cdata.starts_with(have))
        return step::more;
      return halt();  // a DOCTYPE, or not XML
    }
    default:
      return state_ == state::epilog ? halt() : start_tag(p, e);
  }
}

[[gnu::always_inline]] inline xml_scanner::step xml_scanner::read_name(
    const char*& q, const char* e, std::string_view& prefix,
    std::string_view& local) {
  switch (read_qname(q, e, prefix, local, max_name)) {
    case name_read::done:
      return step::done;
    case name_read::more:
      return step::more;
    case name_read::bad:
      break;
  }
  return halt();
}

xml_scanner::step xml_scanner::start_tag(const char*& p, const char* e) {
  const char* q = p + 1;
  std::string_view prefix, local;
  if (const step s = read_name(q, e, prefix, local); s != step::done) return s;
  const std::string_view qname(p + 1, static_cast<std::size_t>(q - p - 1));
  const char* name_end = q;
  raw_.clear();
  const char* cur;
  bool empty;
  for (;;) {
    const char* before = q;
    while (q < e && is_space(*q)) ++q;
    if (q >= e) return step::more;
    if (*q == '>') {
      cur = q;
      empty = false;
      ++q;
      break;
    }
    if (*q == '/') {
      if (q + 1 >= e) return step::more;
      if (q[1] != '>') return halt();
      cur = q;
      empty = true;
      q += 2;
      break;
    }
    if (q == before || raw_.size() >= max_attributes) return halt();
    raw_attribute a{};
    if (const step s = read_name(q, e, a.prefix, a.local); s != step::done)
      return s;
    while (q < e && is_space(*q)) ++q;
    if (q >= e) return step::more;
    if (*q != '=') return halt();
    ++q;
    while (q < e && is_space(*q)) ++q;
    if (q >= e) return step::more;
    if (*q != '"' && *q != '\'') return halt();
    const char quote = *q++;
    const auto end = static_cast<const char*>(
        std::memchr(q, quote, static_cast<std::size_t>(e - q)));
    if (end == nullptr) {
      // libxml2 refuses a '<' in a value as soon as it reads it.
      return std::memchr(q, '<', static_cast<std::size_t>(e - q)) == nullptr
                 ? step::more
                 : halt();
    }
    a.value_begin = q;
    a.value_end = end;
    raw_.push_back(a);
    q = end + 1;
  }
  // element_pos() in xml_reader.cpp, applied to libxml2's input at `cur`.
  advance(mark_, p);
  mark_ = p;
  plain_since_mark_ = cur == name_end;
  if (plain_since_mark_) {
    // '<' and an ASCII name: one line, a byte per character.
    tag_at_ = {line_, column_};
  } else if (std::memchr(p, '\n', static_cast<std::size_t>(cur - p)) ==
             nullptr) {
    const std::uint64_t col = column_ + chars(p, cur);
    const auto back = static_cast<std::uint64_t>(cur - p);
    tag_at_ = {line_, col > back ? col - back : 1};
  } else {
    if (line_bytes_ >= kept_before_tag) return halt();
    tag_at_ = {line_, line_bytes_ + 1};
  }
  if (raw_.empty() && prefix.empty() ? !emit_plain_start(local, empty)
                                     : !emit_start(qname, prefix, local, empty))
    return halt();
  p = q;
  return stopped_ ? step::stop : step::done;
}

bool xml_scanner::emit_start(std::string_view qname, std::string_view prefix,
                             std::string_view local, bool empty) {
  if (open_.size() >= max_depth) return false;
  const std::size_t mark = bindings_.size();
  // Namespace declarations first: they apply to the element's own name and
  // attributes. libxml2 passes them apart (not as attributes).
  std::size_t plain_attributes = 0;
  for (const raw_attribute& a : raw_) {
    const bool default_ns = a.prefix.empty() && a.local == "xmlns";
    if (!default_ns && a.prefix != "xmlns") {
      ++plain_attributes;
      continue;
    }
    const std::string_view value(
        a.value_begin, static_cast<std::size_t>(a.value_end - a.value_begin));
    if (default_ns ? !value.empty() && !plain_absolute_uri(value)
                   : !plain_absolute_uri(value) || a.local == "xml" ||
                         a.local == "xmlns")
      return false;
    if (value == xml_namespace || value == xmlns_namespace) return false;
    const char* bound = default_ns ? nullptr : intern(a.local);
    if (!default_ns && bound == nullptr) return false;
    for (std::size_t k = mark; k < bindings_.size(); ++k)
      if (bindings_[k].prefix == bound) return false;  // declared twice
    const char* uri = value.empty() ? nullptr : intern(value);
    if (!value.empty() && uri == nullptr) return false;
    bindings_.push_back({bound, uri});
  }
  if (bindings_.size() != mark) default_uri_ = lookup(nullptr);
  const char* element_prefix = nullptr;
  const char* element_uri = nullptr;
  if (prefix.empty()) {
    element_uri = default_uri_;
  } else {
    element_prefix = intern(prefix);
    if (element_prefix == nullptr || element_prefix == xml_prefix_ ||
        prefix == "xmlns")
      return false;
    element_uri = lookup(element_prefix);
    if (element_uri == nullptr) return false;  // undeclared prefix
  }
  const char* element_local = intern(local);
  const char* element_qname = empty            ? nullptr
                              : prefix.empty() ? element_local
                                               : intern(qname);
  if (element_local == nullptr || (!empty && element_qname == nullptr))
    return false;

  attributes_.clear();
  if (values_.size() < plain_attributes) values_.resize(plain_attributes);
  std::size_t v = 0;
  for (const raw_attribute& a : raw_) {
    if ((a.prefix.empty() && a.local == "xmlns") || a.prefix == "xmlns")
      continue;
    const char* ap = nullptr;
    const char* auri = nullptr;
    if (!a.prefix.empty()) {
      ap = intern(a.prefix);
      // libxml2 judges xml:space's value (and warns): its to read.
      if (ap == nullptr || (ap == xml_prefix_ && a.local == "space"))
        return false;
      auri = ap == xml_prefix_ ? xml_ns_ : lookup(ap);
      if (auri == nullptr) return false;
    }
    const char* al = intern(a.local);
    if (al == nullptr) return false;
    // libxml2 refuses an attribute twice, by name or by namespace.
    for (std::size_t k = 0; k < attributes_.size(); k += 5) {
      const auto* other_local = attributes_[k];
      const auto* other_prefix = attributes_[k + 1];
      const auto* other_uri = attributes_[k + 2];
      if (other_local == reinterpret_cast<const uchar*>(al) &&
          (other_prefix == reinterpret_cast<const uchar*>(ap) ||
           (auri != nullptr &&
            other_uri == reinterpret_cast<const uchar*>(auri))))
        return false;
    }
    bool copy = false;
    std::string& value = values_[v++];
    if (!attribute_value(a, value, copy)) return false;
    attributes_.push_back(reinterpret_cast<const uchar*>(al));
    attributes_.push_back(reinterpret_cast<const uchar*>(ap));
    attributes_.push_back(reinterpret_cast<const uchar*>(auri));
    if (copy) {
      attributes_.push_back(reinterpret_cast<const uchar*>(value.c_str()));
      attributes_.push_back(
          reinterpret_cast<const uchar*>(value.c_str() + value.size()));
    } else {
      attributes_.push_back(reinterpret_cast<const uchar*>(a.value_begin));
      attributes_.push_back(reinterpret_cast<const uchar*>(a.value_end));
    }
  }
  if (state_ == state::prolog) state_ = state::content;
  sink_.on_start(reinterpret_cast<const uchar*>(element_local),
                 reinterpret_cast<const uchar*>(element_prefix),
                 reinterpret_cast<const uchar*>(element_uri),
                 static_cast<int>(attributes_.size() / 5), attributes_.data());
  if (stopped_) return true;
  if (empty) {
    sink_.on_end();
    unbind(mark);
    if (open_.empty()) state_ = state::epilog;
  } else {
    open_.push_back({element_qname, static_cast<std::uint32_t>(qname.size()),
                     static_cast<std::uint32_t>(mark)});
  }
  return true;
}

bool xml_scanner::emit_plain_start(std::string_view name, bool empty) {
  // emit_start() for a tag without attributes or prefix: no bindings.
  if (open_.size() >= max_depth) return false;
  const char* local = intern(name);
  if (local == nullptr) return false;
  attributes_.clear();
  if (state_ == state::prolog) state_ = state::content;
  sink_.on_start(reinterpret_cast<const uchar*>(local), nullptr,
                 reinterpret_cast<const uchar*>(default_uri_), 0,
                 attributes_.data());
  if (stopped_) return true;
  if (empty) {
    sink_.on_end();
    if (open_.empty()) state_ = state::epilog;
  } else {
    open_.push_back({local, static_cast<std::uint32_t>(name.size()),
                     static_cast<std::uint32_t>(bindings_.size())});
  }
  return true;
}

bool xml_scanner::attribute_value(const raw_attribute& a, std::string& out,
                                  bool& copy) {
  const char* s = a.value_begin;
  const char* e = a.value_end;
  const char* f = s;
  while (f < e && static_cast<uchar>(*f) >= 0x20 &&
         static_cast<uchar>(*f) < 0x80 && *f != '&' && *f != '<')
    ++f;
  if (f == e) return true;  // libxml2's fast path: the input itself
  // libxml2's xmlParseAttValueComplex: a copy, TAB and LF as spaces,
  // references resolved, and '&' written as "&#38;" (entities are not
  // substituted).
  copy = true;
  out.assign(s, static_cast<std::size_t>(f - s));
  while (f < e) {
    const auto c = static_cast<uchar>(*f);
    if (c == '&') {
      const char* next = f;
      const std::uint32_t v = reference(f, e, next);
      if (v == 0) return false;
      if (v == '&') {
        out += "&#38;";
      } else {
        append_utf8(static_cast<char32_t>(v), out);
      }
      f = next;
    } else if (c == '<') {
      return false;
    } else if (c == '\t' || c == '\n') {
      out += ' ';
      ++f;
    } else if (c < 0x20) {
      return false;
    } else if (c >= 0x80) {
      const std::size_t n = wide_char(f, e);
      if (n == 0) return false;
      out.append(f, n);
      f += n;
    } else {
      out += static_cast<char>(c);
      ++f;
    }
  }
  return true;
}

xml_scanner::step xml_scanner::end_tag(const char*& p, const char* e) {
  const char* name = open_.back().qname;
  const std::size_t n = open_.back().qname_size;
  const char* q = p + 2;
  if (static_cast<std::size_t>(e - q) <= n) return step::more;
  if (!same_bytes(q, name, n)) return halt();
  q += n;
  if (q < e && *q != '>') {
    plain_since_mark_ = false;
    while (q < e && is_space(*q)) ++q;
  }
  if (q >= e) return step::more;
  if (*q != '>') return halt();
  const char* gt = q;
  sink_.on_end();
  unbind(open_.back().bindings);
  open_.pop_back();
  if (open_.empty()) state_ = state::epilog;
  p = gt + 1;
  return stopped_ ? step::stop : step::done;
}

xml_scanner::step xml_scanner::text(const char*& p, const char* e) {
  // One pass to the '<' that ends the text, checking the characters on the
  // way (sixteen plain bytes at a time); the rare ']' and '&' are noted and
  // read once the end is known.
  const char *amp = nullptr, *bracket = nullptr, *s = p;
  // Line ends are counted here, where the bytes are read anyway.
  std::uint64_t lines = 0;
  const char* last_nl = nullptr;
  bool wide = false;  // a byte above 0x7F after the last LF
  // A byte that is not a character: libxml2's to read once the text ends
  // (a halt), or bytes still to come when it does not end in these.
  const auto bad = [&] {
    return std::memchr(s, '<', static_cast<std::size_t>(e - s)) == nullptr
               ? step::more
               : halt();
  };
  for (;;) {
    s = text_stop(s, e);
    if (s == e) return step::more;
    const auto c = static_cast<uchar>(*s);
    if (c == '<') break;
    if (c == '&') {
      if (amp == nullptr) amp = s;
      ++s;
    } else if (c == ']') {
      if (bracket == nullptr) bracket = s;
      ++s;
    } else if (c == '\t') {
      ++s;
    } else if (c == '\n') {
      ++lines;
      last_nl = s;
      wide = false;
      ++s;
    } else if (c >= 0x80) {
      // A character cannot hold a '<': one whole before `e` ends before it.
      const std::size_t n = wide_char(s, e);
      if (n == 0) return bad();
      wide = true;
      s += n;
    } else {
      return bad();  // a control character, or CR
    }
  }
  const char* lt = s;
  for (s = bracket; s != nullptr; ++s) {
    s = static_cast<const char*>(
        std::memchr(s, ']', static_cast<std::size_t>(lt - s)));
    if (s == nullptr) break;
    if (lt - s >= 3 && s[1] == ']' && s[2] == '>') return halt();
  }
  const auto deliver = [&](const char* b, const char* end) {
    if (end > b)
      sink_.on_characters(reinterpret_cast<const uchar*>(b),
                          static_cast<int>(end - b), false);
    return !stopped_;
  };
  // libxml2 hands each reference's character over on its own; a text
  // without one goes over whole, as it lies in the input.
  const char* run = p;
  for (s = amp; s != nullptr;) {
    const auto a = static_cast<const char*>(
        std::memchr(s, '&', static_cast<std::size_t>(lt - s)));
    if (a == nullptr) break;
    const char* next = a;
    const std::uint32_t v = reference(a, lt, next);
    if (v == 0 || !deliver(run, a)) return halt();
    std::string one;
    append_utf8(static_cast<char32_t>(v), one);
    if (!deliver(one.data(), one.data() + one.size())) return halt();
    s = run = next;
  }
  if (!deliver(run, lt)) return halt();
  if (lines != 0) {
    advance(mark_, p);
    line_ += lines;
    line_bytes_ = static_cast<std::uint64_t>(lt - last_nl - 1);
    column_ = 1 + (wide ? chars(last_nl + 1, lt) : line_bytes_);
    mark_ = lt;
    plain_since_mark_ = true;
  } else if (wide) {
    plain_since_mark_ = false;
  }
  p = lt;
  return step::done;
}

xml_scanner::step xml_scanner::comment(const char*& p, const char* e) {
  const char* body = p + 4;
  const auto dashes = static_cast<const char*>(
      memmem(body, static_cast<std::size_t>(e - body), "--", 2));
  if (dashes == nullptr || dashes + 2 >= e) return step::more;
  if (dashes[2] != '>' || !plain_chars(body, dashes)) return halt();
  p = dashes + 3;
  return step::done;
}

xml_scanner::step xml_scanner::pi(const char*& p, const char* e) {
  const auto end = static_cast<const char*>(
      memmem(p + 2, static_cast<std::size_t>(e - p - 2), "?>", 2));
  if (end == nullptr) return step::more;
  const char* q = p + 2;
  if (q >= end || !name_start(*q)) return halt();
  while (q < end && name_char(*q)) ++q;
  const std::string_view target(p + 2, static_cast<std::size_t>(q - p - 2));
  // libxml2 refuses "xml" in any case past the start, and warns about any
  // other name starting with it but the W3C's two.
  if (istarts_with(target, "xml") && target != "xml-stylesheet" &&
      target != "xml-model")
    return halt();
  if (q < end && !is_space(*q)) return halt();
  if (!plain_chars(q, end)) return halt();
  p = end + 2;
  return step::done;
}

xml_scanner::step xml_scanner::cdata(const char*& p, const char* e) {
  const char* body = p + 9;
  const auto end = static_cast<const char*>(
      memmem(body, static_cast<std::size_t>(e - body), "]]>", 3));
  if (end == nullptr) return step::more;
  if (!plain_chars(body, end)) return halt();
  sink_.on_characters(reinterpret_cast<const uchar*>(body),
                      static_cast<int>(end - body), true);
  // libxml2's push parser steps over a CDATA section byte by byte
  // (SKIPL): its columns there count bytes, not characters.
  advance(mark_, p);
  const char* nl = static_cast<const char*>(
      memrchr(p, '\n', static_cast<std::size_t>(end + 3 - p)));
  if (nl != nullptr) {
    line_ += newlines(p, nl + 1);
    column_ = 1;
    line_bytes_ = 0;
    p = nl + 1;
  }
  column_ += static_cast<std::uint64_t>(end + 3 - p);
  line_bytes_ += static_cast<std::uint64_t>(end + 3 - p);
  mark_ = end + 3;
  plain_since_mark_ = true;
  p = end + 3;
  return stopped_ ? step::stop : step::done;
}

const char* xml_scanner::intern_slow(std::string_view s) {
  const std::uint32_t h = name_hash(s);
  if (table_.empty()) table_.resize(64);
  const std::size_t mask = table_.size() - 1;
  std::size_t i = h & mask;
  for (; table_[i].text != nullptr; i = (i + 1) & mask) {
    const interned& t = table_[i];
    if (t.hash == h && t.size == s.size() &&
        same_bytes(t.text, s.data(), s.size()))
      return t.text;
  }
  if (strings_.size() >= max_interned ||
      interned_bytes_ + s.size() > max_interned_bytes)
    return nullptr;
  auto copy = std::make_unique<char[]>(s.size() + 1);
  std::memcpy(copy.get(), s.data(), s.size());
  copy[s.size()] = 0;
  const char* stable = copy.get();
  strings_.push_back(std::move(copy));
  interned_bytes_ += s.size() + 1;
  table_[i] = {stable, static_cast<std::uint32_t>(s.size()), h};
  if (strings_.size() * 2 > table_.size()) {
    // Half full: twice the slots, each entry placed again.
    std::vector<interned> old(table_.size() * 2);
    old.swap(table_);
    const std::size_t m = table_.size() - 1;
    for (const interned& t : old) {
      if (t.text == nullptr) continue;
      std::size_t k = t.hash & m;
      while (table_[k].text != nullptr) k = (k + 1) & m;
      table_[k] = t;
    }
  }
  return stable;
}

void xml_scanner::unbind_slow(std::size_t mark) {
  bindings_.resize(mark);
  default_uri_ = lookup(nullptr);
}

const char* xml_scanner::lookup(const char* prefix) const {
  for (std::size_t k = bindings_.size(); k-- > 0;)
    if (bindings_[k].prefix == prefix) return bindings_[k].uri;
  return nullptr;
}

}  // namespace sitemill::detail
