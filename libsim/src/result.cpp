#include "pagesim/result.hpp"

namespace pagesim {

Counters& Counters::operator+=(const Counters& other) {
  for_each_field([&](const char*, auto member) { this->*member += other.*member; });
  return *this;
}

void Counters::add(const Counters& other, std::uint64_t times) {
  for_each_field([&](const char*, auto member) { this->*member += other.*member * times; });
}

bool Counters::operator==(const Counters& other) const {
  bool same = true;
  for_each_field([&](const char*, auto member) { same = same && this->*member == other.*member; });
  return same;
}

}  // namespace pagesim
