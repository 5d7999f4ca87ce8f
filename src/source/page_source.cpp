#include "sitemill/source/page_source.h"

#include "sitemill/entry/extensions.h"

namespace sitemill {
namespace {

class page_reader final : public record_reader {
 public:
  explicit page_reader(page_generator& next) : next_(next) {}

  bool next(input_record& out) override {
    page_ = page{};
    if (!next_(page_)) return false;
    values_.clear();
    // Items are numbered across the entry's extensions, alternates first.
    std::uint32_t item = 0;
    for (const auto& [hreflang, href] : page_.alternates) {
      values_.push_back({link_fields().hreflang, item, hreflang});
      values_.push_back({link_fields().href, item, href});
      ++item;
    }
    for (const std::string& image : page_.images)
      values_.push_back({link_fields().image_loc, item++, image});
    out = input_record{};
    out.line = ++number_;
    out.loc = page_.loc;
    out.lastmod = page_.lastmod;
    out.changefreq = page_.changefreq;
    out.priority = page_.priority;
    out.extensions = values_;
    return true;
  }
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  page_generator& next_;
  page page_;
  std::vector<extension_value> values_;
  std::uint64_t number_ = 0;
  std::string error_;
  std::vector<note> notes_;
};

class page_record_source final : public record_source {
 public:
  page_record_source(std::string name, page_generator next)
      : name_(std::move(name)), next_(std::move(next)) {}
  std::string name() const override { return name_; }
  result<std::unique_ptr<record_reader>> open(
      const source_context&) const override {
    // open() is const (a source is a recipe), but a generator has state:
    // the reader calls it through this source, which outlives the run.
    return std::unique_ptr<record_reader>(std::make_unique<page_reader>(next_));
  }

 private:
  std::string name_;
  mutable page_generator next_;
};

}  // namespace

std::shared_ptr<const record_source> page_source(std::string name,
                                                 page_generator next) {
  return std::make_shared<page_record_source>(std::move(name), std::move(next));
}

}  // namespace sitemill
