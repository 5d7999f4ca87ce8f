#include "generate/cluster_stage.h"

#include <limits>
#include <utility>

#include "sitemill/write/xml_escape.h"

namespace sitemill::detail {

status cluster_stage::park(const record_batch& b, std::size_t i,
                           std::uint32_t section, std::uint64_t deferred,
                           const std::string& where) {
  const auto& rec = b.records[i];
  const auto& res = b.results[i];
  const bool has_links = res.links_begin != res.links_end;
  // A cluster's pages hash to different shards, and each page must list
  // them all: no shard could complete it alone.
  if (has_links && sharded_)
    return error{
        "`shard`: " + where + ":" + std::to_string(rec.line) +
            ": hreflang alternates need every page of a cluster in one "
            "run, and shards split them; generate a multilingual site as "
            "one process",
        "shard"};
  if (has_links && !clustering_) {
    if (status s = start_clustering(); !s) return s;
  } else if (!spool_) {
    if (status s = open_spool(); !s) return s;
  }
  const std::string_view xml =
      std::string_view(b.xml).substr(res.xml_offset, res.xml_length);
  // Only clusters look entries up by loc; a spool of deferred entries
  // alone does without it.
  const std::string_view loc =
      clustering_ ? loc_of(xml, loc_) : std::string_view();
  links_.clear();
  if (has_links) {
    for (std::uint32_t k = res.links_begin; k < res.links_end; ++k) {
      const auto& l = b.links[k];
      links_.push_back({b.text_at(l.hreflang_offset, l.hreflang_length),
                        b.text_at(l.href_offset, l.href_length)});
    }
    // Its page number is its place in the spool, where its issues are
    // reported from (write_parked()).
    if (spool_->entries() >= std::numeric_limits<std::uint32_t>::max())
      return error{
          "more than 4,294,967,295 entries wait for their hreflang "
          "clusters: split the input"};
    // A deferred page joins its cluster once it is known to be written
    // (join_deferred_pages()); its links wait with it.
    if (deferred == spooled_entry::not_deferred)
      clusters_.add_page(
          loc, links_,
          static_cast<hreflang_clusters::page_number>(spool_->entries()));
  }
  spooled_entry spooled;
  spooled.loc = loc;
  spooled.xml = xml;
  spooled.links_at = res.links_at;
  spooled.lastmod = res.lastmod;
  spooled.uses = res.uses;
  spooled.news_published = res.news_published;
  spooled.input = static_cast<std::uint32_t>(b.input);
  spooled.line = rec.line;
  spooled.set = res.set;
  spooled.section = section;
  spooled.fingerprint = res.key.fingerprint;
  spooled.deferred = deferred;
  if (deferred != spooled_entry::not_deferred) spooled.links = links_;
  return spool_->add(spooled);
}

status cluster_stage::start_clustering() {
  // Entries the writers parked with their deferral come back first, in the
  // order they came, with the entries parked beside them: they have to wait
  // here until their duplicate checks are resolved.
  std::optional<entry_spool> given_back;
  for (std::uint32_t set = 0; set < run_.sets(); ++set) {
    auto back = [&](std::string_view record, std::uint32_t section) -> status {
      if (!given_back) {
        auto spool = entry_spool::create(run_.temp_path("given-back"));
        if (!spool) return spool.err();
        given_back.emplace(std::move(*spool));
      }
      return given_back->add(given_back_entry(record, set, section));
    };
    if (status s = run_.writers(set).give_back(back); !s) return s;
  }
  if (status s = run_.finish_writers(); !s) return s;
  // Entries duplicate detection deferred wait in a spool already: they
  // follow the ones read back, as they followed them in the input.
  std::optional<entry_spool> parked;
  if (spool_) {
    parked.emplace(std::move(*spool_));
    spool_.reset();
  }
  if (status s = open_spool(); !s) return s;
  clustering_ = true;
  for (std::uint32_t set = 0; set < run_.sets(); ++set) {
    for (const auto& [path, section] : run_.writers(set).files())
      if (status s = respool(path, set, section); !s) return s;
    run_.writers(set).restart();
  }
  return follow_with(given_back, parked);
}

// The entries given back by the writers, then the deferred entries of the
// spool, into the new spool. Those given back are the first section's,
// in input order: the ones read before the budget was reached (which had
// no deferral), then deferred ones, whose numbers interleave with the
// spool's; both are merged by their numbers, so that the spool holds its
// deferred entries in input order, as write_parked() asks of them. (An
// unbounded run reads the first section back from its files instead, leaf
// after leaf; either way each final file holds its entries in input order,
// since a leaf of the whole set lies within one leaf of those read back.)
status cluster_stage::follow_with(std::optional<entry_spool>& given_back,
                                  std::optional<entry_spool>& parked) {
  for (std::optional<entry_spool>* from : {&given_back, &parked})
    if (*from)
      if (status s = (*from)->rewind(); !s) return s;
  auto next = [](std::optional<entry_spool>& from) {
    return from ? from->next() : std::nullopt;
  };
  std::optional<spooled_entry> a = next(given_back), b = next(parked);
  std::string a_loc, b_loc;  // loc_of()'s scratch for each
  while (a || b) {
    const bool take_a =
        a && (!b || a->deferred == spooled_entry::not_deferred ||
              a->deferred < b->deferred);
    spooled_entry& e = take_a ? *a : *b;
    e.loc = loc_of(e.xml, take_a ? a_loc : b_loc);  // parked without it
    if (status s = spool_->add(e); !s) return s;
    if (take_a)
      a = next(given_back);
    else
      b = next(parked);
  }
  for (std::optional<entry_spool>* from : {&given_back, &parked})
    if (*from && !(*from)->error().empty()) return error{(*from)->error()};
  return {};
}

// A record a set's writers gave back, as the spool keeps it.
spooled_entry cluster_stage::given_back_entry(std::string_view record,
                                              std::uint32_t set,
                                              std::uint32_t section) {
  const parked_entry e = read_parked(record);
  spooled_entry back;
  back.xml = e.xml;
  back.links_at = static_cast<std::uint32_t>(links_at_of(e.xml));
  back.lastmod = e.lastmod;
  back.uses = e.uses;
  back.set = set;
  back.section = section;
  // Parked with the fingerprint outside the record: hashed again.
  back.fingerprint = url_set::hash(loc_of(e.xml, loc_)).fingerprint;
  if (e.deferral) {
    back.input = e.deferral->input;
    back.line = e.deferral->line;
    back.deferred = e.deferral->number;
  }
  return back;
}

layout_spool::filter& cluster_stage::fate_of(std::uint32_t set) {
  while (fates_.size() <= set)
    fates_.push_back(std::make_unique<fate>(
        *this, static_cast<std::uint32_t>(fates_.size())));
  return *fates_[set];
}

// After write_parked() resolved the deferred records, the layout's records
// that carry a deferral and repeat an earlier URL are dropped, as the
// spool's would be. (Before, the writers hold no such record:
// start_clustering() took them back.)
std::uint64_t cluster_stage::fate::most_left_out(std::size_t partition) {
  return stage_.dedup_.repeats_in(partition);
}

status cluster_stage::fate::restart(std::size_t partition) {
  return stage_.dedup_.restart(partition);
}

result<bool> cluster_stage::fate::leaves_out(std::size_t partition,
                                             std::string_view record) {
  const std::optional<parked_deferral> d = parked_deferral_of(record);
  if (!d) return false;
  if (!stage_.resolved_)
    return error{
        "internal: a deferred entry is written before duplicate "
        "detection is resolved"};
  return stage_.dedup_.is_repeat_in(partition, d->number);
}

status cluster_stage::fate::left_out(std::string_view record) {
  cluster_stage& st = stage_;
  const parked_entry e = read_parked(record);
  st.run_.not_written(set_, /*duplicate=*/true);
  st.run_.duplicate(e.deferral->input, e.deferral->line, loc_of(e.xml, st.loc_),
                    st.dedup_.first_position());
  return {};
}

// Once kept, its deferral has done its work: not parked again below.
std::string_view cluster_stage::fate::kept(std::string_view record,
                                           std::string& scratch) {
  return without_deferral(record, scratch);
}

status cluster_stage::open_spool() {
  auto spool = entry_spool::create(run_.temp_path("spool"));
  if (!spool) return spool.err();
  spool_.emplace(std::move(*spool));
  return {};
}

// Reads back a sitemap this run wrote and spools its entries (which are
// valid and carry no hreflang links: they came before the first).
status cluster_stage::respool(const std::string& path, std::uint32_t set,
                              std::uint32_t section) {
  struct reader final : parse_handler {
    cluster_stage* self;
    std::uint32_t set, section;
    status failed;
    void on_entry(const parsed_entry& e) override {
      if (failed)  // until one fails
        failed = self->respool_entry(e, set, section);
    }
  } handler;
  handler.self = this;
  handler.set = set;
  handler.section = section;
  parse_options po;
  po.schema_checks = false;
  auto read = parse_file(path, handler, po);
  if (!read) return read.err();
  if (!read->complete)
    return error{"cannot read back " + path + " to complete hreflang clusters"};
  return handler.failed;
}

status cluster_stage::respool_entry(const parsed_entry& e, std::uint32_t set,
                                    std::uint32_t section) {
  url_entry entry;
  if (builder_.build_loc(e.loc.text, entry).problem != url_problem::ok)
    return error{"cannot read back " + std::string(e.loc.text)};
  builder_.build_fields(e.lastmod.text, e.changefreq.text, e.priority.text,
                        entry, scratch_warnings_);
  builder_.build_extensions(e.extensions, entry, scratch_warnings_);
  entry.foreign_xml = e.foreign_xml;  // what the file holds, written back
  scratch_xml_.clear();
  std::size_t links_at = 0;
  append_entry(scratch_xml_, entry, type_, &links_at);
  spooled_entry spooled;
  spooled.loc = entry.loc;
  spooled.xml = scratch_xml_;
  spooled.links_at = static_cast<std::uint32_t>(links_at);
  spooled.lastmod = entry.lastmod;
  spooled.uses = extensions_used(entry.extensions);
  spooled.news_published = news_publication_date(entry.extensions);
  spooled.set = set;
  spooled.section = section;
  // Read back from a file, it has no key: hashed again, as when read.
  spooled.fingerprint = url_set::hash(entry.loc).fingerprint;
  return spool_->add(spooled);
}

// Deferred entries that repeat an earlier one are dropped here, as they
// would have been when read.
status cluster_stage::write_parked(const std::vector<std::string>& names) {
  if (dedup_.spilling()) {
    if (status s = dedup_.resolve(clustering_); !s) return s;
    resolved_ = true;
  }
  if (!spool_) return {};  // the writers parked every deferred entry
  if (clustering_) {
    if (dedup_.deferred() > 0)
      if (status s = join_deferred_pages(); !s) return s;
    clusters_.resolve(builder_.normalizer(), [this](std::string_view url) {
      return dedup_.contains_in_memory(url) || deferred_pages_.contains(url);
    });
  }
  if (status s = spool_->rewind(); !s) return s;
  hreflang_clusters::page_number page = 0;
  const std::string unknown;  // entries read back from this run's files
  while (auto e = spool_->next()) {
    // A million entries take seconds to write: asked every few thousand.
    if (page % 4096 == 0 && run_.cancelled()) return {};
    const std::string& from =
        e->input < names.size() ? names[e->input] : unknown;
    // Only clusters find issues here (and the std::function costs an
    // allocation per entry).
    if (clustering_)
      clusters_.report_issues(page, [&](std::string message) {
        run_.issue(false, from, e->line, std::move(message));
      });
    ++page;
    if (e->deferred != spooled_entry::not_deferred) {
      auto repeat = dedup_.is_repeat(e->deferred);
      if (!repeat) return repeat.err();
      if (*repeat) {
        run_.not_written(e->set, /*duplicate=*/true);
        run_.duplicate(e->input, e->line, loc_of(e->xml, loc_),
                       dedup_.first_position());
        continue;
      }
    }
    extension_mask uses = e->uses;
    std::string_view xml = e->xml;
    if (clustering_) {
      scratch_xml_.assign(xml.substr(0, e->links_at));
      if (clusters_.append_links(e->loc, scratch_xml_)) {
        uses |= mask_of(extension_kind::alternate);
        scratch_xml_ += xml.substr(e->links_at);
        xml = scratch_xml_;
      }
    }
    set_writers& writers = run_.writers(e->set);
    switch (writers.add(e->section, e->fingerprint, xml, e->lastmod, uses,
                        e->news_published)) {
      case add_status::added:
        break;
      case add_status::too_large:
        run_.not_written(e->set, /*duplicate=*/false);
        run_.issue(true, from, e->line,
                   "the entry for " + std::string(e->loc) +
                       " with its hreflang cluster is larger than "
                       "`max_bytes` allows in one file");
        break;
      case add_status::failed:
        return error{writers.error()};
    }
  }
  if (!spool_->error().empty()) return error{spool_->error()};
  return {};
}

// Deferred entries join their hreflang clusters only now that they are
// known not to repeat an earlier page (whose links won), in spool order, as
// if they had joined when read. Then the clusters learn which of their URLs
// are such pages, which the in-memory set cannot tell them.
status cluster_stage::join_deferred_pages() {
  if (status s = spool_->rewind(); !s) return s;
  hreflang_clusters::page_number page = 0;
  for (; auto e = spool_->next(); ++page) {
    if (e->deferred == spooled_entry::not_deferred || e->links.empty())
      continue;
    auto repeat = dedup_.is_repeat(e->deferred);
    if (!repeat) return repeat.err();
    if (!*repeat) clusters_.add_page(e->loc, e->links, page);
  }
  if (!spool_->error().empty()) return error{spool_->error()};
  if (status s = dedup_.rewind(); !s) return s;
  if (status s = spool_->rewind(); !s) return s;
  // A repeat's URL is a kept page's too: no need to ask.
  while (auto e = spool_->next())
    if (e->deferred != spooled_entry::not_deferred &&
        clusters_.contains(e->loc))
      deferred_pages_.insert(e->loc);
  if (!spool_->error().empty()) return error{spool_->error()};
  return {};
}

// Where append_entry() put the end of an entry's core fields (loc,
// lastmod, changefreq, priority), which is where hreflang links go: read
// from the entry's own bytes, as loc_of() reads its loc. A text sitemap's
// line has none: its end.
std::size_t cluster_stage::links_at_of(std::string_view xml) {
  constexpr std::string_view end_loc = "</loc>";
  const std::size_t loc_end = xml.find(end_loc);
  if (!xml.starts_with("<url><loc>") || loc_end == std::string_view::npos)
    return xml.size();
  std::size_t at = loc_end + end_loc.size();
  constexpr std::pair<std::string_view, std::string_view> fields[] = {
      {"<lastmod>", "</lastmod>"},
      {"<changefreq>", "</changefreq>"},
      {"<priority>", "</priority>"}};
  for (const auto& [open, close] : fields) {
    if (xml.compare(at, open.size(), open) != 0) continue;
    const std::size_t closed = xml.find(close, at);
    if (closed == std::string_view::npos) break;
    at = closed + close.size();
  }
  return at;
}

// The loc as the worker normalised it, from the entry's own bytes
// (<url><loc>...</loc>): kept nowhere else, to keep the batches small.
std::string_view cluster_stage::loc_of(std::string_view xml,
                                       std::string& scratch) {
  constexpr std::string_view open_loc = "<url><loc>";
  if (!xml.starts_with(open_loc)) {  // a text sitemap's line
    scratch.assign(xml.substr(0, xml.find('\n')));
    return scratch;
  }
  const std::string_view escaped =
      xml.substr(open_loc.size(), xml.find("</loc>") - open_loc.size());
  scratch.clear();
  append_xml_unescaped(scratch, escaped);
  return scratch;
}

}  // namespace sitemill::detail
