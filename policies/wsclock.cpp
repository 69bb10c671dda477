// WSClock: R. W. Carr and J. L. Hennessy, "WSCLOCK - A Simple and Effective Algorithm for
// Virtual Memory Management", SOSP 1981; in the formulation of Tanenbaum, Modern Operating
// Systems, section 3.4.9. Denning's working set in CLOCK's form: the frames on one circle,
// every page with the time of its last use in its own process's virtual time, and a hand that
// evicts a page outside its process's working set (unused for more than tau of that time),
// preferring clean pages: a dirty one's write is scheduled and the hand moves on.
//
//   select victim:  loop { p = frame[hand]; hand++
//                          if referenced(p): clear it, last_use(p) = vt(owner of p)
//                          else if vt(owner) - last_use(p) > tau:      (outside the working set)
//                            if clean(p): victim = p, stop
//                            else: schedule the write of p             (clean from then on)
//                          if the hand is back where it started:
//                            a write was scheduled: go on (the next lap finds the page clean)
//                            none: every page is in a working set: victim = the first clean
//                                  page met on the lap (referenced or not: "any clean page"),
//                                  or else the page at the hand, stop }
//   on fault:       the page takes the victim's frame, last_use = vt of its process
//
// Virtual time: each process's own accesses (on_hit and on_fault count them); tau is in
// accesses (key "tau", default 1000). A process that does not run keeps its pages' ages: its
// working set survives while it sleeps. When every resident page is in a working set (tau too
// long for the memory: the overcommitted state that Carr and Hennessy's load control ends),
// every fault's hand goes round the whole circle, and a replay costs O(frames) per fault.
//
// Where Tanenbaum's text is silent or the engine differs:
//   - "schedule the write" is the engine's writeback (PageTableView::start_writeback): the
//     page is written then (swap_outs, file_writes and writebacks count it) and is clean from
//     then on, as if its write had completed by the hand's next visit (WSClock does not limit
//     the writes in flight here; on a device the write is queued, and a fault on the page
//     evicted before it completes waits for it). A write to the page dirties it again, and its
//     eviction writes it once more;
//   - a faulted page enters with its referenced bit set (the access that faulted it), as in
//     `clock`, and takes the victim's frame, the hand just after it;
//   - pages read ahead enter with the bit clear and the time of the fault that read them;
//   - Carr and Hennessy's load control (deactivating a process when the hand finds every page
//     in a working set) is not modelled: the engine's scheduler runs every process; the
//     fallback victim above is Tanenbaum's;
//   - batch reclaim (watermarks) asks for several victims at once: one selection per victim;
//   - on_free (a process exit) drops all of the process's anonymous pages at its first call,
//     as `clock` does; the hand stays.
//
// Scanned (Counters::pages_scanned): every page the hand reaches and keeps (referenced, in a
// working set, or dirty, its write scheduled); the victim counts by itself.
#include <cstdint>
#include <vector>

#include "pagesim/frame_circle.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class WsClock final : public Policy {
 public:
  explicit WsClock(const Params& params)
      : tau_(static_cast<std::uint64_t>(params.get_int("tau", 1000, 0, std::int64_t{1} << 40))) {}

  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_hits = true;  // each process's virtual time
    t.writes_back = true;
    return t;
  }
  void reset(std::size_t num_pages, std::size_t frames) override {
    circle_.reset(num_pages, frames);
    hand_ = 0;
    last_use_.assign(num_pages, 0);
    vt_.clear();
  }
  void on_hit(const Access& a, PageTableView) override { ++vt_[a.proc]; }
  void on_fault(const Access& a, PageTableView view) override {
    if (vt_.empty()) vt_.assign(view.trace().num_procs(), 0);
    if (!a.readahead) ++vt_[a.proc];
    last_use_[a.page] = vt_[view.proc(a.page)];
    circle_.place(a.page);
  }
  // An exit frees the frames of the process's anonymous pages. The hand stays.
  void on_free(PageId p, PageTableView view) override { circle_.free_process_of(p, view); }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    const std::size_t n = circle_.size();
    if (circle_.empty()) return kNoPage;
    bool scheduled = false;
    bool any = false;  // a lap found nothing to evict and scheduled no write: take the next page
    std::size_t first_clean = kNone;
    // Three laps at most: the first clears every referenced bit and schedules the writes of the
    // dirty pages outside a working set; the second finds one of these, or the third any page.
    for (std::size_t step = 1;; ++step) {
      const std::size_t at = hand_;
      hand_ = at + 1 == n ? 0 : at + 1;
      const PageId p = circle_[at];
      if (p != kNoPage) {
        if (any) return circle_.take(at);
        const std::uint64_t now = vt_[view.proc(p)];
        const bool clean = !view.dirty(p);
        if (view.test_and_clear_referenced(p)) {
          last_use_[p] = now;
        } else if (now - last_use_[p] > tau_) {
          if (clean) return circle_.take(at);
          view.start_writeback(p);
          scheduled = true;
        }
        if (clean && first_clean == kNone) first_clean = at;  // in a working set: kept for now
        view.count_scanned(p);
      }
      if (step % n == 0 && !scheduled) {
        if (first_clean == kNone) {
          any = true;
          continue;
        }
        // The page found on the lap: it was counted as scanned when the hand passed it, and
        // is taken now.
        hand_ = first_clean + 1 == n ? 0 : first_clean + 1;
        return circle_.take(first_clean);
      }
    }
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  std::uint64_t tau_;
  FrameCircle circle_;
  std::size_t hand_ = 0;
  // Per page: its last use in its process's virtual time, as the hand last saw it.
  std::vector<std::uint64_t> last_use_;
  std::vector<std::uint64_t> vt_;  // per process: its accesses so far
};

}  // namespace

PAGESIM_REGISTER_POLICY(WsClock, "wsclock",
                        "WSClock (Carr & Hennessy 1981): CLOCK over the working sets, evicting a "
                        "clean page unused for tau of its process's time, scheduling dirty ones' "
                        "writes");

}  // namespace pagesim
