#pragma once
// The tests' random traces are the testing kit's (pagesim/testing.hpp).
#include "pagesim/testing.hpp"

namespace pagesim::test {

using testing::random_trace;

}  // namespace pagesim::test
