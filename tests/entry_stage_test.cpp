// Tests for generate's threaded entry stage: batches come back in input order
// whatever order the workers finish them in, each record's result and
// messages belong to that record, a cancelled stage stops reading and keeps
// what it handed out, and batches are reused rather than grown.
#include "generate/entry_stage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "detail/text.h"
#include "sitemill/entry/entry.h"

namespace sitemill::detail {
namespace {

constexpr std::string_view not_a_date =
    "no such date: the year must be 0001-9999, the month 01-12 and the day "
    "must exist in that month";

// One input record as a source would give it, owning its text.
struct raw {
  std::uint64_t line = 0;
  std::string loc, lastmod, changefreq, priority, problem, skipped, source;
};

// A record_reader over records in memory, failing after them when given an
// error. Counts how often it was opened through `opens`.
class vector_reader final : public record_reader {
 public:
  vector_reader(const std::vector<raw>& records, std::string error,
                std::vector<note> notes)
      : records_(records),
        error_at_end_(std::move(error)),
        notes_(std::move(notes)) {}

  bool next(input_record& out) override {
    if (next_ == records_.size()) {
      error_ = error_at_end_;
      return false;
    }
    const raw& r = records_[next_++];
    out = input_record{};
    out.line = r.line;
    out.loc = r.loc;
    out.lastmod = r.lastmod;
    out.changefreq = r.changefreq;
    out.priority = r.priority;
    out.problem = r.problem;
    out.skipped = r.skipped;
    out.source = r.source;
    return true;
  }
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  const std::vector<raw>& records_;
  std::size_t next_ = 0;
  std::string error_at_end_;
  std::string error_;
  std::vector<note> notes_;
};

// An input's records, kept alive by the test while the stage reads them.
struct test_input {
  std::vector<raw> records;
  std::string error;  // reading fails with this after the records
  std::vector<record_reader::note> notes;
  std::shared_ptr<std::atomic<int>> opens =
      std::make_shared<std::atomic<int>>(0);

  entry_stage::input make() const {
    return {[this](const std::atomic<bool>*) -> result<std::unique_ptr<record_reader>> {
      ++*opens;
      return std::unique_ptr<record_reader>(
          std::make_unique<vector_reader>(records, error, notes));
    }};
  }
};

// `count` records https://example.com/seq/0000001, ... on lines 1, 2, ...,
// made as they are read (a few hundred thousand would not fit a vector
// cheaply); endless when `count` is 0. Fixed-width numbers make every batch
// the same size. `made` counts the records handed out.
class counting_reader final : public record_reader {
 public:
  counting_reader(std::uint64_t count, std::atomic<std::uint64_t>& made)
      : count_(count), made_(made) {}
  bool next(input_record& out) override {
    if (count_ != 0 && n_ == count_) return false;
    ++n_;
    ++made_;
    loc_ = seq_loc(n_);
    out = input_record{};
    out.line = n_;
    out.loc = loc_;
    return true;
  }
  const std::string& error() const noexcept override { return none_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

  static std::string seq_loc(std::uint64_t n) {
    std::string digits = std::to_string(n);
    return "https://example.com/seq/" + std::string(7 - digits.size(), '0') +
           digits;
  }

 private:
  std::uint64_t count_;
  std::atomic<std::uint64_t>& made_;
  std::uint64_t n_ = 0;
  std::string loc_;
  std::string none_;
  std::vector<note> notes_;
};

entry_stage::input counting_input(std::uint64_t count,
                                  std::atomic<std::uint64_t>& made) {
  return {[count, &made](const std::atomic<bool>*) -> result<std::unique_ptr<record_reader>> {
    return std::unique_ptr<record_reader>(
        std::make_unique<counting_reader>(count, made));
  }};
}

// What the stage must make of one record, worked out on this thread with
// the same entry_builder and append_entry the stage uses.
struct expected {
  bool written = false;
  bool skipped = false;
  std::string xml;
  std::string lastmod;                // format_lastmod() text, "" if none
  std::vector<std::string> messages;  // the reject message, or the warnings
  std::uint32_t field_warnings = 0;
  std::string loc;  // normalised, when written
};

std::string lastmod_text(const std::optional<w3c_datetime>& value) {
  if (!value) return {};
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(*value, buf));
}

expected expect(const raw& r, document_type type) {
  expected e;
  if (!r.skipped.empty()) {
    e.skipped = true;
    e.messages.push_back(r.loc + ": " + r.skipped);
    return e;
  }
  if (!r.problem.empty()) {
    e.messages.push_back(r.problem);
    return e;
  }
  entry_builder builder{url_normalizer{}};
  url_entry entry;
  std::vector<field_warning> warnings;
  const auto built = builder.build(r.loc, r.lastmod, r.changefreq, r.priority,
                                   entry, warnings);
  if (built.problem != url_problem::ok) {
    std::string why(describe(built.problem));
    why += ": ";
    append_printable(why, trim(r.loc));
    e.messages.push_back(std::move(why));
    return e;
  }
  e.written = true;
  e.loc = std::string(entry.loc);
  e.lastmod = lastmod_text(entry.lastmod);
  append_entry(e.xml, entry, type);
  for (const auto& w : warnings) e.messages.push_back(w.message);
  e.field_warnings = static_cast<std::uint32_t>(warnings.size());
  if (built.notes.fragment_removed)
    e.messages.push_back("fragment removed from " + e.loc);
  return e;
}

// Record `i` of input `k`: mostly good URLs, with a problem, a skip, a bad
// URL, a bad field or a fragment mixed in at fixed strides. Heavy records
// carry long non-ASCII paths, so their batches cost a worker far more.
raw make_record(std::size_t k, std::size_t i, bool heavy) {
  raw r;
  r.line = 2 * i + 1;
  r.loc = "https://example.com/in" + std::to_string(k) + "/" +
          std::to_string(i) + "/";
  if (heavy) {
    for (int n = 0; n < 120; ++n) r.loc += "caf\xC3\xA9-";
  }
  if (i % 5 == 1) r.lastmod = "2024-01-15T10:30:45+01:00";
  if (i % 6 == 2) r.changefreq = "weekly";
  if (i % 4 == 3) r.priority = "0.8";
  if (i % 17 == 3) {
    r.problem = "invalid JSON: expected ',' or '}' at column " +
                std::to_string(i % 50 + 1);
  } else if (i % 19 == 5) {
    r.skipped = "noindex";
  } else if (i % 13 == 7) {
    r.loc = "ftp://example.com/" + std::to_string(i);
  } else if (i % 11 == 2) {
    r.lastmod = "2024-02-30";
  } else if (i % 7 == 1) {
    r.loc += "#part";
  }
  if (i % 29 == 0) r.source = "child-" + std::to_string(i / 29) + ".xml";
  return r;
}

test_input make_input(std::size_t k, std::size_t count, bool heavy) {
  test_input in;
  for (std::size_t i = 0; i < count; ++i)
    in.records.push_back(make_record(k, i, heavy));
  return in;
}

// Inputs of uneven size and cost, one of them empty.
std::vector<test_input> uneven_inputs() {
  std::vector<test_input> inputs;
  inputs.push_back(make_input(0, 700, true));
  inputs.push_back(make_input(1, 5000, false));
  inputs.push_back(make_input(2, 0, false));
  inputs.push_back(make_input(3, 50, true));
  inputs.push_back(make_input(4, 3000, false));
  inputs.back().notes = {{1, "unknown column \"title\" ignored"}};
  return inputs;
}

// Compares record `i` of batch `b` with what `r` must give.
void expect_record(const record_batch& b, std::size_t i, const raw& r,
                   document_type type) {
  SCOPED_TRACE(::testing::Message() << "line " << r.line << ", loc " << r.loc);
  ASSERT_LT(i, b.records.size());
  ASSERT_EQ(b.results.size(), b.records.size());
  const auto& rec = b.records[i];
  const auto& res = b.results[i];
  EXPECT_EQ(rec.line, r.line);
  EXPECT_EQ(b.field(rec, record_batch::source_field), r.source);
  const expected e = expect(r, type);
  EXPECT_EQ(res.written, e.written);
  EXPECT_EQ(res.skipped, e.skipped);
  if (!e.written) {
    ASSERT_LT(res.reject_message, b.messages.size());
    EXPECT_EQ(b.messages[res.reject_message], e.messages.at(0));
    return;
  }
  EXPECT_EQ(std::string_view(b.xml).substr(res.xml_offset, res.xml_length),
            e.xml);
  EXPECT_EQ(lastmod_text(res.lastmod), e.lastmod);
  const url_set::key key = url_set::hash(e.loc);
  EXPECT_EQ(res.key.fingerprint, key.fingerprint);
  EXPECT_EQ(res.key.shard, key.shard);
  ASSERT_LE(res.warnings_begin, res.warnings_end);
  ASSERT_LE(res.warnings_end, b.messages.size());
  const std::vector<std::string> got(b.messages.begin() + res.warnings_begin,
                                     b.messages.begin() + res.warnings_end);
  EXPECT_EQ(got, e.messages);
  EXPECT_EQ(res.field_warnings, e.field_warnings);
}

// Runs `inputs` through a stage and checks every record, in order, and
// where each input's batches end. Returns how many batches there were.
std::size_t run_and_check(const std::vector<test_input>& inputs,
                          unsigned workers, entry_stage::batch_hook hook = {},
                          document_type type = document_type::urlset) {
  std::vector<entry_stage::input> made;
  for (const auto& in : inputs) made.push_back(in.make());
  entry_stage stage(std::move(made), url_normalizer{}, type, workers,
                    std::move(hook));
  std::size_t batches = 0;
  std::size_t input = 0, pos = 0;
  while (record_batch* b = stage.next()) {
    ++batches;
    EXPECT_EQ(b->input, input);
    if (b->input != input) break;
    if (pos + b->records.size() > inputs[input].records.size()) {
      ADD_FAILURE() << "more records than input " << input << " has";
      break;
    }
    for (std::size_t i = 0; i < b->records.size(); ++i)
      expect_record(*b, i, inputs[input].records[pos++], type);
    if (b->last_of_input) {
      EXPECT_EQ(pos, inputs[input].records.size()) << "input " << input;
      EXPECT_EQ(b->notes.size(), inputs[input].notes.size());
      const std::size_t notes =
          std::min(b->notes.size(), inputs[input].notes.size());
      for (std::size_t n = 0; n < notes; ++n) {
        EXPECT_EQ(b->notes[n].line, inputs[input].notes[n].line);
        EXPECT_EQ(b->notes[n].message, inputs[input].notes[n].message);
      }
      ++input;
      pos = 0;
    } else {
      EXPECT_TRUE(b->notes.empty());
    }
    stage.release(b);
  }
  EXPECT_EQ(input, inputs.size()) << "inputs read to their end";
  EXPECT_EQ(stage.error(), "");
  return batches;
}

// Holds the worker that takes batch `seq` (for every `stride`-th seq) until
// another worker has started batch seq + stride. With `stride` workers that
// can only happen once a later batch has finished: batches are finished out
// of order, every time, without any timing.
class out_of_order_gate {
 public:
  out_of_order_gate(std::uint64_t stride, std::uint64_t batches)
      : stride_(stride), batches_(batches) {}
  void operator()(std::uint64_t seq) {
    std::unique_lock lock(mu_);
    started_.insert(seq);
    cv_.notify_all();
    if (seq % stride_ != 0 || seq + stride_ >= batches_) return;
    cv_.wait(lock, [&] { return started_.count(seq + stride_) != 0; });
    ++held_;
  }
  std::uint64_t held() {
    std::lock_guard lock(mu_);
    return held_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::uint64_t> started_;
  std::uint64_t held_ = 0;
  const std::uint64_t stride_, batches_;
};

// ---- order
// -------------------------------------------------------------------

TEST(EntryStage, ReturnsBatchesInInputOrderAtAnyWorkerCount) {
  const auto inputs = uneven_inputs();
  for (const unsigned workers : {1u, 2u, 3u, 8u}) {
    SCOPED_TRACE(::testing::Message() << workers << " workers");
    EXPECT_GT(run_and_check(inputs, workers), inputs.size());
  }
}

TEST(EntryStage, ReturnsBatchesInInputOrderWhenWorkersFinishOutOfOrder) {
  const auto inputs = uneven_inputs();
  const std::size_t batches = run_and_check(inputs, 1);
  ASSERT_GE(batches, 12u);
  constexpr unsigned workers = 4;
  auto gate = std::make_shared<out_of_order_gate>(workers, batches);
  EXPECT_EQ(run_and_check(inputs, workers,
                          [gate](std::uint64_t seq) { (*gate)(seq); }),
            batches);
  EXPECT_GE(gate->held(), 2u);
}

// ---- each record's result
// ----------------------------------------------------

TEST(EntryStage, EachRecordKeepsItsOwnResultAndMessages) {
  test_input in;
  in.records = {
      {1, "https://example.com/a", "2024-01-15", "daily", "0.5", "", "", ""},
      {2, "", "", "", "", "invalid JSON: unterminated string at column 9", "",
       ""},
      {3, "https://example.com/private", "", "", "", "", "noindex", "a.xml"},
      {4, "https://example.com/a\tb", "", "", "", "", "", ""},
      {5, "https://example.com/b#top", "2024-02-30", "often", "2", "", "",
       "b.xml"},
      {6, "  https://EXAMPLE.com/c  ", "", "", "", "", "", ""},
  };
  std::vector<entry_stage::input> made = {in.make()};
  entry_stage stage(std::move(made), url_normalizer{}, document_type::urlset,
                    3);
  record_batch* b = stage.next();
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->records.size(), 6u);
  for (std::size_t i = 0; i < in.records.size(); ++i)
    expect_record(*b, i, in.records[i], document_type::urlset);
  // The stage's own wording, spelled out once.
  const auto& r = b->results;
  EXPECT_TRUE(r[0].written);
  EXPECT_EQ(r[0].warnings_begin, r[0].warnings_end);
  EXPECT_EQ(b->messages[r[1].reject_message],
            "invalid JSON: unterminated string at column 9");
  EXPECT_TRUE(r[2].skipped);
  EXPECT_EQ(b->messages[r[2].reject_message],
            "https://example.com/private: noindex");
  EXPECT_FALSE(r[3].written);
  EXPECT_EQ(b->messages[r[3].reject_message],
            std::string(describe(url_problem::control_character)) +
                ": https://example.com/a\\x09b");
  ASSERT_EQ(r[4].warnings_end - r[4].warnings_begin, 4u);
  EXPECT_EQ(r[4].field_warnings, 3u);
  EXPECT_EQ(b->messages[r[4].warnings_begin],
            "lastmod \"2024-02-30\" dropped: " + std::string(not_a_date));
  EXPECT_EQ(b->messages[r[4].warnings_end - 1],
            "fragment removed from https://example.com/b");
  EXPECT_EQ(std::string_view(b->xml).substr(r[5].xml_offset, r[5].xml_length),
            "<url><loc>https://example.com/c</loc></url>\n");
  EXPECT_TRUE(b->last_of_input);
  stage.release(b);
  EXPECT_EQ(stage.next(), nullptr);
}

TEST(EntryStage, SerialisesEntriesForTheDocumentType) {
  std::vector<test_input> inputs;
  inputs.push_back(make_input(0, 300, false));
  run_and_check(inputs, 2, {}, document_type::text);
  // Text sitemaps carry the URL and a newline, no markup.
  std::vector<entry_stage::input> made = {inputs[0].make()};
  entry_stage stage(std::move(made), url_normalizer{}, document_type::text, 2);
  record_batch* b = stage.next();
  ASSERT_NE(b, nullptr);
  const auto& first = b->results.at(0);
  EXPECT_EQ(std::string_view(b->xml).substr(first.xml_offset, first.xml_length),
            "https://example.com/in0/0/\n");
  stage.release(b);
}

// ---- batches
// -----------------------------------------------------------------

TEST(EntryStage, ReusesAFixedSetOfBatchesThatDoNotGrow) {
  // 300 full batches through a pool of 4 per worker + 4 (entry_stage.cpp).
  constexpr unsigned workers = 2;
  constexpr std::uint64_t records = 300 * 1024;
  std::atomic<std::uint64_t> made{0};
  entry_stage stage({counting_input(records, made)}, url_normalizer{},
                    document_type::urlset, workers);
  struct sizes {
    std::size_t raw, records, xml, results, messages;
    bool operator==(const sizes&) const = default;
  };
  std::map<record_batch*, sizes> seen;
  std::uint64_t line = 0;
  std::size_t batches = 0;
  while (record_batch* b = stage.next()) {
    ++batches;
    for (std::size_t i = 0; i < b->records.size(); ++i) {
      ++line;
      ASSERT_EQ(b->records[i].line, line);
      ASSERT_EQ(b->field(b->records[i], 0), counting_reader::seq_loc(line));
      ASSERT_TRUE(b->results[i].written);
    }
    const sizes now{b->raw.capacity(), b->records.capacity(), b->xml.capacity(),
                    b->results.capacity(), b->messages.capacity()};
    auto [it, fresh] = seen.emplace(b, now);
    if (!fresh) {
      EXPECT_EQ(it->second, now) << "a reused batch grew";
    }
    stage.release(b);
  }
  EXPECT_EQ(line, records);
  EXPECT_GE(batches, 300u);
  EXPECT_LE(seen.size(), 4 * workers + 4);
}

TEST(EntryStage, BatchesTheConsumerHoldsStayIntactUntilReleased) {
  const auto inputs = uneven_inputs();
  std::vector<entry_stage::input> made;
  for (const auto& in : inputs) made.push_back(in.make());
  entry_stage stage(std::move(made), url_normalizer{}, document_type::urlset,
                    4);
  // Hold five batches while the stage works on, then check and release
  // them newest first.
  std::vector<record_batch*> held;
  for (int i = 0; i < 5; ++i) {
    held.push_back(stage.next());
    ASSERT_NE(held.back(), nullptr);
  }
  EXPECT_EQ(std::set<record_batch*>(held.begin(), held.end()).size(), 5u);
  std::size_t input = 0, pos = 0;
  std::vector<std::pair<std::size_t, std::size_t>> starts;
  for (record_batch* b : held) {
    if (b->input != input) {
      input = b->input;
      pos = 0;
    }
    starts.emplace_back(input, pos);
    pos += b->records.size();
  }
  for (std::size_t k = held.size(); k-- > 0;) {
    record_batch* b = held[k];
    for (std::size_t i = 0; i < b->records.size(); ++i)
      expect_record(*b, i,
                    inputs[starts[k].first].records[starts[k].second + i],
                    document_type::urlset);
    stage.release(b);
  }
}

// ---- cancellation and errors
// -------------------------------------------------

TEST(EntryStage, CancelStopsAnEndlessInputAndKeepsBatchesHandedOut) {
  constexpr unsigned workers = 2;
  std::atomic<std::uint64_t> made{0};
  {
    entry_stage stage({counting_input(0, made)}, url_normalizer{},
                      document_type::urlset, workers);
    record_batch* first = stage.next();
    record_batch* second = stage.next();
    record_batch* third = stage.next();
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    ASSERT_NE(third, nullptr);
    stage.release(first);
    stage.cancel();
    EXPECT_EQ(stage.next(), nullptr);
    EXPECT_EQ(stage.next(), nullptr);
    EXPECT_EQ(stage.error(), "");
    // What was handed out before the cancel is still whole.
    std::uint64_t line = second->records.at(0).line;
    for (record_batch* b : {second, third}) {
      ASSERT_EQ(b->records.size(), 1024u);
      for (std::size_t i = 0; i < b->records.size(); ++i, ++line) {
        raw r;
        r.line = line;
        r.loc = counting_reader::seq_loc(line);
        expect_record(*b, i, r, document_type::urlset);
      }
    }
    stage.release(second);
    stage.release(third);
  }
  // Leaving the scope joined every thread: reading stopped. It never ran
  // further ahead than the pool (4 per worker + 4) and one batch more.
  EXPECT_LE(made.load(), (4 * workers + 4 + 2) * 1024u);
}

// Blocks in next() until opened, then ends.
class gated_reader final : public record_reader {
 public:
  explicit gated_reader(std::shared_future<void> open) : open_(open) {}
  bool next(input_record&) override {
    open_.wait();
    return false;
  }
  const std::string& error() const noexcept override { return none_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  std::shared_future<void> open_;
  std::string none_;
  std::vector<note> notes_;
};

TEST(EntryStage, CancelWakesAConsumerWaitingInNext) {
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  entry_stage stage({{[open](const std::atomic<bool>*)
                          -> result<std::unique_ptr<record_reader>> {
                      return std::unique_ptr<record_reader>(
                          std::make_unique<gated_reader>(open));
                    }}},
                    url_normalizer{}, document_type::urlset, 2);
  std::promise<record_batch*> got;
  std::thread consumer([&] { got.set_value(stage.next()); });
  // The reader is stuck inside its source, so no batch can be made: only
  // cancel() can end the wait.
  stage.cancel();
  EXPECT_EQ(got.get_future().get(), nullptr);
  consumer.join();
  gate.set_value();
}

// Ends only when the stage's stop flag is set (or after ten seconds, so a
// broken stop cannot hang the suite); says which.
class stop_polling_reader final : public record_reader {
 public:
  stop_polling_reader(const std::atomic<bool>* stop, bool& saw_stop)
      : stop_(stop), saw_stop_(saw_stop) {}
  bool next(input_record&) override {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < give_up) {
      if (stop_ != nullptr && stop_->load()) {
        saw_stop_ = true;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  const std::string& error() const noexcept override { return none_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  const std::atomic<bool>* stop_;
  bool& saw_stop_;
  std::string none_;
  std::vector<note> notes_;
};

TEST(EntryStage, NextAsksWhetherToCancelWhileAnInputSendsNothing) {
  bool saw_stop = false;
  int asked = 0;
  {
    entry_stage stage(
        {{[&saw_stop](const std::atomic<bool>* stop)
              -> result<std::unique_ptr<record_reader>> {
          return std::unique_ptr<record_reader>(
              std::make_unique<stop_polling_reader>(stop, saw_stop));
        }}},
        url_normalizer{}, document_type::urlset, 2);
    // The input sends nothing: only the question asked while waiting can
    // end next(), and the answer reaches the reader through its stop flag.
    EXPECT_EQ(stage.next([&asked] { return ++asked == 2; }), nullptr);
  }
  EXPECT_EQ(asked, 2);
  EXPECT_TRUE(saw_stop);
}

TEST(EntryStage, AnInputThatCannotBeOpenedEndsReadingWithItsError) {
  std::vector<test_input> inputs;
  inputs.push_back(make_input(0, 1500, false));
  inputs.push_back(make_input(2, 10, false));
  std::vector<entry_stage::input> made = {
      inputs[0].make(),
      {[](const std::atomic<bool>*) -> result<std::unique_ptr<record_reader>> {
        return error{"cannot open b.txt: No such file or directory"};
      }},
      inputs[1].make()};
  entry_stage stage(std::move(made), url_normalizer{}, document_type::urlset,
                    2);
  std::size_t pos = 0;
  while (record_batch* b = stage.next()) {
    EXPECT_EQ(b->input, 0u);
    for (std::size_t i = 0; i < b->records.size(); ++i)
      expect_record(*b, i, inputs[0].records.at(pos++), document_type::urlset);
    stage.release(b);
  }
  EXPECT_EQ(pos, 1500u);
  EXPECT_EQ(stage.error(), "cannot open b.txt: No such file or directory");
  EXPECT_EQ(inputs[1].opens->load(), 0) << "no input after the failed one";
}

TEST(EntryStage, AReadErrorKeepsTheRecordsReadBeforeIt) {
  std::vector<test_input> inputs;
  inputs.push_back(make_input(0, 1100, false));
  inputs.back().error = "in.txt:2201: gzip data is truncated";
  inputs.back().notes = {{1, "unknown column \"x\" ignored"}};
  inputs.push_back(make_input(1, 10, false));
  std::vector<entry_stage::input> made = {inputs[0].make(), inputs[1].make()};
  entry_stage stage(std::move(made), url_normalizer{}, document_type::urlset,
                    2);
  std::size_t pos = 0;
  bool last_seen = false;
  while (record_batch* b = stage.next()) {
    EXPECT_EQ(b->input, 0u);
    for (std::size_t i = 0; i < b->records.size(); ++i)
      expect_record(*b, i, inputs[0].records.at(pos++), document_type::urlset);
    if (b->last_of_input) {
      last_seen = true;
      ASSERT_EQ(b->notes.size(), 1u);
      EXPECT_EQ(b->notes[0].message, "unknown column \"x\" ignored");
    }
    stage.release(b);
  }
  EXPECT_EQ(pos, 1100u);
  EXPECT_TRUE(last_seen);
  EXPECT_EQ(stage.error(), "in.txt:2201: gzip data is truncated");
  EXPECT_EQ(inputs[1].opens->load(), 0);
}

TEST(EntryStage, NoInputsGiveNoBatches) {
  entry_stage stage({}, url_normalizer{}, document_type::urlset, 2);
  EXPECT_EQ(stage.next(), nullptr);
  EXPECT_EQ(stage.error(), "");
}

TEST(EntryStage, ZeroWorkersMeansOne) {
  std::vector<test_input> inputs;
  inputs.push_back(make_input(0, 2000, false));
  EXPECT_GE(run_and_check(inputs, 0), 2u);
}

}  // namespace
}  // namespace sitemill::detail
