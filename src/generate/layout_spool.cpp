#include "generate/layout_spool.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "detail/record_coding.h"

namespace sitemill::detail {
namespace {

constexpr int level_bits = 8;
constexpr std::size_t fanout = std::size_t{1} << level_bits;

// A payload leaves out at most this many leading bytes shared with the
// reference, so that their count is one byte.
constexpr std::size_t max_shared = 255;
// A record's head: three varints of up to 10 bytes, the fingerprint and the
// shared count.
constexpr std::size_t max_head = 3 * max_varint + 8 + 1;
// A run keeps this many bytes free before its unread records, so that a
// record's shared prefix can be put back in front of its bytes in place.
constexpr std::size_t gap = max_shared + 1;

std::unique_ptr<char[]> bytes(std::size_t n) {
  return std::unique_ptr<char[]>(new char[n]);  // not zeroed: not touched
}

}  // namespace

// Partition files of the levels below the top, read back and kept for the
// next partition parked again. Such a level makes a file for each of its
// 256 partitions, and creating a file costs more than filling it: about
// 0.3 ms on ext4 while the output files' fsyncs commit the journal, so that
// creating 65,536 at 10^8 URLs took longer than their writes (strace, 2x10^7
// URLs: 67,031 openat calls, 294 us each). A file reused is written from its
// start again, without truncating it (buffered_temp_file::reuse()). The
// top level's files are the large ones and are removed once read.
struct layout_spool::file_pool {
  std::vector<std::unique_ptr<buffered_temp_file>> idle;
};

// A partition file being written: its records go to its slice of the
// spool's buffer and the file gets the slice whole (an unbuffered stdio
// stream: one write a slice).
struct layout_spool::partition {
  std::unique_ptr<buffered_temp_file> file;
  std::size_t used = 0;
  std::uint64_t last_sequence = 0;
};

// A partition file being read back: a window of it in a slice of the
// spool's buffer (or a buffer of its own once a record outgrows the slice),
// and the head of the record at the window's start.
class layout_spool::run {
 public:
  // `slice` holds at least gap + max_head bytes.
  // `pool`: where the file goes once read (removed when null).
  run(std::unique_ptr<buffered_temp_file> file, std::span<char> slice,
      file_pool* pool)
      : file_(std::move(file)),
        pool_(pool),
        capacity_(slice.size()),
        window_(slice.data()) {}
  ~run() {
    if (pool_ != nullptr && file_) pool_->idle.push_back(std::move(file_));
  }
  // The file, to be read again (after its rewind()).
  std::unique_ptr<buffered_temp_file> release() { return std::move(file_); }
  run(const run&) = delete;
  run& operator=(const run&) = delete;

  // Reads the next record's head; `more` false at the end of the file.
  status next(bool& more) {
    begin_ = next_;
    for (;;) {
      const char* p = window_ + begin_;
      const char* end = window_ + end_;
      std::size_t need = max_head;
      std::uint64_t delta, length, diff;
      if (get_varint(p, end, delta) && end - p >= 8) {
        std::memcpy(&fingerprint, p, 8);
        p += 8;
        if (get_varint(p, end, length) && get_varint(p, end, diff) && p < end) {
          shared_ = static_cast<unsigned char>(*p++);
          const std::size_t head =
              static_cast<std::size_t>(p - (window_ + begin_));
          // A length the file cannot hold: a head that was cut or changed
          // (and no buffer is grown to it).
          if (shared_ > length || length - shared_ > file_->bytes())
            return corrupt();
          need = head + (length - shared_);
          if (static_cast<std::size_t>(end - p) >= length - shared_) {
            sequence += delta;
            length_ = length;
            // The difference, zigzag coded: size may exceed the length.
            const std::int64_t d = unzigzag(diff);
            size = static_cast<std::uint32_t>(
                static_cast<std::int64_t>(length) - d);
            suffix_ = begin_ + head;
            next_ = suffix_ + (length - shared_);
            more = true;
            return {};
          }
        }
      }
      if (eof_) {
        if (begin_ == end_) {
          more = false;
          return {};
        }
        return corrupt();
      }
      if (status s = fill(need); !s) return s;
    }
  }

  // The payload of the record next() read, its shared prefix put back in
  // front of its own bytes (over its head and records already read).
  std::string_view payload(const std::string& reference) {
    char* at = window_ + suffix_ - shared_;
    if (shared_ > 0) std::memcpy(at, reference.data(), shared_);
    return {at, length_};
  }

  std::uint64_t sequence = 0;
  std::uint64_t fingerprint = 0;
  std::uint32_t size = 0;
  std::size_t partition = 0;  // of the level that opened it

 private:
  // Moves the unread bytes to the buffer's start (after the gap) and reads
  // until at least `need` bytes are there or the file ends.
  status fill(std::size_t need) {
    const std::size_t unread = end_ - begin_;
    if (gap + need > capacity_) {
      const std::size_t grown = std::max(gap + need, 2 * capacity_);
      std::unique_ptr<char[]> larger = bytes(grown);
      if (unread > 0)  // the first window may be none at all
        std::memcpy(larger.get() + gap, window_ + begin_, unread);
      own_ = std::move(larger);
      window_ = own_.get();
      capacity_ = grown;
    } else {
      std::memmove(window_ + gap, window_ + begin_, unread);
    }
    begin_ = next_ = gap;
    end_ = gap + unread;
    const std::size_t want = capacity_ - end_;
    const std::size_t got = file_->read_some(window_ + end_, want);
    end_ += got;
    if (got < want) {
      if (status s = file_->read_error(); !s) return s;
      eof_ = true;
    }
    return {};
  }

  status corrupt() const {
    return error{file_->path() + " ends inside a record (the stable " +
                 "layout's partition file was cut short or changed)"};
  }

  std::unique_ptr<buffered_temp_file> file_;
  file_pool* pool_;
  std::size_t capacity_;
  char* window_;
  std::unique_ptr<char[]> own_;  // once a record outgrew the slice
  // Unread bytes are [begin_, end_); the record at begin_ has its own bytes
  // at [suffix_, next_).
  std::size_t begin_ = gap, end_ = gap, suffix_ = gap, next_ = gap;
  std::size_t length_ = 0;
  std::size_t shared_ = 0;
  bool eof_ = false;
};

layout_spool::layout_spool(temp_namer names, std::size_t buffer_bytes,
                           mark_reader marks)
    : layout_spool(std::move(names), buffer_bytes, marks, 0, 0,
                   std::make_shared<std::uint64_t>(0), std::string(),
                   std::make_shared<file_pool>()) {}

layout_spool::layout_spool(temp_namer names, std::size_t buffer_bytes,
                           mark_reader marks, int depth, std::uint64_t prefix,
                           std::shared_ptr<std::uint64_t> disk_bytes,
                           std::string reference,
                           std::shared_ptr<file_pool> pool, char* borrowed)
    : names_(std::move(names)),
      buffer_bytes_(std::max(buffer_bytes, gap + max_head)),
      marks_(marks),
      depth_(depth),
      prefix_(prefix),
      disk_bytes_(std::move(disk_bytes)),
      pool_(std::move(pool)),
      reference_(std::move(reference)),
      partitions_(fanout),
      slices_(borrowed) {}

layout_spool::~layout_spool() = default;

std::size_t layout_spool::partition_of(
    std::uint64_t fingerprint) const noexcept {
  return static_cast<std::size_t>((fingerprint << depth_) >> (64 - level_bits));
}

status layout_spool::add(std::uint64_t fingerprint, std::uint32_t size,
                         std::string_view payload, std::string_view tail) {
  if (entries_ == 0 && depth_ == 0)
    reference_.assign(payload.substr(0, std::min(payload.size(), max_shared)));
  return add(fingerprint, entries_, size, payload, tail);
}

status layout_spool::add(std::uint64_t fingerprint, std::uint64_t sequence,
                         std::uint32_t size, std::string_view payload,
                         std::string_view tail) {
  const std::size_t p = partition_of(fingerprint);
  partition& part = partitions_[p];
  if (file_pool* pool = reusing(); !part.file && pool && !pool->idle.empty()) {
    part.file = std::move(pool->idle.back());
    pool->idle.pop_back();
    if (status s = part.file->reuse(); !s) return s;
  }
  if (!part.file) {
    // Unbuffered: the partition's own buffer is written whole.
    auto made = buffered_temp_file::create(
        names_("layout-" + std::to_string(depth_) + "-" + std::to_string(p)),
        "the stable layout's partition file", 0);
    if (!made) return made.err();
    part.file = std::move(*made);
  }
  if (!slices_) {
    buffer_ = bytes(fanout * buffer_bytes_);
    slices_ = buffer_.get();
  }
  char* const slice = slices_ + p * buffer_bytes_;

  const std::size_t shared = common_prefix(payload, reference_, max_shared);
  const std::string_view rest = payload.substr(shared);
  const std::uint64_t length = payload.size() + tail.size();
  const std::int64_t diff =
      static_cast<std::int64_t>(length) - static_cast<std::int64_t>(size);
  const std::uint64_t delta = sequence - part.last_sequence;
  part.last_sequence = sequence;
  auto put_head = [&](char* h) {
    h = put_varint(h, delta);
    std::memcpy(h, &fingerprint, 8);
    h = put_varint(h + 8, length);
    h = put_varint(h, zigzag(diff));
    *h++ = static_cast<char>(shared);
    return h;
  };

  if (part.used + max_head + rest.size() + tail.size() <= buffer_bytes_) {
    // The common case: the record fits the slice, written in place.
    char* const start = slice + part.used;
    char* at = put_head(start);
    // An empty view's data() may be null, which memcpy must not be given.
    if (!rest.empty()) std::memcpy(at, rest.data(), rest.size());
    at += rest.size();
    if (!tail.empty()) std::memcpy(at, tail.data(), tail.size());
    at += tail.size();
    *disk_bytes_ += static_cast<std::uint64_t>(at - start);
    part.used = static_cast<std::size_t>(at - slice);
  } else {
    char head[max_head];
    const std::string_view pieces[] = {
        {head, static_cast<std::size_t>(put_head(head) - head)}, rest, tail};
    for (std::string_view piece : pieces) {
      *disk_bytes_ += piece.size();
      while (!piece.empty()) {
        if (part.used == buffer_bytes_) {
          if (status s = part.file->write(slice, part.used); !s) return s;
          part.used = 0;
        }
        if (part.used == 0 && piece.size() >= buffer_bytes_) {
          // Larger than the buffer: written as is, not copied first.
          if (status s = part.file->write(piece.data(), piece.size()); !s)
            return s;
          break;
        }
        const std::size_t n = std::min(piece.size(), buffer_bytes_ - part.used);
        std::memcpy(slice + part.used, piece.data(), n);
        part.used += n;
        piece.remove_prefix(n);
      }
    }
  }
  const std::uint8_t mark = marks_ != nullptr ? marks_(payload, tail) : 0;
  tallies_[p] += prefix_tally{1, size, mark};
  ++entries_;
  return {};
}

status layout_spool::flush() {
  for (std::size_t p = 0; p < fanout; ++p) {
    partition& part = partitions_[p];
    if (part.used > 0)
      if (status s =
              part.file->write(slices_ + p * buffer_bytes_, part.used);
          !s)
        return s;
    part.used = 0;
    if (part.file)
      if (status s = part.file->rewind(); !s) return s;
  }
  return {};
}

// Opens partitions [first, end) for reading, the buffer that held them
// while adding split among them: reads as large as memory allows, and no
// more memory than adding took.
status layout_spool::open_runs(std::size_t first, std::size_t end,
                               std::vector<std::unique_ptr<run>>& runs,
                               std::size_t window) {
  std::size_t files = 0;
  for (std::size_t p = first; p < end; ++p)
    files += partitions_[p].file ? 1 : 0;
  if (files == 0) return {};
  const std::size_t share =
      (window != 0 ? window : fanout * buffer_bytes_) / files;
  std::size_t at = 0;
  for (std::size_t p = first; p < end; ++p) {
    if (!partitions_[p].file) continue;
    auto one = std::make_unique<run>(std::move(partitions_[p].file),
                                     std::span(slices_ + at, share),
                                     reusing());
    one->partition = p;
    at += share;
    if (filter_ != nullptr)
      if (status s = filter_->restart(p); !s) return s;
    bool more = false;
    if (status s = one->next(more); !s) return s;
    if (more) runs.push_back(std::move(one));
  }
  return {};
}

status layout_spool::park_below(std::size_t which, layout_spool& below,
                                std::size_t window) {
  std::vector<std::unique_ptr<run>> runs;
  if (status s = open_runs(which, which + 1, runs, window); !s) return s;
  if (runs.empty()) return {};
  run& one = *runs.front();
  for (bool more = true; more;) {
    auto out = left_out(one);
    if (!out) return out.err();
    if (!*out)
      if (status s = below.add(one.fingerprint, one.sequence, one.size,
                               kept(one.payload(reference_)), {});
          !s)
        return s;
    if (status s = one.next(more); !s) return s;
  }
  return {};
}

result<bool> layout_spool::left_out(run& one) {
  if (filter_ == nullptr) return false;
  const std::string_view record = one.payload(reference_);
  auto out = filter_->leaves_out(one.partition, record);
  if (!out || !*out) return out;
  if (status s = filter_->left_out(record); !s) return s.err();
  return true;
}

// Reads partition `p` through to tally the entries the filter keeps, then
// leaves its file to be read again.
status layout_spool::tally_kept(std::size_t p) {
  if (status s = filter_->restart(p); !s) return s;
  run one(std::move(partitions_[p].file),
          std::span(slices_, fanout * buffer_bytes_), nullptr);
  prefix_tally kept;
  bool more = false;
  if (status s = one.next(more); !s) return s;
  while (more) {
    const std::string_view record = one.payload(reference_);
    auto out = filter_->leaves_out(p, record);
    if (!out) return out.err();
    if (!*out)
      kept += prefix_tally{1, one.size,
                           marks_ != nullptr ? marks_(record, {})
                                             : std::uint8_t{0}};
    if (status s = one.next(more); !s) return s;
  }
  tallies_[p] = kept;
  partitions_[p].file = one.release();
  return partitions_[p].file->rewind();
}

// Hands the entries of partitions [first, end) to `r` in the order they
// were added: each partition is in that order already, so this is a merge
// of sorted runs by sequence number, on a binary heap of the runs whose
// top is replaced as it is read (one sift a record).
status layout_spool::merge(std::size_t first, std::size_t end, reader& r) {
  std::vector<std::unique_ptr<run>> runs;
  if (status s = open_runs(first, end, runs); !s) return s;
  std::vector<run*> heap;
  for (auto& one : runs) heap.push_back(one.get());
  auto later = [](const run* a, const run* b) {
    return a->sequence > b->sequence;
  };
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    run& top = *heap.front();
    auto out = left_out(top);
    if (!out) return out.err();
    if (!*out)
      if (status s = r.entry(kept(top.payload(reference_))); !s) return s;
    bool more = false;
    if (status s = top.next(more); !s) return s;
    if (!more) {
      std::pop_heap(heap.begin(), heap.end(), later);
      heap.pop_back();
      continue;
    }
    // Sift the top down to its place.
    const std::size_t n = heap.size();
    run* moving = heap.front();
    std::size_t at = 0;
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && later(heap[child], heap[child + 1])) ++child;
      if (!later(moving, heap[child])) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = moving;
  }
  return {};
}

status layout_spool::drain_in_order(reader& r) {
  if (status s = flush(); !s) return s;
  return merge(0, fanout, r);
}

status layout_spool::replay(const layout_limits& limits, reader& r, filter* f) {
  if (status s = flush(); !s) return s;
  if (f != nullptr && depth_ == 0) {
    filter_ = f;
    // A partition that keeps more than a file's URLs however many are left
    // out is parked again a level down, whose tallies count only what is
    // kept: its own tally does not matter. Any other is tallied again.
    for (std::size_t p = 0; p < fanout; ++p) {
      const std::uint64_t most = f->most_left_out(p);
      if (most == 0 || !partitions_[p].file) continue;
      const prefix_tally& t = tallies_[p];
      if (t.urls - std::min(t.urls, most) > limits.max_urls) continue;
      if (status s = tally_kept(p); !s) return s;
    }
  }
  for (const layout_leaf& local : plan_leaves(tallies_, level_bits, limits)) {
    layout_leaf leaf = local;
    leaf.depth = depth_ + local.depth;
    leaf.prefix = (prefix_ << local.depth) | local.prefix;
    const bool deeper = !limits.fits(local.tally) && leaf.depth < 64;
    if (deeper) {
      // One partition over a file's limits: park it again by its next
      // bits and plan it on its own. It is read through a sixteenth of
      // this level's buffer, and the level below borrows the rest, where
      // both fit (not under a test's tiny buffers).
      const std::size_t whole = fanout * buffer_bytes_;
      const std::size_t window = whole / 16;
      const std::size_t below_slice = (whole - window) / fanout;
      const bool lend = window >= gap + max_head && below_slice >= gap + max_head;
      layout_spool below(names_, lend ? below_slice : buffer_bytes_, marks_,
                         leaf.depth, leaf.prefix, disk_bytes_, reference_,
                         pool_, lend ? slices_ + window : nullptr);
      if (status s = park_below(local.first_bucket, below, lend ? window : 0);
          !s)
        return s;
      if (status s = below.replay(limits, r); !s) return s;
      continue;
    }
    if (status s = r.begin(leaf); !s) return s;
    if (status s = merge(local.first_bucket, local.end_bucket, r); !s) return s;
    if (status s = r.end(leaf); !s) return s;
  }
  // A partition whose every entry is left out is in no leaf: read through
  // all the same, so that the filter is told of each.
  for (std::size_t p = 0; filter_ != nullptr && p < fanout; ++p) {
    if (!partitions_[p].file) continue;
    std::vector<std::unique_ptr<run>> runs;
    if (status s = open_runs(p, p + 1, runs); !s) return s;
    for (bool more = !runs.empty(); more;) {
      auto out = left_out(*runs.front());
      if (!out) return out.err();
      if (!*out)
        return error{
            "internal: an entry kept by the stable layout's filter "
            "is in no leaf"};
      if (status s = runs.front()->next(more); !s) return s;
    }
  }
  if (depth_ == 0) pool_->idle.clear();  // every file read: removed
  filter_ = nullptr;
  return {};
}

}  // namespace sitemill::detail
