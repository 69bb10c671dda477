#include "pagesim/sweep.hpp"

#include <algorithm>

#include "pagesim/error.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {

SweepRunner::SweepRunner(std::vector<std::shared_ptr<const Trace>> traces,
                         std::vector<SweepJob> jobs, std::size_t threads, OnError on_error)
    : traces_(std::move(traces)),
      jobs_(std::move(jobs)),
      on_error_(on_error),
      results_(jobs_.size()),
      errors_(jobs_.size()),
      ran_(jobs_.size(), 0) {
  for (std::size_t k = 0; k < jobs_.size(); ++k) {
    if (jobs_[k].trace >= traces_.size() || !traces_[jobs_[k].trace]) {
      throw ConfigError("sweep job " + std::to_string(k) + " names trace " +
                        std::to_string(jobs_[k].trace) + ", but the sweep has " +
                        std::to_string(traces_.size()) + " traces");
    }
  }
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, jobs_.size());
  threads_.reserve(threads);
  try {
    for (std::size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { work(); });
  } catch (...) {
    cancel();
    for (auto& t : threads_) t.join();
    throw;
  }
}

SweepRunner::~SweepRunner() {
  cancel();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void SweepRunner::work() {
  while (!cancelled()) {
    const std::size_t k = next_.fetch_add(1, std::memory_order_relaxed);
    if (k >= jobs_.size()) break;
    const SweepJob& job = jobs_[k];
    try {
      results_[k] = simulate(*traces_[job.trace], job.policy, job.params);
    } catch (...) {
      errors_[k] = std::current_exception();
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) {
        error_ = errors_[k];
        error_job_ = k;
      }
      if (on_error_ == OnError::kStop) cancel();
    }
    ran_[k] = 1;
    done_.fetch_add(1, std::memory_order_relaxed);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++finished_threads_;
  finished_cv_.notify_all();
}

bool SweepRunner::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return finished_cv_.wait_for(lock, timeout,
                               [this] { return finished_threads_ == threads_.size(); });
}

void SweepRunner::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  finished_cv_.wait(lock, [this] { return finished_threads_ == threads_.size(); });
}

std::vector<Result> SweepRunner::results() {
  wait();
  if (error_) std::rethrow_exception(error_);
  if (done() != jobs_.size()) {
    throw Error("the sweep was cancelled after " + std::to_string(done()) + " of " +
                std::to_string(jobs_.size()) + " jobs");
  }
  return results_;
}

Result SweepRunner::result(std::size_t k) {
  wait();
  if (k >= jobs_.size()) {
    throw ConfigError("sweep job " + std::to_string(k) + " does not exist: the sweep has " +
                      std::to_string(jobs_.size()) + " jobs");
  }
  if (errors_[k]) std::rethrow_exception(errors_[k]);
  if (!ran_[k]) {
    throw Error(
        "sweep job " + std::to_string(k) + " did not run: the sweep was " +
        (error_ ? "stopped by job " + std::to_string(error_job_) + "'s error" : "cancelled"));
  }
  return results_[k];
}

bool SweepRunner::ran(std::size_t k) {
  wait();
  return k < ran_.size() && ran_[k] != 0;
}

std::vector<Result> run_sweep(const std::vector<const Trace*>& traces, std::vector<SweepJob> jobs,
                              std::size_t threads) {
  std::vector<std::shared_ptr<const Trace>> shared;
  shared.reserve(traces.size());
  // Non-owning: the caller keeps the traces alive for the duration of the call.
  for (const Trace* t : traces) shared.emplace_back(std::shared_ptr<const Trace>(), t);
  SweepRunner runner(std::move(shared), std::move(jobs), threads);
  try {
    return runner.results();
  } catch (const Error& e) {
    const std::size_t k = runner.failed_job();
    if (k == runner.size()) throw;  // cancelled: no job's error
    const SweepJob& job = runner.job(k);
    std::string where = " (in the sweep's run of job " + std::to_string(k) + ": policy '" +
                        job.policy + "' on trace " + std::to_string(job.trace);
    for (const auto& [key, value] : job.params.values())
      where += ", " + key + "=" + to_string(value);
    where += ")";
    // The same type, with the run named.
    if (dynamic_cast<const PolicyError*>(&e) != nullptr) throw PolicyError(e.what() + where);
    if (dynamic_cast<const ConfigError*>(&e) != nullptr) throw ConfigError(e.what() + where);
    throw Error(e.what() + where);
  }
}

}  // namespace pagesim
