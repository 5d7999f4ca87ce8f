#include "generate/layout_spool.h"

#include <algorithm>
#include <cstring>

namespace sitemill::detail {
namespace {

constexpr int level_bits = 8;
constexpr std::size_t fanout = std::size_t{1} << level_bits;

// A parked entry: its fingerprint, its number in the order entries were
// added to the top level, its size in its file and the length of its
// payload, then the payload.
struct record_head {
  std::uint64_t fingerprint;
  std::uint64_t sequence;
  std::uint32_t size;
  std::uint32_t length;
};

}  // namespace

layout_spool::layout_spool(temp_namer names, std::size_t buffer_bytes)
    : layout_spool(std::move(names), buffer_bytes, 0, 0,
                   std::make_shared<std::uint64_t>(0)) {}

layout_spool::layout_spool(temp_namer names, std::size_t buffer_bytes,
                           int depth, std::uint64_t prefix,
                           std::shared_ptr<std::uint64_t> disk_bytes)
    : names_(std::move(names)),
      buffer_bytes_(buffer_bytes),
      depth_(depth),
      prefix_(prefix),
      disk_bytes_(std::move(disk_bytes)),
      partitions_(fanout) {}

layout_spool::~layout_spool() = default;

std::size_t layout_spool::partition_of(
    std::uint64_t fingerprint) const noexcept {
  return static_cast<std::size_t>((fingerprint << depth_) >>
                                  (64 - level_bits));
}

status layout_spool::add(std::uint64_t fingerprint, std::uint32_t size,
                         std::string_view payload) {
  return add(fingerprint, entries_, size, payload);
}

status layout_spool::add(std::uint64_t fingerprint, std::uint64_t sequence,
                         std::uint32_t size, std::string_view payload) {
  const std::size_t p = partition_of(fingerprint);
  auto& file = partitions_[p];
  if (!file) {
    auto made = buffered_temp_file::create(
        names_("layout-" + std::to_string(depth_) + "-" + std::to_string(p)),
        "the stable layout's partition file", buffer_bytes_);
    if (!made) return made.err();
    file = std::move(*made);
  }
  const record_head head{fingerprint, sequence, size,
                         static_cast<std::uint32_t>(payload.size())};
  if (status s = file->write(&head, sizeof head); !s) return s;
  if (status s = file->write(payload.data(), payload.size()); !s) return s;
  *disk_bytes_ += sizeof head + payload.size();
  tallies_[p] += prefix_tally{1, size};
  ++entries_;
  return {};
}

status layout_spool::stream(
    std::size_t partition,
    const std::function<status(std::uint64_t, std::uint64_t, std::uint32_t,
                               std::string_view)>& each) {
  std::unique_ptr<buffered_temp_file> file = std::move(partitions_[partition]);
  if (!file) return {};
  if (status s = file->rewind(); !s) return s;
  record_head head{};
  while (file->read(&head, sizeof head)) {
    payload_.resize(head.length);
    if (!file->read(payload_.data(), head.length)) {
      if (status s = file->read_error(); !s) return s;
      return error{file->path() + " ends inside a record (the stable " +
                   "layout's partition file was cut short)"};
    }
    if (status s = each(head.fingerprint, head.sequence, head.size, payload_);
        !s)
      return s;
  }
  return file->read_error();
}

// Hands the entries of partitions [first, end) to `r` in the order they
// were added: each partition is in that order already, so this is a merge
// of sorted runs by sequence number.
status layout_spool::merge(std::size_t first, std::size_t end, reader& r) {
  struct run {
    buffered_temp_file* file;
    record_head head;
  };
  std::vector<run> runs;
  for (std::size_t p = first; p < end; ++p) {
    buffered_temp_file* file = partitions_[p].get();
    if (file == nullptr) continue;
    if (status s = file->rewind(); !s) return s;
    run one{file, {}};
    if (file->read(&one.head, sizeof one.head)) runs.push_back(one);
    else if (status s = file->read_error(); !s) return s;
  }
  auto later = [](const run& a, const run& b) {
    return a.head.sequence > b.head.sequence;
  };
  std::make_heap(runs.begin(), runs.end(), later);
  while (!runs.empty()) {
    std::pop_heap(runs.begin(), runs.end(), later);
    run& next = runs.back();
    payload_.resize(next.head.length);
    if (!next.file->read(payload_.data(), next.head.length)) {
      if (status s = next.file->read_error(); !s) return s;
      return error{next.file->path() + " ends inside a record (the stable " +
                   "layout's partition file was cut short)"};
    }
    if (status s = r.entry(payload_); !s) return s;
    if (next.file->read(&next.head, sizeof next.head)) {
      std::push_heap(runs.begin(), runs.end(), later);
    } else {
      if (status s = next.file->read_error(); !s) return s;
      runs.pop_back();
    }
  }
  for (std::size_t p = first; p < end; ++p) partitions_[p].reset();
  return {};
}

status layout_spool::replay(const layout_limits& limits, reader& r) {
  for (const layout_leaf& local : plan_leaves(tallies_, level_bits, limits)) {
    layout_leaf leaf = local;
    leaf.depth = depth_ + local.depth;
    leaf.prefix = (prefix_ << local.depth) | local.prefix;
    const bool deeper = !limits.fits(local.tally) && leaf.depth < 64;
    if (deeper) {
      // One partition over a file's limits: park it again by its next
      // bits and plan it on its own.
      layout_spool below(names_, buffer_bytes_, leaf.depth, leaf.prefix,
                         disk_bytes_);
      if (status s = stream(local.first_bucket,
                            [&](std::uint64_t fp, std::uint64_t sequence,
                                std::uint32_t size, std::string_view payload) {
                              return below.add(fp, sequence, size, payload);
                            });
          !s)
        return s;
      if (status s = below.replay(limits, r); !s) return s;
      continue;
    }
    if (status s = r.begin(leaf); !s) return s;
    if (status s = merge(local.first_bucket, local.end_bucket, r); !s)
      return s;
    if (status s = r.end(leaf); !s) return s;
  }
  return {};
}

}  // namespace sitemill::detail
