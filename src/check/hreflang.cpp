// The cross-set hreflang findings (hreflang_set.h), once every document is
// read. Only fingerprints were kept, so the URLs a listed finding names are
// read again from the documents it concerns: a second pass over those
// documents alone, with extraction only, which costs a re-read of a few
// files where keeping every URL as text would cost memory on every run.
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "check/checker.h"
#include "detail/text.h"

namespace sitemill::detail {
namespace {

// Collects the text of the URLs wanted, and the line of each wanted page's
// entry, from one document read again.
struct name_pass final : parse_handler {
  const std::unordered_set<std::uint64_t>* pages = nullptr;
  const std::unordered_set<std::uint64_t>* targets = nullptr;
  std::unordered_map<std::uint64_t, std::string>* names = nullptr;
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>
      at;  // page -> line, column of its <url>

  void on_entry(const parsed_entry& e) override {
    if (!e.loc.present) return;
    const std::uint64_t page = hreflang_set::fingerprint(e.loc.text);
    if (!pages->contains(page)) return;
    at.try_emplace(page, e.line, e.column);
    names->try_emplace(page, trim(e.loc.text));
    const auto fields = extension_fields();
    for (const extension_value& v : e.extensions) {
      if (fields[v.field].kind != extension_kind::alternate ||
          fields[v.field].key != "@href")
        continue;
      const std::uint64_t target = hreflang_set::fingerprint(v.text);
      if (targets->contains(target)) names->try_emplace(target, trim(v.text));
    }
  }
};

std::string quoted(const std::unordered_map<std::uint64_t, std::string>& names,
                   std::uint64_t fp, std::string_view otherwise) {
  const auto it = names.find(fp);
  if (it == names.end()) return std::string(otherwise);
  return quote_text(it->second);
}

}  // namespace

bool checker::reread(std::uint32_t doc, parse_handler& handler) {
  const hreflang_source& src = hreflang_docs_[doc];
  if (src.withdrawn || walker_.stopped()) return false;
  parse_options po = options_.parse;
  po.schema_checks = false;
  if (!src.url.empty()) return walker_.reread(src.url, handler, po).ok;
  if (src.path.starts_with("s3://"))  // an object of a bucket
    return walker_.reread(src.path, handler, po).ok;
  if (src.path.empty() || src.path == "-") return false;  // stdin: read once
  const result<parse_summary> r = parse_file(src.path, handler, po);
  return r.has_value() && r->complete;
}

void checker::report_hreflang() {
  const std::vector<hreflang_set::finding> found = hreflang_.judge();
  if (found.empty()) return;

  // Per document: its findings in order, the first max_listed of each kind
  // named (the rest are counted by the diagnostic_list as usual).
  struct per_doc {
    std::vector<const hreflang_set::finding*> findings;
    std::unordered_set<std::uint64_t> pages, targets;
    std::size_t listed[2] = {0, 0};
  };
  std::unordered_map<std::uint32_t, per_doc> docs;
  for (const auto& f : found) {
    per_doc& d = docs[f.doc];
    d.findings.push_back(&f);
    std::size_t& n = d.listed[static_cast<std::size_t>(f.what)];
    if (n++ >= options_.max_listed_per_code) continue;
    d.pages.insert(f.page);
    d.targets.insert(f.target);
    if (f.what == hreflang_set::finding::kind::conflict) {
      per_doc& other = docs[f.other_doc];
      other.pages.insert(f.other_page);
      other.targets.insert(f.other_target);
    }
  }

  std::unordered_map<std::uint64_t, std::string> names;
  std::unordered_map<
      std::uint32_t,
      std::unordered_map<std::uint64_t,
                         std::pair<std::uint64_t, std::uint64_t>>>
      where;
  for (auto& [doc, d] : docs) {
    if (d.pages.empty()) continue;
    name_pass pass;
    pass.pages = &d.pages;
    pass.targets = &d.targets;
    pass.names = &names;
    (void)reread(doc, pass);  // what it found is used even when cut short
    where[doc] = std::move(pass.at);
  }

  for (auto& [doc, d] : docs) {
    if (d.findings.empty() || hreflang_docs_[doc].withdrawn) continue;
    diagnostic_list list(options_.max_listed_per_code);
    for (const hreflang_set::finding* f : d.findings) {
      std::uint64_t line = 0, column = 0;
      if (const auto w = where[doc].find(f->page); w != where[doc].end())
        std::tie(line, column) = w->second;
      const std::string page = quoted(names, f->page, "");
      const std::string target = quoted(names, f->target, "");
      const std::string lang = quote_text(hreflang_.language(f->language));
      if (page.empty() || target.empty()) {
        // Not read again (stdin is read once, or the second read failed).
        const bool no_return =
            f->what == hreflang_set::finding::kind::no_return;
        list.add(severity::error,
                 no_return ? "hreflang-no-return" : "hreflang-conflict", line,
                 column,
                 std::string("a page of this document names a ") + lang +
                     (no_return ? " alternate that, a page of this check, "
                                  "does not name it back"
                                : " alternate that another page of its "
                                  "cluster names differently") +
                     "; the URLs could not be read again to name them (a "
                     "document from stdin is read once): check the file by "
                     "its path to see them");
      } else if (f->what == hreflang_set::finding::kind::no_return) {
        list.add_lazy(severity::error, "hreflang-no-return", line, column, [&] {
          return page + " names " + target + " as its " + lang +
                 " alternate, but " + target +
                 ", a page of this check, does not name " + page +
                 " back: search engines ignore an alternate that is not "
                 "returned. Add <xhtml:link rel=\"alternate\" hreflang=\"(its "
                 "language)\" href=" +
                 page + "/> to the <url> of " + target +
                 " (or remove this link)";
        });
      } else {
        list.add_lazy(severity::error, "hreflang-conflict", line, column, [&] {
          return page + " names " + target + " for " + lang + ", but " +
                 quoted(names, f->other_page, "another page") + " names " +
                 quoted(names, f->other_target, "another URL") +
                 " for it in the same cluster (the pages joined by their "
                 "hreflang links): a cluster has one URL per language; make "
                 "every page name the same one";
        });
      }
    }
    list.add_into(report_.documents[hreflang_docs_[doc].slot]);
  }
}

}  // namespace sitemill::detail
