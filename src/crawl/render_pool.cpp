// The rendering crawl's browser side (render_pool.h).
#include "crawl/render_pool.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "crawl/crawl_http.h"
#include "detail/digest.h"
#include "net/chromium.h"

namespace sitemill::detail {
namespace {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a page's requests must all have been answered before it counts
// as settled (render_wait 0): puppeteer's networkidle0 uses the same 500 ms.
constexpr milliseconds idle_window{500};
// Control commands (a tab opened, a DOM read) answer within this.
constexpr milliseconds command_timeout{30'000};
// A page's DOM is read within this, and a browser asked if it still answers.
constexpr milliseconds read_timeout{10'000};
constexpr milliseconds ping_timeout{5'000};
constexpr std::size_t max_cached_body = 2u << 20;
constexpr std::size_t max_cache_bytes = 32u << 20;

// What a tab holds while it renders one page.
struct tab {
  std::uint64_t serial = 0;
  std::string target_id, session;
  clock::time_point started, loaded_at, last_activity;
  bool loaded = false;
  bool document_served = false;
  int in_flight = 0;  // requests asked of the crawl, not answered yet
  std::string failure;
};

// A request a page made and the crawl fetches: whose it is.
struct asked {
  std::uint64_t tab_serial = 0;
  std::string request_id;
  std::string url;
};

struct cached {
  long status = 0;
  std::string content_type, body;
};

std::string header_list(const std::string& content_type,
                        const std::string& location) {
  std::string out = "[";
  auto add = [&](std::string_view name, const std::string& value) {
    if (value.empty()) return;
    if (out.size() > 1) out += ',';
    out += "{\"name\":";
    append_json_string(out, name);
    out += ",\"value\":";
    append_json_string(out, value);
    out += '}';
  };
  add("Content-Type", content_type);
  add("Location", location);
  return out + "]";
}

}  // namespace

// The render thread's own state.
struct render_pool::state {
  render_pool& pool;
  chromium_options browser_options;
  std::unique_ptr<chromium> browser;
  std::list<std::pair<tab, job_in>> tabs;
  std::unordered_map<std::uint64_t, asked> asked_of_crawl;
  std::unordered_map<std::string, cached> cache;
  std::size_t cache_bytes = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> navigations;  // id: tab
  std::uint64_t next_serial = 1, next_fetch = 1;
  bool hung = false;  // a command went unanswered: the browser hangs

  explicit state(render_pool& p) : pool(p) {}

  cdp_client& cdp() { return browser->client(); }

  std::pair<tab, job_in>* by_session(const std::string& session) {
    for (auto& t : tabs)
      if (t.first.session == session) return &t;
    return nullptr;
  }
  std::pair<tab, job_in>* by_serial(std::uint64_t serial) {
    for (auto& t : tabs)
      if (t.first.serial == serial) return &t;
    return nullptr;
  }

  status start_browser() {
    auto b = chromium::start(browser_options, &pool.stop_);
    if (!b) return b.err();
    browser = std::move(*b);
    browser->client().set_wake_fd(pool.wake_fd_);
    // Target.targetCrashed: a tab's renderer died (its heap's ceiling).
    auto discover = cdp().call("Target.setDiscoverTargets",
                               cdp_params().add("discover", true).str(), {},
                               command_timeout, &pool.stop_);
    if (!discover) return discover.err();
    return {};
  }

  // Opens a tab for `j` and starts loading it; false when the browser
  // failed (the job is then back at the queue's front).
  bool open(job_in j) {
    tab t;
    t.serial = next_serial++;
    t.started = t.last_activity = clock::now();
    auto target = cdp().call("Target.createTarget",
                             cdp_params().add("url", "about:blank").str(), {},
                             command_timeout, &pool.stop_);
    if (!target) return requeue(std::move(j));
    t.target_id = json_member(target->body, {"targetId"}).value_or("");
    auto attached = cdp().call(
        "Target.attachToTarget",
        cdp_params().add("targetId", t.target_id).add("flatten", true).str(),
        {}, command_timeout, &pool.stop_);
    if (!attached) return requeue(std::move(j));
    t.session = json_member(attached->body, {"sessionId"}).value_or("");
    const std::string ua = crawl_user_agent(pool.o_);
    if (!cdp().call(
            "Fetch.enable",
            cdp_params().add_json("patterns", "[{\"urlPattern\":\"*\"}]").str(),
            t.session, command_timeout, &pool.stop_) ||
        !cdp().call("Page.enable", "{}", t.session, command_timeout,
                    &pool.stop_) ||
        // Inspector.targetCrashed: a tab past its heap, or killed.
        !cdp().call("Inspector.enable", "{}", t.session, command_timeout,
                    &pool.stop_) ||
        !cdp().call("Emulation.setUserAgentOverride",
                    cdp_params().add("userAgent", ua).str(), t.session,
                    command_timeout, &pool.stop_)) {
      return requeue(std::move(j));
    }
    // Not waited for: its answer comes once the document's request, which
    // is paused, has been answered.
    auto navigation = cdp().send(
        "Page.navigate", cdp_params().add("url", j.job.url).str(), t.session);
    if (!navigation) return requeue(std::move(j));
    navigations[*navigation] = t.serial;
    tabs.emplace_back(std::move(t), std::move(j));
    return true;
  }

  // The browser failed while `j` was being opened: `j` goes back to the
  // queue's front, unless this is its second time.
  bool requeue(job_in j) {
    {
      std::lock_guard lock(pool.mu_);
      if (++j.attempts < 2) {
        pool.jobs_.push_front(std::move(j));
        return false;
      }
      render_result r;
      r.job = std::move(j.job);
      r.job.body.clear();
      r.failure = "the browser failed to open a tab for it twice";
      pool.done_.push_back(std::move(r));
    }
    pool.mail_.notify_all();
    pool.wake_();
    return false;
  }

  void finish(std::pair<tab, job_in>& entry, std::string failure) {
    render_result r;
    r.job = std::move(entry.second.job);
    r.failure = std::move(failure);
    if (r.failure.empty()) {
      auto dom =
          cdp().call("Runtime.evaluate",
                     cdp_params()
                         .add("expression",
                              "(document.doctype ? new XMLSerializer()"
                              ".serializeToString(document.doctype) : '') + "
                              "document.documentElement.outerHTML")
                         .add("returnByValue", true)
                         .str(),
                     entry.first.session, read_timeout, &pool.stop_);
      std::optional<std::string> html;
      if (dom) html = json_member(dom->body, {"result", "value"});
      if (html) {
        r.job.body = std::move(*html);
      } else {
        r.failure = dom ? "the page has no DOM" : dom.err().message;
        // A tab that does not answer (its renderer stuck or gone) is the
        // page's failure; a browser that does not either hangs.
        hung = !dom && !cdp().broken() &&
               !cdp().call("Browser.getVersion", "{}", {}, ping_timeout,
                           &pool.stop_);
      }
    }
    if (!r.failure.empty()) r.job.body.clear();
    (void)cdp().send("Target.closeTarget",
                     cdp_params().add("targetId", entry.first.target_id).str());
    const std::uint64_t serial = entry.first.serial;
    tabs.remove_if([&](const auto& t) { return t.first.serial == serial; });
    {
      std::lock_guard lock(pool.mu_);
      pool.done_.push_back(std::move(r));
    }
    pool.mail_.notify_all();
    pool.wake_();
  }

  void fulfil(const tab& t, const std::string& request_id, long status,
              const std::string& content_type, const std::string& location,
              std::string_view body) {
    (void)cdp().send(
        "Fetch.fulfillRequest",
        cdp_params()
            .add("requestId", request_id)
            .add("responseCode", static_cast<long long>(status))
            .add_json("responseHeaders", header_list(content_type, location))
            .add("body", base64(body))
            .str(),
        t.session);
  }

  void refuse(const tab& t, const std::string& request_id,
              bool counted = true) {
    if (counted) ++pool.refused_;
    (void)cdp().send("Fetch.failRequest",
                     cdp_params()
                         .add("requestId", request_id)
                         .add("errorReason", "BlockedByClient")
                         .str(),
                     t.session);
  }

  // A request a page made: answered, refused, or asked of the crawl.
  void paused(std::pair<tab, job_in>& entry, const cdp_message& m) {
    tab& t = entry.first;
    t.last_activity = clock::now();
    const std::string id = json_member(m.body, {"requestId"}).value_or("");
    const std::string url =
        json_member(m.body, {"request", "url"}).value_or("");
    const std::string method =
        json_member(m.body, {"request", "method"}).value_or("");
    const std::string type = json_member(m.body, {"resourceType"}).value_or("");
    const std::string frame = json_member(m.body, {"frameId"}).value_or("");
    if (type == "Image" || type == "Font" || type == "Media")
      return refuse(t, id, false);
    if (type == "Document" && frame == t.target_id) {
      if (t.document_served) return refuse(t, id);  // a script navigating away
      t.document_served = true;
      return fulfil(t, id, 200, entry.second.content_type, {},
                    entry.second.job.body);
    }
    normalized_url u;
    if ((method != "GET") || normalize_url(url, u) != url_problem::ok ||
        u.origin() != pool.start_.origin() ||
        (pool.robots_ != nullptr &&
         !pool.robots_->allowed(u.href().substr(u.origin().size())))) {
      return refuse(t, id);
    }
    if (auto hit = cache.find(std::string(u.href())); hit != cache.end())
      return fulfil(t, id, hit->second.status, hit->second.content_type, {},
                    hit->second.body);
    const std::uint64_t fetch_id = next_fetch++;
    asked_of_crawl[fetch_id] = {t.serial, id, std::string(u.href())};
    ++t.in_flight;
    {
      std::lock_guard lock(pool.mu_);
      pool.fetches_.push_back({fetch_id, std::string(u.href())});
    }
    pool.mail_.notify_all();
    pool.wake_();
  }

  void answered(render_answer& a) {
    auto it = asked_of_crawl.find(a.id);
    if (it == asked_of_crawl.end()) return;
    asked req = std::move(it->second);
    asked_of_crawl.erase(it);
    auto* entry = by_serial(req.tab_serial);
    if (entry == nullptr) return;  // the page finished without it
    tab& t = entry->first;
    --t.in_flight;
    t.last_activity = clock::now();
    if (!a.error.empty()) {
      (void)cdp().send("Fetch.failRequest",
                       cdp_params()
                           .add("requestId", req.request_id)
                           .add("errorReason", "Failed")
                           .str(),
                       t.session);
      return;
    }
    fulfil(t, req.request_id, a.status, a.content_type, a.location, a.body);
    if (a.status == 200 && a.body.size() <= max_cached_body &&
        cache_bytes + a.body.size() <= max_cache_bytes) {
      cache_bytes += a.body.size();
      cache[req.url] = {a.status, std::move(a.content_type), std::move(a.body)};
    }
  }

  // Why a tab crashed is not told; a page's scripts past the heap's
  // ceiling is the usual cause, and the one the user can change.
  std::string crashed() const {
    return "the page crashed its tab (its scripts needed more than the "
           "tab's " +
           std::to_string(pool.o_.render_memory_mib) +
           " MiB of JavaScript heap, `render_memory_mib`, or it crashed "
           "otherwise)";
  }

  void event(const cdp_message& m) {
    if (m.id != 0) {  // an answer to a command not waited for
      auto nav = navigations.find(m.id);
      if (nav == navigations.end()) return;
      auto* entry = by_serial(nav->second);
      navigations.erase(nav);
      if (entry == nullptr) return;
      std::string why = m.error.empty()
                            ? json_member(m.body, {"errorText"}).value_or("")
                            : m.error;
      if (!why.empty()) entry->first.failure = "cannot load it: " + why;
      return;
    }
    if (m.method == "Target.targetCrashed") {
      const std::string target = json_member(m.body, {"targetId"}).value_or("");
      for (auto& t : tabs)
        if (t.first.target_id == target)
          t.first.failure = crashed();
      return;
    }
    auto* entry = by_session(m.session_id);
    if (entry == nullptr) return;
    if (m.method == "Fetch.requestPaused") {
      paused(*entry, m);
    } else if (m.method == "Page.loadEventFired") {
      entry->first.loaded = true;
      entry->first.loaded_at = clock::now();
    } else if (m.method == "Inspector.targetCrashed") {
      entry->first.failure = crashed();
    }
  }

  // Pages settled, failed or past their time: finished. The time until the
  // next one may be.
  milliseconds settle() {
    const auto now = clock::now();
    milliseconds next = milliseconds(100);
    const milliseconds wait = pool.o_.render_wait;
    for (auto it = tabs.begin(); it != tabs.end();) {
      auto current = it++;
      tab& t = current->first;
      if (!t.failure.empty()) {
        finish(*current, t.failure);
        continue;
      }
      if (now - t.started >= pool.o_.render_timeout) {
        finish(*current,
               "not settled within " +
                   std::to_string(pool.o_.render_timeout.count() / 1000) +
                   " s");
        continue;
      }
      if (!t.loaded) continue;
      const auto ready =
          wait.count() > 0
              ? t.loaded_at + wait
              : std::max(t.loaded_at, t.last_activity) + idle_window;
      if (t.in_flight == 0 && now >= ready) {
        finish(*current, "");
        continue;
      }
      if (t.in_flight == 0)
        next = std::min(next, std::chrono::ceil<milliseconds>(ready - now));
    }
    return std::max(next, milliseconds(1));
  }

  // The browser died or hangs: a new one, and its pages again (twice at
  // most). False when none could be started.
  bool restart(const std::string& why) {
    browser.reset();
    ++pool.restarts_;
    asked_of_crawl.clear();
    navigations.clear();
    std::deque<job_in> again;
    for (auto& t : tabs) {
      job_in j = std::move(t.second);
      if (++j.attempts >= 2) {
        render_result r;
        r.job = std::move(j.job);
        r.job.body.clear();
        r.failure = "the browser ended twice while rendering it (" + why + ")";
        std::lock_guard lock(pool.mu_);
        pool.done_.push_back(std::move(r));
      } else {
        again.push_back(std::move(j));
      }
    }
    tabs.clear();
    {
      std::lock_guard lock(pool.mu_);
      pool.jobs_.insert(pool.jobs_.begin(),
                        std::make_move_iterator(again.begin()),
                        std::make_move_iterator(again.end()));
    }
    pool.mail_.notify_all();
    pool.wake_();
    return bool(start_browser());
  }
};

render_pool::render_pool(const crawl_options& o, const normalized_url& start,
                         const robots_rules* robots, std::function<void()> wake)
    : o_(o), start_(start), robots_(robots), wake_(std::move(wake)) {
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { work(); });
}

render_pool::~render_pool() {
  stop_ = true;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
  thread_.join();
  ::close(wake_fd_);
}

void render_pool::submit(page_job job, std::string content_type) {
  {
    std::lock_guard lock(mu_);
    ++pending_;
    jobs_.push_back({std::move(job), std::move(content_type), 0});
  }
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

void render_pool::answer(render_answer a) {
  {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(a));
  }
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

void render_pool::take(std::vector<render_fetch>& fetches,
                       std::vector<render_result>& done) {
  std::lock_guard lock(mu_);
  fetches.swap(fetches_);
  fetches_.clear();
  done.swap(done_);
  done_.clear();
  pending_ -= done.size();
}

std::size_t render_pool::pending() const {
  std::lock_guard lock(mu_);
  return pending_;
}

void render_pool::wait(std::chrono::milliseconds most) {
  std::unique_lock lock(mu_);
  mail_.wait_for(lock, most, [&] {
    return !fetches_.empty() || !done_.empty() || pending_ == 0 ||
           !fatal_.empty();
  });
}

std::string render_pool::fatal() const {
  std::lock_guard lock(mu_);
  return fatal_;
}

void render_pool::work() {
  state s(*this);
  s.browser_options.program = o_.browser;
  s.browser_options.extra_args.push_back("--js-flags=--max-old-space-size=" +
                                         std::to_string(o_.render_memory_mib));
  auto fail_all = [&](const std::string& why) {
    std::lock_guard lock(mu_);
    fatal_ = why;
    mail_.notify_all();
  };
  // The browser starts with the first page: a crawl that renders nothing
  // (robots.txt disallows it all, no page is HTML) starts none.
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      if (!jobs_.empty()) break;
    }
    pollfd p{wake_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      std::uint64_t count;
      (void)!::read(wake_fd_, &count, sizeof count);
    }
  }
  if (status st = s.start_browser(); !st) {
    fail_all(st.message());
    wake_();
    return;
  }
  std::vector<render_answer> answers;
  for (;;) {
    std::deque<job_in> ready;
    {
      std::lock_guard lock(mu_);
      if (stopping_) break;
      answers.swap(answers_);
      const std::size_t tabs = std::max(1u, o_.render_concurrency);
      const std::size_t room = s.tabs.size() < tabs ? tabs - s.tabs.size() : 0;
      while (ready.size() < room && !jobs_.empty()) {
        ready.push_back(std::move(jobs_.front()));
        jobs_.pop_front();
      }
    }
    for (render_answer& a : answers) s.answered(a);
    answers.clear();
    bool broken = false;
    while (!ready.empty() && !broken) {
      job_in j = std::move(ready.front());
      ready.pop_front();
      broken = !s.open(std::move(j));
    }
    if (!ready.empty()) {
      std::lock_guard lock(mu_);
      jobs_.insert(jobs_.begin(), std::make_move_iterator(ready.begin()),
                   std::make_move_iterator(ready.end()));
    }
    if (!broken) {
      const milliseconds step = s.settle();
      auto m = s.cdp().next(step, &stop_);
      if (m && *m) s.event(**m);
      broken = !m || s.cdp().broken() || s.hung;
      s.hung = false;
    }
    if (broken) {
      const std::string why = s.browser->running() ? "it stopped answering"
                                                   : s.browser->how_it_ended();
      if (!s.restart(why)) {
        fail_all("the browser could not be started again after it ended (" +
                 why + ")");
        wake_();
        return;
      }
    }
  }
}

}  // namespace sitemill::detail
