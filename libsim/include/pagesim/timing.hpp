#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "pagesim/types.hpp"

namespace pagesim {

// A vmstat-like time series: one row per interval of `interval_ns` of virtual time, the
// interval ending at time_ns[k]. Counts are events in the interval; resident pages, free
// frames and swap slots in use are the state at its end; the fractions are parts of the
// interval:
// - device_busy: the swap device serving requests, device_read_busy and device_write_busy
//   its parts serving reads and writes (zram: decompressing and compressing);
// - iowait (per process): the process waiting for IO (its reads, room in the queue);
// - cpu_user, cpu_system, cpu_iowait (vmstat's us, sy, wa): the CPU running accesses, running
//   zram's (de)compression, idle while a process waits for IO. They sum to 1: the CPU idles
//   only when no process can run, which under round robin means every process under way
//   waits for IO (one the trace starts later waits for others to end), and in trace order
//   (static) that one process waits: its wait holds up the others.
struct Vmstat {
  using Column = Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1>;
  // Rows x processes (dense ProcId order, as Result::per_proc), row-major like numpy.
  using PerProc = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using PerProcFraction = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  Tick interval_ns = 0;
  Column time_ns;
  PerProc resident;
  Column free_frames;
  Column swap_used;  // vmstat's swpd, in slots
  Column faults;
  Column major_faults;
  Column swap_ins;
  Column swap_outs;
  Column file_reads;   // major faults that read a file page
  Column file_writes;  // dirty file pages written back (bo)
  // Pages read by readahead, swap and file: with swap_ins and file_reads, the pages read
  // (vmstat's si + bi).
  Column readahead_pages;
  Column pages_scanned;  // reclaim work (Counters::pages_scanned: pgscan + pgrefill)
  Eigen::VectorXd device_busy;
  Eigen::VectorXd device_read_busy;
  Eigen::VectorXd device_write_busy;
  Eigen::VectorXd cpu_user;
  Eigen::VectorXd cpu_system;
  Eigen::VectorXd cpu_iowait;
  PerProcFraction iowait;

  // Calls f(name, &Vmstat::series) for every series, time_ns first: the one list that
  // conversions and comparisons use.
  template <class F>
  static void for_each_series(F&& f) {
    f("time_ns", &Vmstat::time_ns);
    f("resident", &Vmstat::resident);
    f("free_frames", &Vmstat::free_frames);
    f("swap_used", &Vmstat::swap_used);
    f("faults", &Vmstat::faults);
    f("major_faults", &Vmstat::major_faults);
    f("swap_ins", &Vmstat::swap_ins);
    f("swap_outs", &Vmstat::swap_outs);
    f("file_reads", &Vmstat::file_reads);
    f("file_writes", &Vmstat::file_writes);
    f("readahead_pages", &Vmstat::readahead_pages);
    f("pages_scanned", &Vmstat::pages_scanned);
    f("device_busy", &Vmstat::device_busy);
    f("device_read_busy", &Vmstat::device_read_busy);
    f("device_write_busy", &Vmstat::device_write_busy);
    f("cpu_user", &Vmstat::cpu_user);
    f("cpu_system", &Vmstat::cpu_system);
    f("cpu_iowait", &Vmstat::cpu_iowait);
    f("iowait", &Vmstat::iowait);
  }

  Eigen::Index rows() const { return time_ns.size(); }
};

}  // namespace pagesim
