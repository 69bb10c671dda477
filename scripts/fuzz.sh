#!/usr/bin/env bash
# Builds the libFuzzer target in tests/fuzz once per reader (clang, ASan + UBSan) and runs each for a bounded
# time: scripts/fuzz.sh [SECONDS_PER_TARGET (default 60)] [TARGET...]
# Seeds come from small valid traces written here; findings (crash-*, leak-*, timeout-*) are
# left in _build/fuzz/<target>/ and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(text lackey csv oracle din pinatrace spc msr alibaba native auto)
command -v clang++ >/dev/null || { echo "fuzz: clang++ is needed (apt-get install clang)"; exit 2; }

out=_build/fuzz
mkdir -p "$out/obj"
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
       -Ilibsim/include -Itraces/include)
objs=()
for src in traces/src/*.cpp libsim/src/trace.cpp libsim/src/error.cpp libsim/src/params.cpp; do
  obj="$out/obj/$(basename "${src%.cpp}").o"
  if [[ ! -f $obj || $src -nt $obj ]]; then clang++ "${flags[@]}" -c "$src" -o "$obj"; fi
  objs+=("$obj")
done

# Seed corpora: one small valid input per format, plus compressed copies.
seed() {  # seed TARGET NAME CONTENT
  mkdir -p "$out/$1/corpus"
  printf '%b' "$3" >"$out/$1/corpus/$2"
}
seed text plain '# c\n1 W 0x1000\n1 R 0x2fff\n2 r 4096\n'
seed lackey plain '==42== Lackey\nI  04000ff0,8\n L 04001000,8\n S 04001ffc,8\n M 7ff000010,4\n'
seed csv plain 'pid,op,address,time,kind\n1,W,0x1000,1,anon\n2,R,8192,2.5,file\n'
seed din plain '2 0\n0 1000\n1 70F6088c 4\n3 0x2fff\n4 5000\n'
seed pinatrace plain '0x7f1c2a1b4e43: W 0x7ffd6d1bc8f8\n0x401000: R 0x1000\n#eof\n'
seed spc plain '0,303567,3584,w,0.000000\n1,0,512,R,0.001\n0,303568,8192,r,0.5,extra\n'
seed alibaba plain '3,W,8192,8192,1577808000000040\n0,r,4095,1,1577808000000041\n'
seed msr plain '128166372003061629,hm,0,Read,4096,4096,51213\n128166372003061630,hm,0,Write,8191,2,100\n'
seed oracle plain '\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff'
# A native seed written by the library itself (via a tiny program built from the same objects).
cat >"$out/make_native_seed.cpp" <<'CPP'
#include "pagesim/trace_io.hpp"
int main(int, char** argv) {
  pagesim::TraceBuilder b(4096, "seed");
  b.add(1, 5, true);
  b.add(2, 6, false, pagesim::PageKind::kFile);
  b.add(1, 5, false);
  pagesim::write_native(std::move(b).build(), argv[1]);
}
CPP
clang++ "${flags[@]/fuzzer-no-link,/}" "$out/make_native_seed.cpp" "${objs[@]}" -lz -lzstd -o "$out/make_native_seed"
mkdir -p "$out/native/corpus" "$out/auto/corpus"
"$out/make_native_seed" "$out/native/corpus/plain"
for t in text lackey csv oracle din pinatrace spc msr alibaba native; do
  gzip -c "$out/$t/corpus/plain" >"$out/$t/corpus/plain.gz"
  zstd -q -c "$out/$t/corpus/plain" >"$out/$t/corpus/plain.zst" 2>/dev/null || true
  cp "$out/$t/corpus/plain" "$out/auto/corpus/$t"
done

status=0
for t in "${targets[@]}"; do
  clang++ "${flags[@]}" -fsanitize=fuzzer -DPAGESIM_FUZZ_FORMAT="\"$t\"" tests/fuzz/fuzz_reader.cpp \
    "${objs[@]}" -lz -lzstd -o "$out/fuzz_$t"
  echo "== fuzz_$t for ${seconds}s"
  (cd "$out/$t" && ASAN_OPTIONS=detect_leaks=1 ../fuzz_"$t" -max_total_time="$seconds" -max_len=65536 \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus 2>&1 | tail -n 12) || status=1
  if compgen -G "$out/$t/crash-*" >/dev/null || compgen -G "$out/$t/timeout-*" >/dev/null; then status=1; fi
done
exit $status
