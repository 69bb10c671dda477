#pragma once
// Naive models of the policies from papers (2Q, ARC, S3-FIFO, LRU-K, SIEVE, WSClock), written from
// the papers' pseudocode with std::list / std::deque / std::map and linear searches, independently
// of policies/*.cpp. Included by naive.hpp, which registers them in naive_models().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <iterator>
#include <list>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "pagesim/trace.hpp"
#include "pagesim/types.hpp"

namespace pagesim::test {

template <class C>
bool has(const C& c, PageId p) {
  return std::find(c.begin(), c.end(), p) != c.end();
}
template <class C>
void erase_page(C& c, PageId p) {
  c.erase(std::find(c.begin(), c.end(), p));
}

// 2Q full version (Johnson & Shasha 1994, section 2.2), Kin = 25%, Kout = 50% of the frames.
// Lists are ordered head (front) to tail (back).
struct NaiveTwoQ : NaivePolicy {
  std::deque<PageId> a1in, a1out;
  std::list<PageId> am;
  std::size_t kin = 0, kout = 0;
  bool x_was_in_a1out = false;
  void freed(PageId p) override {
    for (auto* q : {&a1in, &a1out}) q->erase(std::remove(q->begin(), q->end(), p), q->end());
    am.remove(p);
  }
  // "if X is in A1out then reclaimfor(X); ...": the test comes before the reclaim.
  void faulting(PageId x) override { x_was_in_a1out = has(a1out, x); }
  void start(std::size_t frames) override {
    kin = frames / 4;
    kout = frames / 2;
  }
  void access(PageId x, bool hit, std::size_t) override {
    if (hit) {
      if (has(am, x)) {
        erase_page(am, x);
        am.push_front(x);
      }
      return;  // in A1in: do nothing
    }
    if (x_was_in_a1out) {
      if (has(a1out, x)) erase_page(a1out, x);
      am.push_front(x);
    } else {
      a1in.push_front(x);
    }
  }
  // reclaimfor(X) when there is no free slot.
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    if (a1in.size() > kin || am.empty()) {
      const PageId y = a1in.back();
      a1in.pop_back();
      a1out.push_front(y);
      if (a1out.size() > kout) a1out.pop_back();
      return y;
    }
    const PageId y = am.back();
    am.pop_back();
    return y;
  }
};

// ARC (Megiddo & Modha 2003, Figure 4) as one request() per miss, which also decides when to
// REPLACE; the engine decides by memory being full. The model checks that both agree.
// Lists: front = MRU, back = LRU.
struct NaiveArc : NaivePolicy {
  std::list<PageId> t1, t2, b1, b2;
  double p = 0;
  std::size_t c = 0;
  bool have_victim = false;
  PageId pending = 0;
  void start(std::size_t frames) override { c = frames; }

  void replace(PageId x) {
    const double n1 = static_cast<double>(t1.size());
    if (!t1.empty() && (n1 > p || (has(b2, x) && n1 == p))) {
      pending = t1.back();
      t1.pop_back();
      b1.push_front(pending);
    } else {
      pending = t2.back();
      t2.pop_back();
      b2.push_front(pending);
    }
    have_victim = true;
  }
  void faulting(PageId x) override {
    have_victim = false;
    const double s1 = static_cast<double>(b1.size()), s2 = static_cast<double>(b2.size());
    if (has(b1, x)) {  // case II
      p = std::min(p + (s1 >= s2 ? 1.0 : s2 / s1), static_cast<double>(c));
      replace(x);
    } else if (has(b2, x)) {  // case III
      p = std::max(p - (s2 >= s1 ? 1.0 : s1 / s2), 0.0);
      replace(x);
    } else if (t1.size() + b1.size() == c) {  // case IV.A
      if (t1.size() < c) {
        b1.pop_back();
        replace(x);
      } else {
        pending = t1.back();
        t1.pop_back();
        have_victim = true;
      }
    } else {  // case IV.B
      const std::size_t total = t1.size() + t2.size() + b1.size() + b2.size();
      if (total >= c) {
        if (total == 2 * c) b2.pop_back();
        replace(x);
      }
    }
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    if (!have_victim) throw std::logic_error("naive ARC: memory full but Figure 4 did not REPLACE");
    have_victim = false;
    return pending;
  }
  void access(PageId x, bool hit, std::size_t) override {
    if (hit) {  // case I
      if (has(t1, x)) erase_page(t1, x); else erase_page(t2, x);
      t2.push_front(x);
      return;
    }
    if (have_victim) throw std::logic_error("naive ARC: Figure 4 replaced with a free frame");
    if (has(b1, x) || has(b2, x)) {
      if (has(b1, x)) erase_page(b1, x); else erase_page(b2, x);
      t2.push_front(x);
    } else {
      t1.push_front(x);
    }
  }
};

// S3-FIFO (Yang et al. 2023, Algorithm 1) with the choices stated in policies/s3fifo.cpp:
// thresholds small 10% and "M full" = over 90% as reals, ghost of floor(0.9 * frames) ids, a
// page promoted to M restarts at freq 0, the evictM nested in evictS ends the eviction.
// Queues: front = head (newest), back = tail.
struct NaiveS3Fifo : NaivePolicy {
  std::deque<PageId> s, m, g;
  std::map<PageId, int> freq;
  void freed(PageId p) override {
    for (auto* q : {&s, &m, &g}) q->erase(std::remove(q->begin(), q->end(), p), q->end());
  }
  double c = 0;
  std::size_t ghost = 0;
  void start(std::size_t frames) override {
    c = static_cast<double>(frames);
    ghost = static_cast<std::size_t>(0.9 * c);
  }

  void access(PageId x, bool hit, std::size_t) override {
    if (hit) {
      freq[x] = std::min(freq[x] + 1, 3);
      return;
    }
    freq[x] = 0;
    if (has(g, x)) {
      erase_page(g, x);
      m.push_front(x);
    } else {
      s.push_front(x);
    }
  }
  bool evict_m(PageId& out) {
    while (!m.empty()) {
      const PageId t = m.back();
      m.pop_back();
      if (freq[t] > 0) {
        --freq[t];
        m.push_front(t);
        ++kept_scanned;
      } else {
        out = t;
        return true;
      }
    }
    return false;
  }
  bool evict_s(PageId& out) {
    while (!s.empty()) {
      const PageId t = s.back();
      s.pop_back();
      if (freq[t] > 1) {
        freq[t] = 0;
        m.push_front(t);
        ++kept_scanned;
        if (static_cast<double>(m.size()) > c - 0.1 * c && evict_m(out)) return true;
      } else {
        if (ghost > 0) {
          g.push_front(t);
          if (g.size() > ghost) g.pop_back();
        }
        out = t;
        return true;
      }
    }
    return false;
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    PageId v = 0;
    for (;;) {
      const bool from_s = !s.empty() && (static_cast<double>(s.size()) >= 0.1 * c || m.empty());
      if (from_s ? evict_s(v) : evict_m(v)) return v;
    }
  }
};

// LRU-K (O'Neil, O'Neil & Weikum 1993, section 2.1's procedure "invoked upon a reference to
// page p at time t"), read literally: HIST(p) as the list of known uncorrelated reference
// times, newest first (at most K; a missing entry is the paper's HIST(p,i) = 0), LAST(p) in a
// map, the victim by a scan over the resident pages, and the Retained Information Period as
// the paper's demon, run before every reference over every evicted page. Time t = access
// index + 1. The choices the paper leaves open, as policies/lru_k.cpp states them: ties in
// HIST(q,K) go to the oldest HIST(q,1), then the lowest page id; with no page eligible (all
// within their correlated period) the oldest LAST(q) goes.
struct NaiveLruK : NaivePolicy {
  std::size_t k;
  std::uint64_t crp, rip;
  std::map<PageId, std::vector<std::uint64_t>> hist;
  std::map<PageId, std::uint64_t> last;
  std::set<PageId> in_buffer;
  std::uint64_t now = 0;  // time of the last reference
  explicit NaiveLruK(std::size_t k_value = 2, std::uint64_t crp_value = 0,
                     std::uint64_t rip_value = 0)
      : k(k_value), crp(crp_value), rip(rip_value) {}

  std::uint64_t hist_at(PageId q, std::size_t i) {  // HIST(q,i), 1-based; 0 if unknown
    const auto& h = hist[q];
    return h.size() >= i ? h[i - 1] : 0;
  }
  void access(PageId p, bool hit, std::size_t index) override {
    const std::uint64_t t = index + 1;
    now = t;
    if (rip != 0) {  // the demon: drop the history of pages out of the buffer for too long
      for (auto it = last.begin(); it != last.end();) {
        if (!in_buffer.count(it->first) && t - it->second > rip) {
          hist.erase(it->first);
          it = last.erase(it);
        } else {
          ++it;
        }
      }
    }
    std::vector<std::uint64_t>& h = hist[p];
    if (hit) {
      if (t - last[p] > crp) {  // a new, uncorrelated reference
        const std::uint64_t correl = last[p] - h.front();
        for (auto& x : h) x += correl;  // HIST(p,i) := HIST(p,i-1) + correl, i = 2..K
        h.insert(h.begin(), t);
      }
    } else {  // fetched: HIST(p,i) := HIST(p,i-1) (or a new block), HIST(p,1) := t
      h.insert(h.begin(), t);
      in_buffer.insert(p);
    }
    if (h.size() > k) h.pop_back();
    last[p] = t;
  }
  PageId victim(const std::vector<PageId>& resident, const std::vector<bool>&) override {
    const std::uint64_t t = now + 1;
    bool found = false;
    PageId best = resident.front();
    for (PageId q : resident) {
      if (t - last[q] <= crp) continue;  // not eligible for replacement
      const auto key = std::make_tuple(hist_at(q, k), hist_at(q, 1), q);
      if (!found || key < std::make_tuple(hist_at(best, k), hist_at(best, 1), best)) best = q;
      found = true;
    }
    if (!found) {
      for (PageId q : resident) {
        if (last[q] < last[best]) best = q;
      }
    }
    return best;
  }
  void evicted(PageId p) override { in_buffer.erase(p); }
  void freed(PageId p) override {
    hist.erase(p);
    last.erase(p);
    in_buffer.erase(p);
  }
};

// SIEVE (Zhang et al. 2024, Algorithm 1), line by line: T front = head (newest), back = tail;
// o.prev (towards the head) is the element before o in the list, NULL is T.end(). A removed
// page (a process exit) moves a hand that points at it to its predecessor, as libCacheSim's
// Sieve_remove_obj does.
struct NaiveSieve : NaivePolicy {
  std::list<PageId> t;
  std::map<PageId, bool> visited;
  std::list<PageId>::iterator hand = t.end();

  // o.prev, or NULL (t.end()) at the head.
  std::list<PageId>::iterator prev(std::list<PageId>::iterator o) {
    return o == t.begin() ? t.end() : std::prev(o);
  }
  void access(PageId x, bool hit, std::size_t) override {
    if (hit) {
      visited[x] = true;  // line 2
      return;
    }
    t.push_front(x);     // line 15
    visited[x] = false;  // line 16
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    auto o = hand;                               // line 5
    if (o == t.end()) o = std::prev(t.end());    // lines 6-7
    while (visited[*o]) {                        // line 8
      visited[*o] = false;                       // line 9
      ++kept_scanned;
      o = prev(o);                               // line 10
      if (o == t.end()) o = std::prev(t.end());  // lines 11-12
    }
    hand = prev(o);  // line 13
    const PageId v = *o;
    t.erase(o);  // line 14
    return v;
  }
  void freed(PageId p) override {
    const auto it = std::find(t.begin(), t.end(), p);
    if (it == t.end()) return;  // not resident
    if (it == hand) hand = prev(it);
    t.erase(it);
  }
};

// WSClock as Tanenbaum (Modern Operating Systems, 3.4.9) tells it: frames on a circle, each
// with a referenced bit, the time of last use in its process's virtual time (its accesses) and
// whether its write has been scheduled; new pages take the victim's frame, referenced.
struct NaiveWsClock : NaivePolicy {
  struct Frame {
    PageId page;
    bool referenced;
    std::uint64_t last_use;
    bool scheduled;  // its write is scheduled: it is clean (until written to again)
  };
  // `trace` must outlive the model.
  NaiveWsClock(const Trace& trace, std::uint64_t tau_)
      : t(trace), tau(tau_), vt(trace.num_procs(), 0) {}
  const Trace& t;
  std::uint64_t tau;
  std::vector<std::uint64_t> vt;
  std::vector<Frame> frames;
  std::size_t hand = 0;
  std::size_t free_frame = SIZE_MAX;

  void access(PageId p, bool hit, std::size_t index) override {
    const std::uint64_t now = ++vt[t.page_proc(p)];
    if (!hit) {
      const Frame f{p, true, now, false};
      if (free_frame == SIZE_MAX)
        frames.push_back(f);
      else
        frames[free_frame] = f;
      return;
    }
    for (Frame& f : frames) {
      if (f.page != p) continue;
      f.referenced = true;
      if (t.write(index)) f.scheduled = false;
    }
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>& dirty) override {
    const std::size_t n = frames.size();
    // One lap: the frame of the victim, or SIZE_MAX; the first clean page met on the way
    // (referenced or not), and whether a write was scheduled, are noted.
    std::size_t first_clean = SIZE_MAX;
    bool scheduled = false;
    const auto lap = [&]() -> std::size_t {
      for (std::size_t k = 0; k < n; ++k) {
        Frame& f = frames[hand];
        const std::size_t at = hand;
        hand = (hand + 1) % n;
        const std::uint64_t now = vt[t.page_proc(f.page)];
        const bool clean = !dirty[f.page] || f.scheduled;
        if (f.referenced) {
          f.referenced = false;
          f.last_use = now;
        } else if (now - f.last_use > tau) {
          if (clean) return at;
          f.scheduled = true;
          written.push_back(f.page);
          scheduled = true;
        }
        if (clean && first_clean == SIZE_MAX) first_clean = at;  // any clean page, if need be
        ++kept_scanned;
      }
      return SIZE_MAX;
    };
    std::size_t at = lap();
    if (at == SIZE_MAX && scheduled) at = lap();  // finds a page whose write was scheduled
    if (at == SIZE_MAX && first_clean != SIZE_MAX) at = first_clean;
    if (at == SIZE_MAX) at = hand;  // no clean page: the page at the hand
    hand = (at + 1) % n;
    free_frame = at;
    return frames[at].page;
  }
};

// Frames as the policies' FrameCircle gives them: a faulted page takes the frame freed last
// (the victim's), an exit frees its process's frames in frame order, and a new frame is added
// only when none is free. `placed` and `freed` are called as the model's own are.
struct NaiveFrames {
  std::vector<PageId> frames;            // kNoPage: free
  std::vector<std::size_t> free_frames;  // the frame freed last at the back
  std::size_t exit_batch = 0;            // free_frames from here on: freed by the exit under way

  void accessed() { exit_batch = free_frames.size(); }
  void place(PageId p) {
    if (free_frames.empty()) {
      frames.push_back(p);
      return;
    }
    frames[free_frames.back()] = p;
    free_frames.pop_back();
    exit_batch = free_frames.size();
  }
  PageId take(std::size_t at) {
    const PageId p = frames[at];
    frames[at] = kNoPage;
    free_frames.push_back(at);
    return p;
  }
  void free(PageId p) {
    const auto it = std::find(frames.begin(), frames.end(), p);
    if (it == frames.end()) return;  // not resident
    *it = kNoPage;
    // This exit's frames go on in frame order, whatever order its pages come in.
    const auto at = static_cast<std::size_t>(it - frames.begin());
    free_frames.insert(
        std::upper_bound(free_frames.begin() + static_cast<std::ptrdiff_t>(exit_batch),
                         free_frames.end(), at),
        at);
  }
};

// GCLOCK as PostgreSQL's buffer manager runs it: a circle of frames (NaiveFrames, the hand an
// index), a use count per page: +1 per use up to `max`, 1 for a page faulted in; the hand
// takes the first page of count 0, decrementing the others it passes.
struct NaiveGClock : NaivePolicy {
  explicit NaiveGClock(unsigned max_) : max(max_) {}
  unsigned max;
  NaiveFrames f;
  std::map<PageId, unsigned> count;
  std::size_t hand = 0;

  void access(PageId p, bool hit, std::size_t) override {
    f.accessed();
    if (hit) {
      count[p] = std::min(count[p] + 1, max);
      return;
    }
    count[p] = 1;
    f.place(p);
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    for (;;) {
      const std::size_t at = hand;
      hand = (hand + 1) % f.frames.size();
      const PageId p = f.frames[at];
      if (p == kNoPage) continue;
      if (count[p] == 0) return f.take(at);
      --count[p];
      ++kept_scanned;
    }
  }
  void freed(PageId p) override { f.free(p); }
};

// The two-handed clock as Solaris 7's pageout_scanner and checkpage run it, on NaiveFrames:
// referenced bits (set by each access), the back hand at frame 0 and the front one the hand
// spread ahead (`given`, or min(frames / 2, 16384); below the frames); the checks alternate
// front, back, front, ... from where the last reclaim stopped. The front one clears a
// referenced page's bit; either frees an unreferenced page. (Victims are asked for only once
// every frame holds a page: the frames are as many as the policy's circle.)
struct NaiveTwoHandedClock : NaivePolicy {
  explicit NaiveTwoHandedClock(std::size_t given_) : given(given_) {}
  std::size_t given;  // 0: the default
  NaiveFrames f;
  std::map<PageId, bool> referenced;
  std::size_t front = 0, back = 0;
  bool front_next = true;

  void start(std::size_t frames) override {
    const std::size_t spread = given != 0 ? given : std::min<std::size_t>(frames / 2, 16384);
    front = frames > 0 && spread >= frames ? frames - 1 : spread;
  }
  void access(PageId p, bool hit, std::size_t) override {
    f.accessed();
    referenced[p] = true;
    if (!hit) f.place(p);
  }
  PageId victim(const std::vector<PageId>&, const std::vector<bool>&) override {
    for (;;) {
      const bool is_front = front_next;
      std::size_t& hand = is_front ? front : back;
      const std::size_t at = hand;
      hand = (hand + 1) % f.frames.size();
      front_next = !is_front;
      const PageId p = f.frames[at];
      if (p == kNoPage) continue;
      if (!referenced[p]) return f.take(at);
      if (is_front) referenced[p] = false;
      ++kept_scanned;
    }
  }
  void evicted(PageId v) override { referenced[v] = false; }
  void freed(PageId p) override {
    f.free(p);
    referenced[p] = false;
  }
};

// LRFU (Lee et al. 2001) from its definition: a resident page's CRF is the sum of
// (1/2)^(lambda (now - t)) over its references t since it came in (time: the access index,
// now the faulting access's); the victim has the least, ties to the least recently
// referenced. Sums, not the policy's recurrence and log keys.
struct NaiveLrfu : NaivePolicy {
  explicit NaiveLrfu(double lambda_) : lambda(lambda_) {}
  double lambda;
  std::map<PageId, std::vector<std::size_t>> refs;  // of each resident page
  std::size_t now = 0;

  void access(PageId p, bool hit, std::size_t index) override {
    if (!hit) refs[p].clear();
    refs[p].push_back(index);
    now = index + 1;
  }
  PageId victim(const std::vector<PageId>& resident, const std::vector<bool>&) override {
    PageId best = kNoPage;
    double best_crf = 0;
    for (const PageId q : resident) {
      double crf = 0;
      for (const std::size_t t : refs[q]) crf += std::exp2(-lambda * static_cast<double>(now - t));
      // Each access references one page: two pages' last references differ.
      if (best == kNoPage || crf < best_crf ||
          (crf == best_crf && refs[q].back() < refs[best].back())) {
        best = q;
        best_crf = crf;
      }
    }
    return best;
  }
  void evicted(PageId v) override { refs.erase(v); }
  void freed(PageId p) override { refs.erase(p); }
};

}  // namespace pagesim::test
