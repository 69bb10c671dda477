#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pagesim/params.hpp"
#include "pagesim/result.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

// One run of a sweep: a registered policy on one of the sweep's traces. Each job owns its
// Params: Params records the keys it was asked for in a mutable member, so one Params object
// must never be read by two threads at once.
struct SweepJob {
  std::size_t trace = 0;
  std::string policy;
  Params params;
};

// Runs a list of jobs on a pool of threads that share the traces read-only. The threads start
// in the constructor; the caller polls done() or waits, may cancel() at any time (checked
// between jobs, so a cancel takes at most the time of the jobs already running), and collects
// the results in job order.
//
//   SweepRunner run(traces, jobs, 0);  // 0 threads: one per hardware thread
//   while (!run.wait_for(std::chrono::milliseconds(100))) show(run.done(), run.size());
//   std::vector<Result> results = run.results();
//
// A job that fails (a bad parameter, a full swap area, a policy's exception) stops the sweep,
// or with OnError::kRecord is set aside while the other jobs run: result(k) then gives each
// job's result or rethrows its own error, so hours of runs are not lost to one of them.
class SweepRunner {
 public:
  enum class OnError {
    kStop,    // no job starts after a failure; results() rethrows it
    kRecord,  // every job runs; result(k) rethrows job k's error
  };

  // Throws ConfigError if a job names a trace index out of range. The traces stay alive as
  // long as the runner.
  SweepRunner(std::vector<std::shared_ptr<const Trace>> traces, std::vector<SweepJob> jobs,
              std::size_t threads, OnError on_error = OnError::kStop);
  // Cancels the jobs not yet started and joins the threads.
  ~SweepRunner();
  SweepRunner(const SweepRunner&) = delete;
  SweepRunner& operator=(const SweepRunner&) = delete;

  std::size_t size() const { return jobs_.size(); }
  std::size_t threads() const { return threads_.size(); }
  // Jobs finished so far (successfully or not).
  std::size_t done() const { return done_.load(std::memory_order_relaxed); }

  // No job starts after this call; running jobs finish.
  void cancel() { cancel_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }

  // True when every thread has stopped (all jobs done, cancelled, or failed).
  bool wait_for(std::chrono::milliseconds timeout);
  void wait();

  // Waits, then returns the results in job order. Rethrows the first error a job raised (with
  // OnError::kStop the other jobs are cancelled when one fails); throws Error if the sweep was
  // cancelled.
  std::vector<Result> results();
  // Waits, then returns job k's result or rethrows the error it raised; throws Error if it
  // never ran (the sweep was cancelled or stopped before it).
  Result result(std::size_t k);
  // Waits, then whether job k finished, well or not (after a cancel: which results are there).
  bool ran(std::size_t k);
  const SweepJob& job(std::size_t k) const { return jobs_[k]; }
  // The job whose error results() rethrows, or size() if none failed.
  std::size_t failed_job() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_ ? error_job_ : jobs_.size();
  }

 private:
  void work();

  std::vector<std::shared_ptr<const Trace>> traces_;
  std::vector<SweepJob> jobs_;
  OnError on_error_;
  std::vector<Result> results_;
  std::vector<std::exception_ptr> errors_;  // per job: its error, if it failed
  std::vector<char> ran_;                   // per job: it finished, well or not
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> done_{0};
  std::atomic<bool> cancel_{false};
  std::mutex mutex_;
  std::condition_variable finished_cv_;
  std::size_t finished_threads_ = 0;
  std::exception_ptr error_;
  std::size_t error_job_ = 0;
  std::vector<std::thread> threads_;
};

// Runs the jobs on `threads` threads (0: one per hardware thread) and returns the results in
// job order. The traces must outlive the call. A job's pagesim::Error is rethrown with the
// same type and the run named, "(in the sweep's run of job 4: policy 'lru' on trace 0,
// frames=5)"; any other exception (a policy's own) as it was.
std::vector<Result> run_sweep(const std::vector<const Trace*>& traces, std::vector<SweepJob> jobs,
                              std::size_t threads = 0);

}  // namespace pagesim
