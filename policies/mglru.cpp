// Multi-generational LRU, simplified from Linux 6.1-stable (Yu Zhao's MGLRU), with "mm/mglru:
// fix underprotected page cache" (commit 081488051d28, backported to 6.1-stable in December
// 2023): read() file pages are inserted in min_seq + 1 rather than min_seq, a page whose refs
// saturated (five fd accesses) is protected in sort_folio whatever the tier index, and a
// refault with refs >= 3 restores saturated refs and PG_workingset. Original 6.1 inserts
// clean cold pages in min_seq, protects by tier only, and sets PG_workingset on a file
// refault only when refs == 4.
//
// Sources: Linux 6.1 mm/vmscan.c (lru_gen section): should_run_aging, try_to_inc_max_seq /
// walk_pte_range, inc_max_seq, inc_min_seq, try_to_inc_min_seq, isolate_folios,
// get_type_to_scan, get_tier_idx, read_ctrl_pos, positive_ctrl_err, reset_ctrl_pos,
// sort_folio, evict_folios; include/linux/mm_inline.h lru_gen_add_folio, lru_tier_from_refs;
// mm/swap.c folio_inc_refs, folio_add_lru (fault-context activation); mm/workingset.c
// lru_gen_eviction, lru_gen_refault. MIN_NR_GENS 2, MAX_NR_GENS 4, MAX_NR_TIERS 4,
// NR_HIST_GENS 1. See /work/shared/reference/linux-reclaim.md section 3.
//
// Page model. Anonymous pages are mapped (accesses set the pte young bit; aging walks them);
// file pages are used through read()/write() (every access is folio_inc_refs but a read of
// the page its process read last: file_reads.hpp; no ptes).
// Swap is always available (can_swap). Anonymous and file pages have their own min_seq and
// generation lists, one max_seq is shared; gen = seq % MAX_NR_GENS.
//
//   insertion (lru_gen_add_folio):
//     a page faulted in (anonymous fault or swap-in: folio_add_lru in fault context sets
//       PG_active) -> max_seq
//     otherwise (file pages read()) -> min_seq + 1, or min_seq when min_seq + MIN_NR_GENS
//       >= max_seq (the fix; 6.1 before it: min_seq)
//   folio_inc_refs (every file access, the faulting read included, but a read in succession):
//     !PG_referenced -> set it; else !PG_workingset -> set it; else refs = min(refs + 1, 3)
//   tier = order_base_2(refs + workingset + 1)                      (0..3)
//
//   aging (try_to_inc_max_seq): the page-table walk test-and-clears the young bit of every
//     resident anonymous page (oldest generation first, tail first) and moves young pages to
//     the head of generation max_seq, clearing refs and flags (walk_pte_range:
//     new_gen = lru_gen_from_seq(walk->max_seq), the max_seq before the increment: after it
//     they are one below the new max_seq, which starts empty; the reference sheet's
//     "max_seq + 1" is not what 6.1 does); then inc_max_seq: for each type with
//     MAX_NR_GENS generations, inc_min_seq moves its oldest generation into the next one
//     (refs cleared) and advances min_seq; then max_seq++.
//   should_run_aging (checked once per reclaim, and whenever no type has an evictable page,
//     i.e. each type's oldest generation is empty or the type is down to MIN_NR_GENS
//     generations: 6.1's scan_folios takes nothing then, and reclaim ages):
//     min_seq + MIN_NR_GENS > max_seq  -> yes        (fewer than 3 generations)
//     min_seq + MIN_NR_GENS < max_seq  -> no         (4 generations)
//     else yes iff young * MIN_NR_GENS > total or old * (MIN_NR_GENS + 2) < total
//     (young: pages in max_seq; old: pages in max_seq - 2; min_seq: anon's, min_seq[!can_swap])
//   try_to_inc_min_seq: for each type, the oldest populated generation seq with
//     seq + MIN_NR_GENS <= max_seq; then (can_swap) anon = min(anon, file), file = max(new
//     anon, old file): the two min_seq stay in sync, each waiting for the other's oldest
//     generation to empty; a type whose min_seq moved has its PID controller's history
//     folded once (reset_ctrl_pos)
//
//   eviction, one page at a time from the tail of the oldest generation of a type, then
//     (evict_folios, after isolate_folios) try_to_inc_min_seq, before the faulting page is
//     inserted:
//     type: swappiness 0 -> file; min_seq[anon] < min_seq[file] -> anon; swappiness 1 ->
//       file; 200 -> anon; else get_type_to_scan (tier-0 refault rates, gains swappiness and
//       200 - swappiness). The other type is used when the chosen one has no evictable page.
//     tier_idx: get_type_to_scan / get_tier_idx, comparing each tier's refault rate with
//       tier 0's (positive_ctrl_err, MIN_LRU_BATCH = parameter min_lru_batch, default 64)
//     sort_folio (refs = refs + workingset, 0..4):
//       tier > tier_idx || refs == BIT(LRU_REFS_WIDTH) (4, the fix) -> protected: to the
//         tail of gen min_seq + 1, refs cleared
//       dirty file page, writeback not yet started -> to the head of gen min_seq + 1
//         (the kernel starts writeback; here it is evicted the next time it is reached,
//         when the engine writes it)
//     shrink_folio_list: anonymous page with a young pte -> activated: head of max_seq
//     otherwise evicted with a shadow (min_seq, refs + workingset), taken as 6.1's
//       shrink_folio_list does, after evict_folios' try_to_inc_min_seq: the min_seq it may
//       have moved, and the eviction counted in the controller's new period
//   refault (lru_gen_refault): counted in refaulted[type][tier] when the shadow's min_seq
//     is the current one; then
//       if (lru_gen_in_fault() || refs >= BIT(LRU_REFS_WIDTH) - 1)      (the fix; 6.1: == 4)
//         set_mask_bits(&folio->flags, 0, LRU_REFS_MASK | BIT(PG_workingset));
//     i.e. an anonymous refault (fault context) or a file one with refs + workingset >= 3
//     comes back with refs 3 and PG_workingset: saturated, protected by sort_folio until
//     its refs are cleared.
//   exit (exit_mmap: release_pages -> lruvec_del_folio -> lru_gen_del_folio; the freed swap
//     entry takes its shadow with it, swap_range_free -> clear_shadow_from_swap_cache): the
//     page leaves its generation and its shadow is dropped; a generation emptied by it is
//     passed at the next try_to_inc_min_seq, as in the kernel.
//
// Simplifications: no Bloom filters, no look-around, no min_ttl_ms, no memcg; the walk visits
// pages by generation, not by virtual address; pages move at once instead of lazily in
// sort_folio; the type and tier_idx are chosen for each page, not once per isolate_folios
// batch; with swappiness 0 (6.1: can_swap false, so file pages only, the walk skips anonymous
// pages and min_seq is file's alone) file goes first but anonymous pages are still aged and
// evicted when file has none, the two min_seq kept in sync: the engine needs a victim.
//
// Scanned (Counters::pages_scanned), as 6.1's scan_folios counts: every page an eviction step
// takes from a tail, those sort_folio moves (protected, dirty: PGREFILL), those activated for a
// young pte and the victims (isolated: PGSCAN). The aging walk counts nothing, as in the kernel.
// Fewer than the kernel's: 6.1's walk only renumbers a young page's generation and eviction
// later meets it in its old list and moves it (sort_folio's "promoted", PGREFILL); here the
// walk moves it at once, so eviction never meets it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pagesim/file_reads.hpp"
#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kAnon = 0;
constexpr std::size_t kFile = 1;
constexpr std::uint64_t kMinNrGens = 2;
constexpr std::uint64_t kMaxNrGens = 4;
constexpr int kMaxNrTiers = 4;
constexpr int kRefsSaturated = 4;  // BIT(LRU_REFS_WIDTH): 2-bit refs at 3, plus workingset

struct CtrlPos {
  std::uint64_t refaulted;
  std::uint64_t total;
  std::uint64_t gain;
};

class Mglru final : public Policy {
 public:
  explicit Mglru(const Params& params)
      : swappiness_(static_cast<std::uint64_t>(params.get_int("swappiness", 60, 0, 200))),
        min_lru_batch_(static_cast<std::uint64_t>(params.get_int("min_lru_batch", 64, 1, 1 << 20))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  // Hits on anonymous pages only set the pte young bit: only a fault's list insertion
  // benefits from having the page's list node in cache.
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) lists_.prefetch(p, 0);
  }

  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    lists_.reset(num_pages, 2 * kMaxNrGens);
    seq_.assign(num_pages, 0);
    flags_.assign(num_pages, 0);
    refs_.assign(num_pages, 0);
    shadow_seq_.assign(num_pages, 0);
    shadow_refs_.assign(num_pages, 0);
    reads_.reset();
    max_seq_ = kMinNrGens + 1;  // lru_gen_init_lruvec
    for (std::size_t t = 0; t < 2; ++t) {
      min_seq_[t] = 0;
      for (int tier = 0; tier < kMaxNrTiers; ++tier) {
        avg_refaulted_[t][tier] = avg_total_[t][tier] = 0;
        refaulted_[t][tier] = evicted_[t][tier] = protected_[t][tier] = 0;
      }
    }
  }

  void on_hit(const Access& a, PageTableView) override {
    if (a.kind == PageKind::kFile && reads_.marks(a)) folio_inc_refs(a.page);
  }

  void on_fault(const Access& a, PageTableView) override {
    const PageId p = a.page;
    const std::size_t type = a.kind == PageKind::kFile ? kFile : kAnon;
    flags_[p] = 0;
    refs_[p] = 0;
    if (shadow_seq_[p] != 0) lru_gen_refault(p, type);
    std::uint64_t seq;
    if (type == kAnon) {
      seq = max_seq_;
    } else {
      seq = min_seq_[type] + kMinNrGens >= max_seq_ ? min_seq_[type] : min_seq_[type] + 1;
    }
    add_to_gen(p, type, seq, /*front=*/true);
    // A readahead page comes in unreferenced; the read that uses it is a hit (on_hit).
    if (type == kFile && !a.readahead && reads_.marks(a)) folio_inc_refs(p);
  }

  // The PID controller's counts keep the page's past evictions and refaults: they are rates
  // over generations, and no invariant ties them to the pages still held.
  void on_free(PageId p, PageTableView) override {
    lists_.remove(p);
    flags_[p] = 0;
    refs_[p] = 0;
    shadow_seq_[p] = 0;
    shadow_refs_[p] = 0;
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    try_to_inc_min_seq();
    if (should_run_aging()) age(view);
    std::size_t guard = 8 * view.resident_count() + 64;
    while (out.size() < want) {
      if (guard-- == 0) {
        evict_any(out);
        continue;
      }
      try_to_inc_min_seq();
      int tier_idx = -1;
      std::size_t type = pick_type(tier_idx);
      if (!evictable(type)) {
        type = 1 - type;
        tier_idx = -1;
      }
      if (!evictable(type)) {
        age(view);
        continue;
      }
      if (tier_idx < 0) tier_idx = get_tier_idx(type);
      evict_step(type, tier_idx, view, out);
    }
    // evict_folios: try_to_inc_min_seq after isolate_folios, then shrink_folio_list; before
    // the faulting page goes in.
    try_to_inc_min_seq();
    record_evictions();
  }

  // Test hook (probe_mglru): seq * 8 + tier of a resident page, -1 otherwise; for
  // kNoPage: max_seq.
  std::int64_t probe(PageId p) const {
    if (p == kNoPage) return static_cast<std::int64_t>(max_seq_);
    if (lists_.list_of(p) == PageLists::kNone) return -1;
    return static_cast<std::int64_t>(std::uint64_t{seq_[p]} * 8 + static_cast<std::uint64_t>(tier_of(p)));
  }

 private:
  static constexpr std::uint8_t kReferenced = 1;  // PG_referenced
  static constexpr std::uint8_t kWorkingset = 2;  // PG_workingset
  static constexpr std::uint8_t kWriteback = 4;   // writeback started by sort_folio

  static std::size_t list_index(std::size_t type, std::uint64_t seq) {
    return type * kMaxNrGens + static_cast<std::size_t>(seq % kMaxNrGens);
  }

  void add_to_gen(PageId p, std::size_t type, std::uint64_t seq, bool front) {
    lists_.remove(p);
    if (front) {
      lists_.push_front(list_index(type, seq), p);
    } else {
      lists_.push_back(list_index(type, seq), p);
    }
    seq_[p] = static_cast<std::uint32_t>(seq);
  }

  // Clears LRU_REFS_MASK and LRU_REFS_FLAGS (folio_inc_gen, folio_update_gen).
  void clear_refs(PageId p) {
    refs_[p] = 0;
    flags_[p] &= static_cast<std::uint8_t>(~(kReferenced | kWorkingset));
  }

  void folio_inc_refs(PageId p) {
    if (!(flags_[p] & kReferenced)) {
      flags_[p] |= kReferenced;
    } else if (!(flags_[p] & kWorkingset)) {
      flags_[p] |= kWorkingset;
    } else if (refs_[p] < 3) {
      ++refs_[p];
    }
  }

  int lru_refs(PageId p) const { return refs_[p] + ((flags_[p] & kWorkingset) ? 1 : 0); }

  // lru_tier_from_refs: order_base_2(refs + 1).
  static int tier_from_refs(int refs) {
    int tier = 0;
    while ((1 << tier) < refs + 1) ++tier;
    return tier;
  }
  int tier_of(PageId p) const { return tier_from_refs(lru_refs(p)); }

  void lru_gen_refault(PageId p, std::size_t type) {
    const std::uint64_t seq = shadow_seq_[p] - 1;
    const int refs = shadow_refs_[p];
    shadow_seq_[p] = 0;
    if (seq != min_seq_[type]) return;
    ++refaulted_[type][tier_from_refs(refs)];
    if (type == kAnon || refs >= kRefsSaturated - 1) {
      refs_[p] = 3;  // LRU_REFS_MASK
      flags_[p] |= kWorkingset;
    }
  }

  std::size_t gen_size(std::size_t type, std::uint64_t seq) const {
    return lists_.size(list_index(type, seq));
  }

  // scan_folios takes nothing from a type down to MIN_NR_GENS generations (reclaim ages
  // instead), nor from an empty oldest generation.
  bool evictable(std::size_t type) const {
    return max_seq_ - min_seq_[type] + 1 > kMinNrGens && gen_size(type, min_seq_[type]) != 0;
  }

  void reset_ctrl_pos(std::size_t type) {
    for (int tier = 0; tier < kMaxNrTiers; ++tier) {
      avg_refaulted_[type][tier] = (avg_refaulted_[type][tier] + refaulted_[type][tier]) / 2;
      avg_total_[type][tier] = (avg_total_[type][tier] + evicted_[type][tier] +
                                (tier > 0 ? protected_[type][tier] : 0)) / 2;
      refaulted_[type][tier] = evicted_[type][tier] = protected_[type][tier] = 0;
    }
  }

  // With swap (can_swap) anon's min_seq may not pass file's, and file's may not pass the new
  // anon one: the two stay in sync, and a type whose oldest generation empties waits for the
  // other's. The controller's history is folded once per type that moved.
  void try_to_inc_min_seq() {
    std::uint64_t seq[2];
    for (std::size_t type = 0; type < 2; ++type) {
      seq[type] = min_seq_[type];
      while (seq[type] + kMinNrGens <= max_seq_ && gen_size(type, seq[type]) == 0) ++seq[type];
    }
    seq[kAnon] = std::min(seq[kAnon], seq[kFile]);
    seq[kFile] = std::max(seq[kAnon], min_seq_[kFile]);
    for (std::size_t type = 0; type < 2; ++type) {
      if (seq[type] == min_seq_[type]) continue;
      reset_ctrl_pos(type);
      min_seq_[type] = seq[type];
    }
  }

  bool should_run_aging() const {
    if (min_seq_[kAnon] + kMinNrGens > max_seq_) return true;  // min_seq[!can_swap]
    if (min_seq_[kAnon] + kMinNrGens < max_seq_) return false;
    std::size_t young = 0, old = 0, total = 0;
    for (std::size_t type = 0; type < 2; ++type) {
      for (std::uint64_t seq = min_seq_[type]; seq <= max_seq_; ++seq) {
        const std::size_t size = gen_size(type, seq);
        total += size;
        if (seq == max_seq_) {
          young += size;
        } else if (seq + kMinNrGens == max_seq_) {
          old += size;
        }
      }
    }
    return young * kMinNrGens > total || old * (kMinNrGens + 2) < total;
  }

  void age(PageTableView& view) {
    // walk_pte_range: young anonymous pages join generation max_seq.
    walk_.clear();
    for (std::uint64_t seq = min_seq_[kAnon]; seq <= max_seq_; ++seq) {
      const std::size_t list = list_index(kAnon, seq);
      for (PageId p = lists_.back(list); p != kNoPage; p = lists_.prev(p)) walk_.push_back(p);
    }
    for (PageId p : walk_) {
      if (view.test_and_clear_referenced(p)) {
        add_to_gen(p, kAnon, max_seq_, /*front=*/true);
        clear_refs(p);
      }
    }
    // inc_max_seq
    for (std::size_t type = 0; type < 2; ++type) {
      if (max_seq_ - min_seq_[type] + 1 < kMaxNrGens) continue;
      const std::size_t from = list_index(type, min_seq_[type]);
      while (!lists_.empty(from)) {  // inc_min_seq: oldest generation into the next one
        const PageId p = lists_.front(from);
        add_to_gen(p, type, min_seq_[type] + 1, /*front=*/false);
        clear_refs(p);
      }
      ++min_seq_[type];
      reset_ctrl_pos(type);
    }
    ++max_seq_;
  }

  CtrlPos read_ctrl_pos(std::size_t type, int tier, std::uint64_t gain) const {
    CtrlPos pos;
    pos.refaulted = avg_refaulted_[type][tier] + refaulted_[type][tier];
    pos.total = avg_total_[type][tier] + evicted_[type][tier] +
                (tier > 0 ? protected_[type][tier] : 0);
    pos.gain = gain;
    return pos;
  }

  bool positive_ctrl_err(const CtrlPos& sp, const CtrlPos& pv) const {
    return pv.refaulted < min_lru_batch_ ||
           pv.refaulted * (sp.total + min_lru_batch_) * sp.gain <=
               (sp.refaulted + 1) * pv.total * pv.gain;
  }

  std::size_t pick_type(int& tier_idx) const {
    if (swappiness_ == 0) return kFile;
    if (min_seq_[kAnon] < min_seq_[kFile]) return kAnon;
    if (swappiness_ == 1) return kFile;
    if (swappiness_ == 200) return kAnon;
    // get_type_to_scan
    const std::uint64_t gain[2] = {swappiness_, 200 - swappiness_};
    const std::size_t type =
        positive_ctrl_err(read_ctrl_pos(kAnon, 0, gain[kAnon]), read_ctrl_pos(kFile, 0, gain[kFile]))
            ? kFile
            : kAnon;
    const CtrlPos sp = read_ctrl_pos(1 - type, 0, gain[1 - type]);
    int tier = 1;
    for (; tier < kMaxNrTiers; ++tier) {
      if (!positive_ctrl_err(sp, read_ctrl_pos(type, tier, gain[type]))) break;
    }
    tier_idx = tier - 1;
    return type;
  }

  int get_tier_idx(std::size_t type) const {
    const CtrlPos sp = read_ctrl_pos(type, 0, 1);
    int tier = 1;
    for (; tier < kMaxNrTiers; ++tier) {
      if (!positive_ctrl_err(sp, read_ctrl_pos(type, tier, 2))) break;
    }
    return tier - 1;
  }

  void evict_step(std::size_t type, int tier_idx, PageTableView& view, VictimList& out) {
    const std::uint64_t seq = min_seq_[type];
    const PageId p = lists_.back(list_index(type, seq));
    const int tier = tier_of(p);
    if (tier > tier_idx || lru_refs(p) == kRefsSaturated) {
      view.count_scanned(p);
      add_to_gen(p, type, seq + 1, /*front=*/false);
      clear_refs(p);
      ++protected_[type][tier];
      return;
    }
    if (type == kFile && view.dirty(p) && !(flags_[p] & kWriteback)) {
      view.count_scanned(p);
      add_to_gen(p, type, seq + 1, /*front=*/true);
      clear_refs(p);
      flags_[p] |= kWriteback;
      return;
    }
    if (type == kAnon && view.test_and_clear_referenced(p)) {
      view.count_scanned(p);
      add_to_gen(p, type, max_seq_, /*front=*/true);  // activated
      clear_refs(p);
      return;
    }
    isolated_.push_back({p, type, tier, lru_refs(p)});
    evict(p, out);
  }

  // shrink_folio_list after try_to_inc_min_seq: each victim's shadow (lru_gen_eviction) holds
  // its type's min_seq as it now is, and its eviction counts in the controller's new period.
  void record_evictions() {
    for (const Isolated& v : isolated_) {
      shadow_seq_[v.page] = static_cast<std::uint32_t>(min_seq_[v.type] + 1);
      shadow_refs_[v.page] = static_cast<std::uint8_t>(v.refs);
      ++evicted_[v.type][v.tier];
    }
    isolated_.clear();
  }

  void evict(PageId p, VictimList& out) {
    lists_.remove(p);
    flags_[p] = 0;
    refs_[p] = 0;
    out.push_back(p);
  }

  void evict_any(VictimList& out) {
    for (std::size_t type = 0; type < 2; ++type) {
      for (std::uint64_t seq = min_seq_[type]; seq <= max_seq_; ++seq) {
        const std::size_t list = list_index(type, seq);
        if (!lists_.empty(list)) return evict(lists_.back(list), out);
      }
    }
  }

  std::uint64_t swappiness_;
  std::uint64_t min_lru_batch_;
  PageLists lists_;
  std::vector<std::uint32_t> seq_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint8_t> refs_;
  std::vector<std::uint32_t> shadow_seq_;  // min_seq + 1 at eviction, 0 = no shadow
  std::vector<std::uint8_t> shadow_refs_;
  ReadsInSuccession reads_;
  std::vector<PageId> walk_;
  // This reclaim's victims, their shadows still to record.
  struct Isolated {
    PageId page;
    std::size_t type;
    int tier;
    int refs;
  };
  std::vector<Isolated> isolated_;
  std::uint64_t max_seq_ = kMinNrGens + 1;
  std::uint64_t min_seq_[2] = {0, 0};
  std::uint64_t avg_refaulted_[2][kMaxNrTiers] = {};
  std::uint64_t avg_total_[2][kMaxNrTiers] = {};
  std::uint64_t refaulted_[2][kMaxNrTiers] = {};
  std::uint64_t evicted_[2][kMaxNrTiers] = {};
  std::uint64_t protected_[2][kMaxNrTiers] = {};
};

}  // namespace

std::int64_t probe_mglru(const Policy& policy, PageId page) {
  return dynamic_cast<const Mglru&>(policy).probe(page);
}

PAGESIM_REGISTER_POLICY(Mglru, "mglru",
                        "Linux 6.1-stable multi-gen LRU (with the underprotected page cache "
                        "fix), simplified: 4 generations, tiers by refs, PID-controlled "
                        "protection");

}  // namespace pagesim
