// `make_xspace OUT.xplane.pb MB [GPUS] [HOST_THREADS]`: writes a synthetic
// XSpace of about MB x 10^6 bytes (tests/bench/xspace_synthetic.h) for
// `stepline bench`. Built with the benchmarks, never run in CI.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/bench/xspace_synthetic.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_xspace OUT.xplane.pb MB [GPUS] [HOST_THREADS]\n");
    return 2;
  }
  stepline::bench::SyntheticXSpaceOptions options;
  options.target_bytes = std::strtoull(argv[2], nullptr, 10) * 1000000;
  if (argc > 3) options.gpus = std::atoi(argv[3]);
  if (argc > 4) options.host_threads = std::atoi(argv[4]);
  std::FILE* out = std::fopen(argv[1], "wb");
  if (!out) {
    std::perror(argv[1]);
    return 1;
  }
  uint64_t written = 0;
  bool ok = true;
  stepline::bench::WriteSyntheticXSpace(options, [&](std::string_view bytes) {
    ok = ok && std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
    written += bytes.size();
  });
  ok = std::fclose(out) == 0 && ok;
  if (!ok) {
    std::perror(argv[1]);
    return 1;
  }
  std::printf("%s: %llu bytes\n", argv[1], static_cast<unsigned long long>(written));
  return 0;
}
