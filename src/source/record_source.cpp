#include "sitemill/source/record_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace sitemill {
namespace {

class list_file final : public record_source {
 public:
  list_file(std::string path, std::optional<input_format> format,
            column_list columns, char delimiter)
      : path_(std::move(path)),
        format_(format),
        columns_(std::move(columns)),
        delimiter_(delimiter) {}

  std::string name() const override { return path_ == "-" ? "<stdin>" : path_; }

  std::optional<std::uint64_t> size() const override {
    struct stat st {};
    if (path_ == "-" || ::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      return std::nullopt;
    return static_cast<std::uint64_t>(st.st_size);
  }

  status validate(const source_context&) const override {
    // A URL where a list file belongs: the user meant a site or its sitemap.
    // Said before "unknown format", which would send them the wrong way.
    if ((path_.starts_with("http://") || path_.starts_with("https://")) &&
        ::access(path_.c_str(), F_OK) != 0)
      return error{path_ +
                       " is a URL, and inputs are list files of URLs: to read "
                       "the site's existing sitemap, give it as "
                       "`from_sitemap`; to list a site's pages from its "
                       "access logs, `from_log`; for a built site's files, "
                       "`from_dir`",
                   "inputs"};
    if (!resolve())
      return error{path_ + ": unknown input format; name it with `format`",
                   "format"};
    // Found now rather than when the list's turn comes, so that a typo in
    // the last of several inputs costs nothing.
    if (path_ != "-" && ::access(path_.c_str(), R_OK) != 0)
      return error{"cannot read input " + path_ + ": " + std::strerror(errno)};
    return {};
  }

  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    const std::optional<input_format> format = resolve();
    if (!format)
      return error{path_ + ": unknown input format; name it with `format`",
                   "format"};
    reader_options options;
    options.format = *format;
    options.columns = columns_.in_order;
    options.named_columns = columns_.by_name;
    options.delimiter = delimiter_;
    options.stop = context.stop;
    return record_reader::open(path_, options);
  }

 private:
  std::optional<input_format> resolve() const {
    if (format_) return format_;
    if (auto f = format_from_path(path_)) return f;
    if (path_ == "-") return input_format::txt;
    return std::nullopt;
  }

  std::string path_;
  std::optional<input_format> format_;
  column_list columns_;
  char delimiter_;
};

}  // namespace

std::shared_ptr<const record_source> list_source(
    std::string path, std::optional<input_format> format, column_list columns,
    char delimiter) {
  return std::make_shared<list_file>(std::move(path), format,
                                     std::move(columns), delimiter);
}

}  // namespace sitemill
