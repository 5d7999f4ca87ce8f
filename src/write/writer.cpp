#include "sitemill/write/writer.h"

#include <array>
#include <cstring>
#include <utility>

#include "sitemill/write/xml_escape.h"

namespace sitemill {

std::string_view to_string(document_type type) noexcept {
  switch (type) {
    case document_type::urlset:
      return "urlset";
    case document_type::sitemapindex:
      return "sitemapindex";
    case document_type::text:
      return "text";
    case document_type::stylesheet:
      return "stylesheet";
    case document_type::html:
      return "html";
  }
  return "";
}

namespace {

// Bytes gathered before one sink write: big enough to amortise the call,
// small enough to stay in cache.
constexpr std::size_t flush_threshold = 256 * 1024;

constexpr std::string_view xml_declaration =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

// Bytes of a file held back before its header is written, so that the
// namespaces its first entries use are declared on its root. Past this, an
// entry that needs an undeclared namespace starts a new file. 4 MiB holds
// a whole file of typical 80-byte entries (50,000 URLs), so a set that mixes
// plain and image entries is split by the limits, not by its namespaces; it
// is a constant per open writer, so memory stays flat. A caller that knows
// what its entries use says so (expect_uses()) and nothing is held.
constexpr std::size_t header_hold = 4 * 1024 * 1024;

// ' xmlns:image="..."' for each extension in `m`, in extension_kind order.
std::string declarations(extension_mask m) {
  std::string d;
  for (std::size_t k = 0; k < extension_kind_count; ++k) {
    const auto kind = static_cast<extension_kind>(k);
    if ((m & mask_of(kind)) == 0) continue;
    const extension_namespace& ns = namespace_of(kind);
    d += " xmlns:";
    d += ns.prefix;
    d += "=\"";
    d += ns.uri;
    d += '"';
  }
  return d;
}

// declarations(m).size(), without building the text (once per entry).
std::size_t declarations_size(extension_mask m) {
  static const auto sizes = [] {
    std::array<std::size_t, extension_kind_count> a{};
    for (std::size_t k = 0; k < a.size(); ++k)
      a[k] = declarations(mask_of(static_cast<extension_kind>(k))).size();
    return a;
  }();
  std::size_t n = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k)
    if ((m & (1u << k)) != 0) n += sizes[k];
  return n;
}

std::string make_header(std::string_view root, const std::string& xsl) {
  std::string h(xml_declaration);
  if (!xsl.empty()) {
    h += "<?xml-stylesheet type=\"text/xsl\" href=\"";
    append_xml_escaped(h, xsl);
    h += "\"?>\n";
  }
  h += '<';
  h += root;
  h += " xmlns=\"";
  h += sitemap_namespace;
  h += '"';
  h += ">\n";
  return h;
}

// <lastmod>, as a <url> and a <sitemap> write it.
void append_lastmod(std::string& out, const w3c_datetime& lastmod) {
  char buf[max_lastmod_length];
  out += "<lastmod>";
  out.append(buf, format_lastmod(lastmod, buf));
  out += "</lastmod>";
}

}  // namespace

namespace detail {

// The rotation and byte accounting both writers share: entries are
// serialised straight into the pending buffer, measured, and moved into a
// fresh file when they would push the current one past a limit.
//
// A file declares the extension namespaces its entries use, on its root
// element: its first bytes stay in the buffer (up to header_hold) until
// they are known, and the declarations are counted like any other byte.
// Once the caller has said what the entries use (expect_uses()), each file
// declares that at once and its bytes go out every flush_threshold.
class document_core {
 public:
  document_core(std::size_t max_entries, std::size_t max_bytes,
                std::string header, std::string footer, sink_factory make_sink)
      : max_entries_(max_entries),
        max_bytes_(max_bytes),
        header_(std::move(header)),
        footer_(std::move(footer)),
        make_sink_(std::move(make_sink)) {
    pending_.reserve(flush_threshold + 4096);
  }

  // Call with pending() holding, from `mark` on, the entry just serialised,
  // which uses the extensions in `uses`.
  add_status commit(std::size_t mark,
                    const std::optional<w3c_datetime>& lastmod,
                    extension_mask uses = 0) {
    const std::size_t size = pending_.size() - mark;
    if (!error_.empty()) {
      pending_.resize(mark);
      return add_status::failed;
    }
    // Most entries use no extension, or only what their file declares: the
    // declarations are measured only when something new is needed.
    const extension_mask fresh = open_ ? uses & ~declared_ : uses;
    const std::size_t fresh_bytes = fresh != 0 ? declarations_size(fresh) : 0;
    if (header_.size() + (uses != 0 ? declarations_size(uses) : 0) + size +
            footer_.size() >
        max_bytes_) {
      pending_.resize(mark);
      return add_status::too_large;
    }
    if (!open_ || entries_ + 1 > max_entries_ ||
        (fresh != 0 && header_final()) ||
        file_bytes_ + fresh_bytes + size + footer_.size() > max_bytes_) {
      scratch_.assign(pending_, mark, size);
      pending_.resize(mark);
      if (open_ && !close_file()) return add_status::failed;
      if (!open_file()) return add_status::failed;
      pending_ += scratch_;
    }
    if ((uses & ~declared_) != 0) declare(uses);
    file_bytes_ += size;
    ++entries_;
    if (lastmod) {
      const std::int64_t at = lastmod->unix_seconds();
      if (!newest_ || at > newest_at_ ||
          (at == newest_at_ && lastmod->nanos > newest_->nanos)) {
        newest_ = lastmod;
        newest_at_ = at;
      }
    }
    if (pending_.size() >= (header_final() ? flush_threshold : header_hold) &&
        !flush())
      return add_status::failed;
    return add_status::added;
  }

  // The entries to come use at most `uses`: the next files declare it at
  // once, and so does the current one while its header is still here.
  void expect_uses(extension_mask uses) {
    expected_ = uses;
    if (open_ && !header_written_ && (uses & ~declared_) != 0) declare(uses);
  }

  status finish() {
    if (!error_.empty()) return error{error_};
    if (open_ && !close_file()) return error{error_};
    return {};
  }

  std::string& pending() noexcept { return pending_; }
  const std::vector<part_info>& parts() const noexcept { return parts_; }
  const std::string& error_message() const noexcept { return error_; }

 private:
  bool fail(const status& s) {
    error_ = s.message();
    sink_.reset();
    open_ = false;
    return false;
  }

  bool open_file() {
    auto made = make_sink_(parts_.size());
    if (!made) return fail(made.err());
    sink_ = std::move(*made);
    open_ = true;
    entries_ = 0;
    newest_.reset();
    declared_ = 0;
    header_written_ = false;
    pending_ += header_;
    file_bytes_ = header_.size();
    if (expected_ && *expected_ != 0) declare(*expected_);
    return true;
  }

  // Whether the root start tag can no longer change: it reached the sink,
  // or it declares all that the caller said the entries use. An entry that
  // needs more then starts a new file.
  bool header_final() const noexcept {
    return header_written_ || expected_.has_value();
  }

  // Adds the namespaces of `uses` to the root start tag, still in the
  // buffer, keeping the declarations in extension_kind order.
  void declare(extension_mask uses) {
    const std::size_t at = header_.size() - 2;  // before ">\n"
    const std::size_t old_size = declarations(declared_).size();
    declared_ |= uses;
    const std::string now = declarations(declared_);
    pending_.replace(at, old_size, now);
    file_bytes_ += now.size() - old_size;
  }

  bool flush() {
    if (pending_.empty()) return true;
    header_written_ = true;
    status s = sink_->write(pending_.data(), pending_.size());
    pending_.clear();
    return s ? true : fail(s);
  }

  bool close_file() {
    pending_ += footer_;
    file_bytes_ += footer_.size();
    if (!flush()) return false;
    if (status s = sink_->close(); !s) return fail(s);
    sink_.reset();
    open_ = false;
    parts_.push_back({entries_, file_bytes_, newest_});
    return true;
  }

  const std::size_t max_entries_;
  const std::size_t max_bytes_;
  const std::string header_;
  const std::string footer_;
  sink_factory make_sink_;

  std::string pending_;  // bytes of the current file not yet given to the sink
  std::string scratch_;  // an entry moving to the next file
  std::unique_ptr<sink> sink_;
  bool open_ = false;
  extension_mask declared_ = 0;  // namespaces the current file declares
  bool header_written_ = false;  // its root start tag reached the sink
  // What the caller said the entries to come use (expect_uses()).
  std::optional<extension_mask> expected_;
  std::size_t entries_ = 0;
  std::uint64_t file_bytes_ = 0;
  std::optional<w3c_datetime> newest_;
  std::int64_t newest_at_ =
      0;  // newest_->unix_seconds(), kept to compare once per entry
  std::vector<part_info> parts_;
  std::string error_;
};

}  // namespace detail

// --- sitemap_writer
// ------------------------------------------------------------

struct sitemap_writer::impl {
  document_type type;
  detail::document_core core;

  impl(writer_options&& o, sink_factory&& f)
      : type(o.type),
        core(o.max_urls, o.max_bytes,
             o.type == document_type::text ? std::string()
                                           : make_header("urlset", o.xsl_href),
             o.type == document_type::text ? std::string()
                                           : std::string("</urlset>\n"),
             std::move(f)) {}
};

sitemap_writer::sitemap_writer(writer_options options, sink_factory make_sink)
    : impl_(std::make_unique<impl>(std::move(options), std::move(make_sink))) {}

sitemap_writer::~sitemap_writer() = default;

namespace {

// Copies a literal's bytes (its NUL left out); constant sizes compile to a
// few stores.
template <std::size_t N>
char* put(char* p, const char (&text)[N]) noexcept {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}
char* put(char* p, std::string_view text) noexcept {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// The bytes after <loc>'s text up to the extensions, and "</url>\n" when
// nothing follows, with every field at its longest ("monthly" the longest
// changefreq).
constexpr std::size_t core_tail_bytes =
    sizeof "</loc><lastmod></lastmod>" - 1 + max_lastmod_length +
    sizeof "<changefreq>monthly</changefreq>" - 1 +
    sizeof "<priority></priority>" - 1 + 2 + priority::max_fraction_digits +
    sizeof "</url>\n" - 1;

}  // namespace

void append_entry(std::string& out, const url_entry& e, document_type type,
                  std::size_t* extensions_at) {
  if (type == document_type::text) {
    // Text sitemaps carry the URL alone, percent-encoded, never
    // entity-escaped.
    out += e.loc;
    out += '\n';
    return;
  }
  out += "<url><loc>";
  append_xml_escaped(out, e.loc);
  // The rest of the core fields is built on the stack and appended once:
  // one append instead of one per tag.
  char tail[core_tail_bytes];
  char* p = put(tail, "</loc>");
  if (e.lastmod) {
    p = put(p, "<lastmod>");
    p += format_lastmod(*e.lastmod, p);
    p = put(p, "</lastmod>");
  }
  if (e.freq != changefreq::unset) {
    p = put(p, "<changefreq>");
    p = put(p, to_string(e.freq));
    p = put(p, "</changefreq>");
  }
  if (e.prio) {
    p = put(p, "<priority>");
    p = put(p, e.prio->text());
    p = put(p, "</priority>");
  }
  if (e.extensions.empty() && e.foreign_xml.empty()) {
    if (extensions_at != nullptr)
      *extensions_at = out.size() + static_cast<std::size_t>(p - tail);
    p = put(p, "</url>\n");
    out.append(tail, p);
    return;
  }
  out.append(tail, p);
  if (extensions_at != nullptr) *extensions_at = out.size();
  if (!e.extensions.empty()) append_extensions(out, e.extensions);
  out += e.foreign_xml;  // the parser's own serialisation, counted as any byte
  out += "</url>\n";
}

add_status sitemap_writer::add(const url_entry& e) {
  std::string& out = impl_->core.pending();
  const std::size_t mark = out.size();
  append_entry(out, e, impl_->type);
  if (impl_->type == document_type::text)
    return impl_->core.commit(mark, std::nullopt);
  return impl_->core.commit(mark, e.lastmod, extensions_used(e.extensions));
}

add_status sitemap_writer::add_serialized(
    std::string_view bytes, const std::optional<w3c_datetime>& lastmod,
    extension_mask uses) {
  std::string& out = impl_->core.pending();
  const std::size_t mark = out.size();
  out += bytes;
  if (impl_->type == document_type::text)
    return impl_->core.commit(mark, std::nullopt);
  return impl_->core.commit(mark, lastmod, uses);
}

void sitemap_writer::expect_uses(extension_mask uses) {
  if (impl_->type != document_type::text) impl_->core.expect_uses(uses);
}

status sitemap_writer::finish() { return impl_->core.finish(); }
const std::vector<part_info>& sitemap_writer::parts() const noexcept {
  return impl_->core.parts();
}
const std::string& sitemap_writer::error() const noexcept {
  return impl_->core.error_message();
}

// --- index_writer
// ----------------------------------------------------------------

struct index_writer::impl {
  detail::document_core core;
  impl(sink_factory&& f, std::size_t max_entries, std::size_t max_bytes,
       const std::string& xsl)
      : core(max_entries, max_bytes, make_header("sitemapindex", xsl),
             "</sitemapindex>\n", std::move(f)) {}
};

index_writer::index_writer(sink_factory make_sink, std::size_t max_entries,
                           std::size_t max_bytes, std::string xsl_href)
    : impl_(std::make_unique<impl>(std::move(make_sink), max_entries, max_bytes,
                                   xsl_href)) {}

index_writer::~index_writer() = default;

add_status index_writer::add(const index_entry& e) {
  std::string& out = impl_->core.pending();
  const std::size_t mark = out.size();
  out += "<sitemap><loc>";
  append_xml_escaped(out, e.loc);
  out += "</loc>";
  if (e.lastmod) append_lastmod(out, *e.lastmod);
  out += "</sitemap>\n";
  // The index's own newest lastmod is not used; entries carry their files'.
  return impl_->core.commit(mark, std::nullopt);
}

status index_writer::finish() { return impl_->core.finish(); }
const std::vector<part_info>& index_writer::parts() const noexcept {
  return impl_->core.parts();
}
const std::string& index_writer::error() const noexcept {
  return impl_->core.error_message();
}

}  // namespace sitemill
