#pragma once
// Obviously-correct reference models, written independently of the engine: std::list,
// std::deque and linear scans, one victim per fault, the DESIGN semantics spelled out.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pagesim/result.hpp"
#include "pagesim/rng.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::test {

// A naive policy sees every access (after the model updated the page state) and picks one
// victim among `resident` when memory is full.
struct NaivePolicy {
  virtual ~NaivePolicy() = default;
  virtual void access(PageId page, bool hit, std::size_t index) = 0;
  virtual PageId victim(const std::vector<PageId>& resident, const std::vector<bool>& dirty) = 0;
  virtual void evicted(PageId) {}
  // Told of every fault before victim() is asked (ARC-like policies choose by the incoming page).
  virtual void faulting(PageId) {}
  // Told the memory size once, before the first access.
  virtual void start(std::size_t /*frames*/) {}
  // Told of each anonymous page of an exited process, resident or not (free_on_exit): it
  // leaves every list, history included.
  virtual void freed(PageId) { throw std::logic_error("this naive model has no exits"); }
  // Pages the model examined to choose victims and kept (a hand passing over a visited page):
  // with the victims, its pages_scanned.
  std::uint64_t kept_scanned = 0;
  // Dirty pages victim() wrote without evicting them (a writeback), in order: naive_run
  // counts each write and makes the page clean, then empties the list.
  std::vector<PageId> written;
};

// Counts as the DESIGN says: first touch of an anon page is minor, of a file page major with
// a file read; a later fault is major, a swap-in if the page has a swap copy; evicting a
// dirty page writes it (anon: to swap, keeping the slot; file: to its file), and so does a
// writeback (NaivePolicy::written), which leaves it resident and clean. With
// `free_on_exit`, after a process's last access (unless it is the trace's last) its anonymous
// pages leave memory and their swap copies are dropped.
inline Counters naive_run(const Trace& t, std::size_t frames, NaivePolicy& policy,
                          bool free_on_exit = false) {
  Counters c;
  policy.start(frames);
  std::vector<bool> resident(t.num_pages()), dirty(t.num_pages()), seen(t.num_pages()),
      swapped(t.num_pages());
  std::vector<PageId> in_memory;  // in order of arrival; order is irrelevant to the counts
  std::vector<std::size_t> last(t.num_procs(), 0);
  for (std::size_t i = 0; i < t.size(); ++i) last[t.page_proc(t.page(i))] = i;
  const auto exit = [&](ProcId q) {
    for (PageId p = 0; p < t.num_pages(); ++p) {
      if (t.page_proc(p) != q || t.page_kind(p) != PageKind::kAnon) continue;
      if (resident[p]) in_memory.erase(std::find(in_memory.begin(), in_memory.end(), p));
      policy.freed(p);
      resident[p] = dirty[p] = swapped[p] = false;
    }
  };
  // Writes dirty page w: to its file, or to a swap slot, which it keeps.
  const auto write = [&](PageId w) {
    if (t.page_kind(w) == PageKind::kFile) {
      ++c.file_writes;
    } else {
      ++c.swap_outs;
      swapped[w] = true;
    }
    dirty[w] = false;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    // The previous access was its process's last: it exits (this access is another's).
    if (free_on_exit && i > 0 && last[t.page_proc(t.page(i - 1))] == i - 1) {
      exit(t.page_proc(t.page(i - 1)));
    }
    const PageId p = t.page(i);
    const bool file = t.page_kind(p) == PageKind::kFile;
    ++c.accesses;
    if (resident[p]) {
      ++c.hits;
      if (t.write(i)) dirty[p] = true;
      policy.access(p, true, i);
      continue;
    }
    ++c.faults;
    policy.faulting(p);
    if (in_memory.size() == frames) {
      std::vector<bool> dirty_now(t.num_pages());
      for (PageId q : in_memory) dirty_now[q] = dirty[q];
      const PageId v = policy.victim(in_memory, dirty_now);
      for (PageId w : policy.written) {
        if (!resident[w] || !dirty[w]) throw std::logic_error("naive policy wrote a clean page");
        ++c.writebacks;
        write(w);
      }
      policy.written.clear();
      auto it = std::find(in_memory.begin(), in_memory.end(), v);
      if (it == in_memory.end()) throw std::logic_error("naive policy chose a non-resident page");
      in_memory.erase(it);
      resident[v] = false;
      ++c.evictions;
      ++c.pages_scanned;
      if (dirty[v]) {
        ++c.evictions_dirty;
        write(v);
      } else {
        ++c.evictions_clean;
      }
      policy.evicted(v);
    }
    if (!seen[p] && !file) {
      ++c.minor_faults;
    } else {
      ++c.major_faults;
      if (swapped[p]) ++c.swap_ins;
      else if (file) ++c.file_reads;
      else ++c.zero_refills;
    }
    seen[p] = true;
    resident[p] = true;
    dirty[p] = t.write(i);
    in_memory.push_back(p);
    policy.access(p, false, i);
  }
  c.pages_scanned += policy.kept_scanned;
  return c;
}

struct NaiveLru : NaivePolicy {
  std::list<PageId> order;  // front = least recently used
  void access(PageId p, bool, std::size_t) override {
    order.remove(p);
    order.push_back(p);
  }
  void freed(PageId p) override { order.remove(p); }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    const PageId v = order.front();
    order.pop_front();
    return v;
  }
};

struct NaiveFifo : NaivePolicy {
  std::deque<PageId> queue;
  void access(PageId p, bool hit, std::size_t) override {
    if (!hit) queue.push_back(p);
  }
  void freed(PageId p) override { queue.erase(std::remove(queue.begin(), queue.end(), p), queue.end()); }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    const PageId v = queue.front();
    queue.pop_front();
    return v;
  }
};

// Second chance with a referenced bit per frame; new pages take the victim's frame with the
// bit set and the hand stops just after it.
struct NaiveClock : NaivePolicy {
  struct Frame {
    PageId page;
    bool referenced;
  };
  std::vector<Frame> frames;
  std::size_t hand = 0;
  std::size_t free_frame = SIZE_MAX;
  void access(PageId p, bool hit, std::size_t) override {
    if (hit) {
      for (auto& f : frames) {
        if (f.page == p) f.referenced = true;
      }
    } else if (free_frame == SIZE_MAX) {
      frames.push_back({p, true});
    } else {
      frames[free_frame] = {p, true};
    }
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    while (frames[hand].referenced) {
      frames[hand].referenced = false;
      ++kept_scanned;
      hand = (hand + 1) % frames.size();
    }
    free_frame = hand;
    hand = (hand + 1) % frames.size();
    return frames[free_frame].page;
  }
};

// Uniform choice among resident pages, kept in an array where the last entry fills the
// victim's place: the same draws as the built-in policy for the same seed.
struct NaiveRandom : NaivePolicy {
  Rng rng;
  std::vector<PageId> pages;
  explicit NaiveRandom(std::uint64_t seed) : rng(seed) {}
  void access(PageId p, bool hit, std::size_t) override {
    if (!hit) pages.push_back(p);
  }
  // The others keep their order.
  void freed(PageId p) override { pages.erase(std::remove(pages.begin(), pages.end(), p), pages.end()); }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    const std::size_t k = rng.below(pages.size());
    const PageId v = pages[k];
    pages[k] = pages.back();
    pages.pop_back();
    return v;
  }
};

// Farthest next use by scanning the trace forward; ties (never used again): clean first,
// then dirty file pages (a file write), then dirty anonymous ones (a swap-out), then lowest
// page id.
struct NaiveBelady : NaivePolicy {
  const Trace& trace;
  std::size_t now = 0;
  explicit NaiveBelady(const Trace& t) : trace(t) {}
  void access(PageId, bool, std::size_t index) override { now = index; }
  PageId victim(const std::vector<PageId>& resident, const std::vector<bool>& dirty) override {
    // Called before access() of the faulting access: `now` is the previous access.
    const std::size_t from = now + 2;
    PageId best = resident.front();
    std::size_t best_next = 0;
    for (PageId q : resident) {
      std::size_t next = SIZE_MAX;
      for (std::size_t j = from; j < trace.size(); ++j) {
        if (trace.page(j) == q) {
          next = j;
          break;
        }
      }
      // What evicting it writes: 0 nothing, 1 its file, 2 a swap slot.
      const auto cost = [&](PageId r) {
        return !dirty[r] ? 0 : trace.page_kind(r) == PageKind::kFile ? 1 : 2;
      };
      const bool better = next > best_next || (next == best_next && cost(q) < cost(best)) ||
                          (next == best_next && cost(q) == cost(best) && q < best);
      if (q == resident.front() || better) {
        best = q;
        best_next = next;
      }
    }
    return best;
  }
};

}  // namespace pagesim::test

#include "naive_paper.hpp"

namespace pagesim::test {

// Naive models by policy name; a policy without one here is still covered by the
// conformance suite.
inline std::map<std::string, std::function<std::unique_ptr<NaivePolicy>(const Trace&)>>
naive_models() {
  return {
      {"lru", [](const Trace&) { return std::make_unique<NaiveLru>(); }},
      {"fifo", [](const Trace&) { return std::make_unique<NaiveFifo>(); }},
      {"clock", [](const Trace&) { return std::make_unique<NaiveClock>(); }},
      {"random", [](const Trace&) { return std::make_unique<NaiveRandom>(1); }},
      {"belady", [](const Trace& t) { return std::make_unique<NaiveBelady>(t); }},
      {"two_q", [](const Trace&) { return std::make_unique<NaiveTwoQ>(); }},
      {"arc", [](const Trace&) { return std::make_unique<NaiveArc>(); }},
      {"s3fifo", [](const Trace&) { return std::make_unique<NaiveS3Fifo>(); }},
      {"lru_k", [](const Trace&) { return std::make_unique<NaiveLruK>(); }},
      {"sieve", [](const Trace&) { return std::make_unique<NaiveSieve>(); }},
      {"wsclock", [](const Trace& t) { return std::make_unique<NaiveWsClock>(t, 1000); }},
      {"lrfu", [](const Trace&) { return std::make_unique<NaiveLrfu>(0.001); }},
      {"lfu", [](const Trace&) { return std::make_unique<NaiveLrfu>(0.0); }},
      {"gclock", [](const Trace&) { return std::make_unique<NaiveGClock>(5); }},
      {"two_handed_clock", [](const Trace&) { return std::make_unique<NaiveTwoHandedClock>(0); }},
  };
}

}  // namespace pagesim::test
