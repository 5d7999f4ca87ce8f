#include "detail/inflate.h"

#include <algorithm>

namespace sitemill::detail {

namespace {
// zlib counts in uInt; clamp so that a huge buffer is never misread.
constexpr std::size_t max_uint = std::numeric_limits<uInt>::max();
}  // namespace

gzip_inflater::~gzip_inflater() {
  if (started_) inflateEnd(&zs_);
}

const char* gzip_inflater::message() const noexcept {
  switch (state_) {
    case status::ok:
      return "ok";
    case status::trailing_data:
      return "bytes that are not gzip follow the last member";
    case status::corrupt:
      return message_ != nullptr ? message_ : "corrupt stream";
    case status::output_limit:
      return "the data inflates beyond the limit";
    case status::no_memory:
      return "out of memory in the gzip decoder";
  }
  return "corrupt stream";
}

gzip_inflater::step gzip_inflater::inflate(const char* in, std::size_t in_size,
                                           char* out,
                                           std::size_t out_size) noexcept {
  step s;
  if (state_ != status::ok) {
    s.result = state_;
    return s;
  }
  for (;;) {
    if (!in_member_) {
      if (s.consumed == in_size) break;
      if (!started_) {
        // 16 + 15: gzip framing only (never zlib or raw deflate), the
        // largest window.
        if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) {
          state_ = status::no_memory;
          s.result = state_;
          return s;
        }
        started_ = true;
      } else {
        inflateReset(&zs_);  // another member follows (cat a.gz b.gz)
        magic_left_ = 2;
      }
      in_member_ = true;
      member_output_ = false;
    }
    const std::size_t room = out_size - s.produced;
    if (room == 0) break;
    // After a member, what does not start with the magic bytes is trailing
    // data at once, even a single byte (zlib would wait for a second one
    // and then call a lone newline a cut-off member).
    for (std::size_t k = 0; magic_left_ > 0 && s.consumed + k < in_size;
         ++k, --magic_left_) {
      const unsigned char want = magic_left_ == 2 ? 0x1F : 0x8B;
      if (static_cast<unsigned char>(in[s.consumed + k]) != want) {
        state_ = status::trailing_data;
        in_member_ = false;
        s.result = state_;
        return s;
      }
    }
    // One byte past the limit is asked for, to tell a stream that ends at
    // the limit from one that goes beyond it.
    const std::uint64_t allowed = max_output_ - total_out_;
    std::size_t give = room;
    if (allowed < give) give = static_cast<std::size_t>(allowed) + 1;
    give = std::min(give, max_uint);
    const std::size_t offer = std::min(in_size - s.consumed, max_uint);

    zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in + s.consumed));
    zs_.avail_in = static_cast<uInt>(offer);
    zs_.next_out = reinterpret_cast<Bytef*>(out + s.produced);
    zs_.avail_out = static_cast<uInt>(give);
    const int rc = ::inflate(&zs_, Z_NO_FLUSH);
    const std::size_t taken = offer - zs_.avail_in;
    std::size_t made = give - zs_.avail_out;
    s.consumed += taken;
    if (made > 0) {
      member_output_ = true;
      if (made > allowed) {
        made = static_cast<std::size_t>(allowed);
        state_ = status::output_limit;
      }
      s.produced += made;
      total_out_ += made;
      if (state_ != status::ok) {
        s.result = state_;
        return s;
      }
    }
    if (rc == Z_STREAM_END) {
      in_member_ = false;
      ++members_done_;
      continue;
    }
    if (rc == Z_OK) {
      // Input used up with room to spare: zlib holds no more output.
      if (s.consumed == in_size && zs_.avail_out != 0) break;
      if (taken == 0 && made == 0) break;  // never spin
      continue;
    }
    if (rc == Z_BUF_ERROR) break;  // needs more input
    if (rc == Z_MEM_ERROR) {
      state_ = status::no_memory;
    } else if (members_done_ > 0 && !member_output_) {
      // What gzip -d calls "trailing garbage": the member that would follow
      // fails before giving a byte.
      state_ = status::trailing_data;
      in_member_ = false;
    } else {
      state_ = status::corrupt;
      message_ = zs_.msg;  // zlib's messages are string literals
    }
    s.result = state_;
    return s;
  }
  return s;
}

}  // namespace sitemill::detail
