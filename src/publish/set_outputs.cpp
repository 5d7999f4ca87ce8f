#include "publish/set_outputs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "detail/spill_file.h"
#include "publish/publish_files.h"
#include "publish/testing.h"
#include "store/s3_config.h"

namespace sitemill::detail {
namespace {

// The publisher names its directory argument; the run names the option
// that argument came from.
error out_dir_error(error e) {
  if (e.field != "dir") return e;
  return error{"`out_dir` " + e.message, "out_dir"};
}

result<std::string> bookkeeping_or_default(const output_plan& plan) {
  if (!plan.manifest_dir.empty()) return plan.manifest_dir;
  auto beside = default_bookkeeping_dir(plan.out_dir);
  if (!beside) return out_dir_error(error{beside.err().message, "dir"});
  return beside;
}

// The entry's name is the one file name the set must take whatever is
// there: a file of that name that no manifest lists (a site generator's own
// sitemap.xml) is replaced, and said so, since nothing else would.
bool is_foreign_entry(const std::string& path, const publisher& pub,
                      const std::string& entry) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  return std::none_of(pub.current().begin(), pub.current().end(),
                      [&](const published_file& f) { return f.path == entry; });
}

std::string bases_of(const std::vector<set_report>& sets) {
  std::string list;
  for (const set_report& r : sets)
    (list += list.empty() ? "" : ", ") += r.base_url;
  return list;
}

}  // namespace

status check_set_directories(const url_normalizer& bases) {
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < bases.base_count(); ++i) {
    std::string dir = set_directory(bases.base_url(i));
    // Normalisation removed dot segments, so this cannot happen; it is
    // checked anyway because the name becomes a path under out_dir.
    for (std::size_t at = 0; at <= dir.size();) {
      std::size_t end = std::min(dir.find('/', at), dir.size());
      const std::string_view segment =
          std::string_view(dir).substr(at, end - at);
      at = end + 1;
      if (!segment.empty() && segment != "." && segment != "..") continue;
      return error{"`more_base_urls`: base URL " +
                       std::string(bases.base_url(i).href()) +
                       " cannot name a directory below `out_dir`",
                   "more_base_urls"};
    }
    for (std::size_t k = 0; k < dirs.size(); ++k)
      if (dirs[k] == dir)
        return error{"`more_base_urls`: base URLs " +
                         std::string(bases.base_url(k).href()) + " and " +
                         std::string(bases.base_url(i).href()) +
                         " would share the directory " + dir +
                         " of `out_dir`; give one of them",
                     "more_base_urls"};
    dirs.push_back(std::move(dir));
  }
  return {};
}

stream_temporaries::stream_temporaries() : dir_(temp_directory()) {}

stream_temporaries::~stream_temporaries() { discard(); }

std::string stream_temporaries::temp_path(std::string_view name) {
  std::string p = dir_ + (dir_.ends_with('/') ? "" : "/") +
                  temp_file_name(token_, std::to_string(counter_++) + "-" +
                                             std::string(name));
  made_ = true;
  return p;
}

void stream_temporaries::discard() noexcept {
  if (!made_) return;
  const std::string tokens[] = {token_};
  const std::string slash = dir_.ends_with('/') ? "" : "/";
  try {
    for (const std::string& name : temp_files_in(dir_, tokens))
      ::unlink((dir_ + slash + name).c_str());
  } catch (...) {  // out of memory listing them
  }
  made_ = false;
}

std::string set_output::temp_path(std::string_view what) {
  if (pub_) return pub_->temp_path(what);
  std::string path = stream_temps_->temp_path(what);
  if (after_step_) after_step_(publish_step::temporary_created);
  return path;
}

void set_output::discard_temporaries() noexcept {
  if (pub_) pub_->discard_temporaries();
  if (stream_temps_) stream_temps_->discard();
}

set_outputs::~set_outputs() {
  while (!outs_.empty()) outs_.pop_back();
}

status set_outputs::open(const output_plan& plan, const url_normalizer& bases) {
  if (plan.stream) {
    set_output& out = outs_.emplace_back();
    out.base = bases.base_url(0).href();
    out.stream_temps_ = std::make_unique<stream_temporaries>();
    out.after_step_ = plan.after_step;
    stream_ = plan.stream;
    return {};
  }
  if (plan.scratch_dir.empty() && plan.shard_dir.empty() &&
      store::is_s3_url(plan.out_dir))
    return open_buckets(plan, bases);
  const bool several = bases.base_count() > 1;
  for (std::size_t i = 0; i < bases.base_count(); ++i) {
    set_output& out = outs_.emplace_back();
    out.base = bases.base_url(i).href();
    out.dir = plan.out_dir;
    if (!plan.scratch_dir.empty()) {
      if (several)
        out.dir += (out.dir.ends_with('/') ? "" : "/") +
                   set_directory(bases.base_url(i));
      const std::string made = plan.scratch_dir + "/" + std::to_string(i);
      auto pub = publisher::open(made, plan.name, made + ".book");
      if (!pub) return pub.err();
      out.pub_ = std::move(*pub);
      continue;
    }
    std::string bookkeeping = plan.manifest_dir;
    if (several) {
      // Each set's bookkeeping below out_dir's, outside every host's
      // directory, nested bases' too (bookkeeping.h).
      auto book = bookkeeping_or_default(plan);
      if (!book) return book.err();
      bookkeeping = std::move(*book);
      const std::string below = set_directory(bases.base_url(i));
      if (!out.dir.ends_with('/')) out.dir += '/';
      out.dir += below;
      bookkeeping += (bookkeeping.ends_with('/') ? "" : "/") + below;
    }
    if (!plan.shard_dir.empty()) {
      // The shard directory's own bookkeeping, beside it.
      out.dir = plan.shard_dir;
      bookkeeping.clear();
    }
    auto pub = publisher::open(out.dir, plan.name, bookkeeping);
    if (!pub) return out_dir_error(pub.err());
    out.pub_ = std::move(*pub);
    detail::publisher_testing::set_after_step(*out.pub_, plan.after_step);
  }
  return {};
}

// A bucket's set is staged as a dry run's is, in a scratch directory with a
// publisher of its own (assembling names and indexes the files there), and
// its files are uploaded from there; every bucket's lock is taken first.
status set_outputs::open_buckets(const output_plan& plan,
                                 const url_normalizer& bases) {
  auto where = store::parse_s3_url(plan.out_dir);
  if (!where) return where.err();
  if (status s = scratch_.make("sitemill-bucket-"); !s)
    return error{"`out_dir` " + plan.out_dir + ": " + s.err().message,
                 "out_dir"};
  const bool several = bases.base_count() > 1;
  for (std::size_t i = 0; i < bases.base_count(); ++i) {
    set_output& out = outs_.emplace_back();
    out.base = bases.base_url(i).href();
    out.dir = "s3://" + where->bucket + "/" + where->prefix;
    if (several) out.dir += set_directory(bases.base_url(i)) + "/";
    const std::string made = scratch_.path() + "/" + std::to_string(i);
    auto pub = publisher::open(made, plan.name, made + ".book");
    if (!pub) return pub.err();
    out.pub_ = std::move(*pub);
    detail::publisher_testing::set_after_step(*out.pub_, plan.after_step);
    auto bucket =
        bucket_publisher::open(out.dir, plan.name, plan.bucket, plan.after_step);
    if (!bucket) return bucket.err();
    out.bucket_ = std::move(*bucket);
  }
  return {};
}

void set_outputs::discard_temporaries() noexcept {
  for (set_output& out : outs_) out.discard_temporaries();
}

status set_outputs::publish(
    std::vector<assembled_set>& staged, std::vector<set_report>& published,
    const std::function<void(const std::string&, std::string)>& warn) {
  for (std::size_t i = 0; i < outs_.size(); ++i) {
    set_output& out = outs_[i];
    if (out.written == 0) continue;
    if (out.bucket_) {
      if (status st = out.bucket_->publish(std::move(staged[i].files),
                                           staged[i].entry);
          !st) {
        if (published.empty()) return st;
        return error{st.message() + " (the sets of " + bases_of(published) +
                     " were published before this failure and stay)"};
      }
      published.push_back(std::move(out.report));
      continue;
    }
    const std::string path = out.dir + "/" + staged[i].entry;
    if (is_foreign_entry(path, *out.pub_, staged[i].entry))
      warn(path,
           "replaced by this set's entry; sitemill did not write it (no "
           "manifest lists it): if another tool writes it (a site "
           "generator's own sitemap), turn that off or give the set another "
           "`name`");
    if (status s =
            out.pub_->publish(std::move(staged[i].files), staged[i].entry);
        !s) {
      if (published.empty()) return s;
      return error{s.message() + " (the sets of " + bases_of(published) +
                   " were published before this failure and stay)"};
    }
    published.push_back(std::move(out.report));
  }
  return {};
}

status set_outputs::write_stream(const finished_sitemap& sitemap) {
  const int fd = ::open(sitemap.temp_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", sitemap.temp_path, errno)};
  std::vector<char> buffer(1 << 16);
  status written = read_and_close(
      fd, sitemap.temp_path, buffer,
      [&](const char* p, std::size_t n) { return stream_->write(p, n); });
  if (written) written = stream_->close();
  if (!written)
    return error{"`output`: cannot write the sitemap: " + written.message(),
                 "output"};
  return {};
}

}  // namespace sitemill::detail
