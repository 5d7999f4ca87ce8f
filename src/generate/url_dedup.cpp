#include "generate/url_dedup.h"

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <thread>
#include <type_traits>

#include "detail/fingerprint_table.h"

namespace sitemill::detail {
namespace {

constexpr std::size_t partition_count = 256;
constexpr std::size_t split_ways = 16;  // 4 more hash bits per split
// The set is weighed every this many new URLs (weighing sums 256 tables).
constexpr std::uint64_t weigh_every = 4096;
// The least memory a partition's table may take when resolving, however
// small the budget: below it, splitting would make many tiny files.
constexpr std::size_t min_table_budget = std::size_t{64} << 10;
// Threads that resolve partitions side by side: the work is memory-bound,
// so more than a few only share the same memory bandwidth.
constexpr std::size_t max_resolvers = 4;
// Write buffer per partition file: 256 of them are open at once.
constexpr std::size_t write_buffer = 8192;
// Numbers read ahead per run of repeats (stdio buffers the file too).
constexpr std::size_t cursor_numbers = 64;

// A deferred URL as a partition file holds it; `position` only with
// positions (the record is shorter without).
struct deferred_record {
  std::uint64_t key;  // url_dedup::partition_key()
  std::uint64_t number;
  std::uint64_t position;
};

// Slots a fingerprint table needs for `n` entries without growing (it grows
// before 80% load).
std::size_t slots_for(std::uint64_t n) {
  return static_cast<std::size_t>(n + n / 3 + 64);
}

}  // namespace

// The next few numbers of one sorted run of repeats.
// A repeat is its number, then with positions its first's position.
struct url_dedup::cursor {
  file* run = nullptr;
  std::vector<std::uint64_t> buffer;
  std::size_t at = 0;  // into buffer, a multiple of the run's width
  bool done = false;
  std::uint64_t value() const { return buffer[at]; }
};

url_dedup::url_dedup(std::size_t budget_bytes, temp_namer temp_path,
                     bool positions)
    : positions_(positions),
      record_bytes_(positions ? sizeof(deferred_record)
                              : offsetof(deferred_record, position)),
      run_width_(positions ? 2 : 1),
      budget_(budget_bytes),
      table_budget_(std::max(budget_bytes, min_table_budget)),
      temp_path_(std::move(temp_path)) {
  if (positions) placed_ = std::make_unique<std::array<placed_table, 256>>();
}

std::size_t url_dedup::set_size() const noexcept {
  return placed_ ? placed_size_ : set_.size();
}

std::size_t url_dedup::set_memory() const noexcept {
  if (!placed_) return set_.memory_bytes();
  std::size_t n = 0;
  for (const placed_table& t : *placed_) n += t.memory_bytes();
  return n;
}

url_dedup::~url_dedup() = default;

result<std::unique_ptr<url_dedup::file>> url_dedup::create(
    std::string_view what) {
  std::string path;
  {
    std::lock_guard lock(create_mu_);
    path = temp_path_(std::string(what) + "-" + std::to_string(files_made_++));
  }
  return file::create(std::move(path), "duplicate detection's spill file",
                      write_buffer);
}

void url_dedup::expect(std::uint64_t urls) {
  if (spilling_) return;
  // A slot holds a fingerprint, and with positions one more number; a
  // shard keeps its slots under 80% load.
  const std::size_t slot_bytes = sizeof(std::uint64_t) * run_width_;
  auto bytes_for = [&](std::uint64_t n) {
    return static_cast<double>(shard_share(n)) * 1.25 * 256 *
           static_cast<double>(slot_bytes);
  };
  const double cap = static_cast<double>(budget_) * 0.75;
  while (urls > 0 && bytes_for(urls) > cap) urls = urls / 10 * 9;
  if (urls == 0) return;
  if (!placed_) {
    set_.reserve(urls);
    return;
  }
  for (placed_table& t : *placed_) t.reserve(shard_share(urls));
}

result<url_dedup::verdict> url_dedup::add(url_set::key k,
                                          std::uint64_t position) {
  if (!spilling_) {
    if (placed_) {
      placed_table& t = (*placed_)[k.shard];
      const auto [slot, added] = t.insert(k.fingerprint);
      if (!added) {
        first_position_ = t.payload(slot);
        return verdict::repeat;
      }
      t.payload(slot) = position;
      ++placed_size_;
    } else if (!set_.insert(k)) {
      return verdict::repeat;
    }
    ++in_memory_;
    if (set_size() >= next_check_) {
      next_check_ = set_size() + weigh_every;
      // Frozen at the budget: what is in it stays exact, and the next
      // shard to grow would pass it.
      spilling_ = set_memory() >= budget_;
    }
    return verdict::first;
  }
  if (placed_) {
    placed_table& t = (*placed_)[k.shard];
    if (const std::size_t slot = t.find(k.fingerprint);
        slot != placed_table::npos) {
      first_position_ = t.payload(slot);
      return verdict::repeat;
    }
  } else if (set_.contains(k)) {
    return verdict::repeat;
  }
  if (partitions_.empty()) partitions_.resize(partition_count);
  std::unique_ptr<file>& part = partitions_[partition_of(k.fingerprint)];
  if (!part) {
    auto made = create("dedup");
    if (!made) return made.err();
    part = std::move(*made);
  }
  const deferred_record r{partition_key(k), deferred_++, position};
  if (status s = part->write(&r, record_bytes_); !s) return s.err();
  disk_bytes_ += record_bytes_;
  return verdict::deferred;
}

status url_dedup::resolve(bool keep_set) {
  if (!keep_set) {
    set_ = url_set();
    placed_.reset();
    placed_size_ = 0;
    // The set's 256 tables came from the heap, which keeps freed memory for
    // later: handed back now, the resolution's tables take its place in
    // memory rather than adding to it (at 10^8 URLs, 7 MiB of peak RSS).
    ::malloc_trim(0);
  }
  // The partitions are independent: they are resolved side by side, each
  // thread with its share of the budget, and their runs kept in partition
  // order (the answers do not depend on it; the files' names do not matter).
  const unsigned cores = std::thread::hardware_concurrency();
  const std::size_t threads =
      std::clamp<std::size_t>(cores == 0 ? 1 : cores, 1, max_resolvers);
  thread_table_budget_ = std::max(table_budget_ / threads, min_table_budget);
  std::vector<std::unique_ptr<file>> runs(partitions_.size());
  std::vector<status> failed(partitions_.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t p; (p = next++) < partitions_.size();) {
      if (!partitions_[p]) continue;
      auto run = resolve_partition(std::move(partitions_[p]), 0);
      if (!run) {
        failed[p] = run.err();
        next = partitions_.size();  // the others stop at their next one
        continue;
      }
      runs[p] = std::move(*run);
    }
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
  for (const status& s : failed)
    if (!s) return s;
  partition_cursors_.resize(partition_count);
  for (std::size_t p = 0; p < runs.size(); ++p) {
    if (!runs[p]) continue;
    partition_cursors_[p].run = runs[p].get();
    runs_.push_back(std::move(runs[p]));
  }
  partitions_.clear();
  partitions_.shrink_to_fit();
  return rewind();
}

// One partition: its distinct keys in a table sized for it, read
// in deferred order, so each repeat is found after its first and the
// repeats come out sorted, as a run (none when it has no repeat). A
// partition whose table would pass the budget is split first.
result<std::unique_ptr<url_dedup::file>> url_dedup::resolve_partition(
    std::unique_ptr<file> part, int depth) {
  const std::uint64_t records = part->bytes() / record_bytes_;
  // A slot holds a fingerprint, and with positions one more number.
  const std::size_t slot_bytes = sizeof(std::uint64_t) * run_width_;
  const std::size_t table = slots_for(records) * slot_bytes;
  // 16 splits use up the key's 64 bits: a partition still too large
  // then holds one URL many times, which the table holds in one slot.
  if (table > thread_table_budget_ && depth < 16) return split(*part, depth);
  if (status s = part->rewind(); !s) return s.err();
  const std::size_t slots = slots_for(
      std::min<std::uint64_t>(records, thread_table_budget_ / slot_bytes));
  std::unique_ptr<file> run;
  // With positions, the first record's position is its slot's payload.
  auto scan = [&](auto& seen) -> status {
    constexpr bool placed =
        std::is_same_v<std::remove_reference_t<decltype(seen)>, placed_table>;
    table_bytes_ += seen.memory_bytes();
    deferred_record r{};
    while (part->read(&r, record_bytes_)) {
      const auto [slot, added] = seen.insert(r.key);
      std::uint64_t repeat[2] = {r.number, 0};
      if constexpr (placed) {
        if (added) seen.payload(slot) = r.position;
        repeat[1] = seen.payload(slot);
      }
      if (added) continue;
      if (!run) {
        auto made = create("repeats");
        if (!made) return made.err();
        run = std::move(*made);
      }
      const std::size_t bytes = run_width_ * sizeof(std::uint64_t);
      if (status s = run->write(repeat, bytes); !s) return s;
      disk_bytes_ += bytes;
      ++repeats_;
    }
    table_bytes_ -= seen.memory_bytes();
    return {};
  };
  if (positions_) {
    placed_table seen(slots);
    if (status s = scan(seen); !s) return s.err();
  } else {
    fingerprint_table<> seen(slots);
    if (status s = scan(seen); !s) return s.err();
  }
  if (status s = part->read_error(); !s) return s.err();
  return run;
}

// Splits a partition into 16 by 4 more bits of the key (its low bits: the
// table places keys by their high ones), keeping order,
// resolves each, and merges their runs into one, so that open runs stay at
// one per partition however deep the splits go.
result<std::unique_ptr<url_dedup::file>> url_dedup::split(file& part,
                                                          int depth) {
  if (status s = part.rewind(); !s) return s.err();
  std::vector<std::unique_ptr<file>> parts(split_ways);
  deferred_record r{};
  while (part.read(&r, record_bytes_)) {
    auto& to = parts[(r.key >> (4 * depth)) % split_ways];
    if (!to) {
      auto made = create("dedup");
      if (!made) return made.err();
      to = std::move(*made);
    }
    if (status s = to->write(&r, record_bytes_); !s) return s.err();
    disk_bytes_ += record_bytes_;
  }
  if (status s = part.read_error(); !s) return s.err();
  std::vector<std::unique_ptr<file>> runs;
  for (auto& p : parts) {
    if (!p) continue;
    auto run = resolve_partition(std::move(p), depth + 1);
    if (!run) return run.err();
    if (*run) runs.push_back(std::move(*run));
  }
  if (runs.size() <= 1)
    return runs.empty() ? nullptr : std::move(runs.front());
  return merge(runs);
}

// Sorted runs into one sorted run.
result<std::unique_ptr<url_dedup::file>> url_dedup::merge(
    std::vector<std::unique_ptr<file>>& runs) {
  auto out = create("repeats");
  if (!out) return out.err();
  // A repeat: its number, and with positions its first's position.
  const std::size_t bytes = run_width_ * sizeof(std::uint64_t);
  std::vector<std::array<std::uint64_t, 2>> heads(runs.size());
  std::vector<bool> left(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (status s = runs[i]->rewind(); !s) return s.err();
    left[i] = runs[i]->read(heads[i].data(), bytes);
  }
  for (;;) {
    std::size_t low = runs.size();
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (left[i] && (low == runs.size() || heads[i][0] < heads[low][0]))
        low = i;
    if (low == runs.size()) break;
    if (status s = (*out)->write(heads[low].data(), bytes); !s) return s.err();
    disk_bytes_ += bytes;
    left[low] = runs[low]->read(heads[low].data(), bytes);
  }
  for (const auto& run : runs)
    if (status s = run->read_error(); !s) return s.err();
  return out;
}

status url_dedup::refill(cursor& c) {
  c.buffer.resize(cursor_numbers * run_width_);
  const std::size_t width = sizeof(std::uint64_t) * run_width_;
  const std::size_t n =
      c.run->read_some(c.buffer.data(), width * cursor_numbers) / width;
  if (n == 0)
    if (status s = c.run->read_error(); !s) return s;
  c.buffer.resize(n * run_width_);
  c.at = 0;
  c.done = n == 0;
  return {};
}

// The heap holds the runs that have numbers left, the smallest head first.
auto url_dedup::heap_order() const {
  return [this](std::size_t a, std::size_t b) {
    return cursors_[a].value() > cursors_[b].value();
  };
}

status url_dedup::rewind() {
  cursors_.clear();
  cursors_.resize(runs_.size());
  heap_.clear();
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    cursors_[i].run = runs_[i].get();
    if (status s = runs_[i]->rewind(); !s) return s;
    if (status s = refill(cursors_[i]); !s) return s;
    if (!cursors_[i].done) heap_.push_back(i);
  }
  std::make_heap(heap_.begin(), heap_.end(), heap_order());
  return {};
}

result<bool> url_dedup::is_repeat(std::uint64_t number) {
  // Each deferred number is in one partition at most, so one run at most
  // holds it; the heap's head is the smallest number any run has left.
  bool found = false;
  while (!heap_.empty() && cursors_[heap_.front()].value() <= number) {
    std::pop_heap(heap_.begin(), heap_.end(), heap_order());
    cursor& c = cursors_[heap_.back()];
    if (c.value() == number) {
      found = true;
      if (positions_) first_position_ = c.buffer[c.at + 1];
    }
    if ((c.at += run_width_) == c.buffer.size())
      if (status s = refill(c); !s) return s.err();
    if (c.done)
      heap_.pop_back();
    else
      std::push_heap(heap_.begin(), heap_.end(), heap_order());
  }
  return found;
}

std::uint64_t url_dedup::repeats_in(std::size_t partition) const noexcept {
  if (partition_cursors_.empty()) return 0;  // nothing was deferred
  const file* run = partition_cursors_[partition].run;
  return run ? run->bytes() / (run_width_ * sizeof(std::uint64_t)) : 0;
}

status url_dedup::restart(std::size_t partition) {
  if (partition_cursors_.empty()) return {};  // nothing was deferred
  cursor& c = partition_cursors_.at(partition);
  file* const run = c.run;
  c = cursor{};
  c.run = run;
  if (!c.run) {
    c.done = true;
    return {};
  }
  if (status s = c.run->rewind(); !s) return s;
  return refill(c);
}

result<bool> url_dedup::is_repeat_in(std::size_t partition,
                                     std::uint64_t number) {
  if (partition_cursors_.empty()) return false;  // nothing was deferred
  cursor& c = partition_cursors_.at(partition);
  while (!c.done && c.value() < number)
    if ((c.at += run_width_) == c.buffer.size())
      if (status s = refill(c); !s) return s.err();
  if (c.done || c.value() != number) return false;
  if (positions_) first_position_ = c.buffer[c.at + 1];
  return true;
}

std::size_t url_dedup::memory_bytes() const noexcept {
  std::size_t cursors = cursors_.size();
  // A partition's cursor holds its buffer once restart() filled it.
  for (const cursor& c : partition_cursors_)
    cursors += c.buffer.capacity() > 0 ? 1 : 0;
  return set_memory() + table_bytes_ +
         cursors * cursor_numbers * run_width_ * sizeof(std::uint64_t);
}

}  // namespace sitemill::detail
