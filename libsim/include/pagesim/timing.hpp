#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "pagesim/types.hpp"

namespace pagesim {

// A vmstat-like time series: one row per interval of `interval_ns` of virtual time, the
// interval ending at time_ns[k]. Counts are events in the interval; resident pages and free
// frames are the state at its end; device_busy is the fraction of the interval the swap
// device spent serving requests, device_read_busy and device_write_busy its parts serving
// reads and writes (zram: decompressing and compressing).
struct Vmstat {
  using Column = Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1>;
  // Rows x processes (dense ProcId order, as Result::per_proc), row-major like numpy.
  using PerProc = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  Tick interval_ns = 0;
  Column time_ns;
  PerProc resident;
  Column free_frames;
  Column faults;
  Column major_faults;
  Column swap_ins;
  Column swap_outs;
  Eigen::VectorXd device_busy;
  Eigen::VectorXd device_read_busy;
  Eigen::VectorXd device_write_busy;

  Eigen::Index rows() const { return time_ns.size(); }
};

}  // namespace pagesim
