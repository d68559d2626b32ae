/*
 * The C floor of `npm run bench:scale` (bench/scale/main.ts): the plain CSR build (count,
 * prefix sum, scatter) and 64 pull iterations of the PlayerRating step (docs/spec.md §4, default
 * Influence and Decay 1: num = sum w * R+^2, den = sum R+ over a node's incoming edges) on one
 * thread, over the edges the bench generates: the same seeded generator (mulberry32, as
 * src/util/random.ts), the same shape and the same relabelling (players numbered in the order
 * they are first met, rater before ratee). Usage: csr-floor PLAYERS RATINGS SEED. Prints one
 * line of JSON: the edges' checksum (so the bench can tell it built the same graph), the build's
 * seconds and the iterations' seconds. Compiled by the bench with `cc -O2`.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint32_t state;

static double rng(void) {
  state += 0x6d2b79f5u;
  uint32_t t = state;
  t = (t ^ (t >> 15)) * (t | 1u);
  t ^= t + (t ^ (t >> 7)) * (t | 61u);
  return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *allocate(size_t bytes) {
  void *p = calloc(bytes, 1);
  if (p == NULL) {
    fprintf(stderr, "csr-floor: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: csr-floor PLAYERS RATINGS SEED\n");
    return 2;
  }
  const int32_t n = atoi(argv[1]);
  const int64_t m = atoll(argv[2]);
  state = (uint32_t)strtoul(argv[3], NULL, 10);
  int32_t *from = allocate(m * sizeof(int32_t));
  int32_t *to = allocate(m * sizeof(int32_t));
  double *value = allocate(m * sizeof(double));
  for (int64_t e = 0; e < m;) {
    int32_t f = (int32_t)floor(rng() * n);
    double u = rng();
    int32_t t = (int32_t)floor(n * (u * u));
    if (f == t) continue;
    from[e] = f;
    to[e] = t;
    value[e] = rng() < 0.8 ? ceil(rng() * 10) / 10 : -ceil(rng() * 10) / 10;
    e++;
  }
  int32_t *label = allocate(n * sizeof(int32_t));
  for (int32_t i = 0; i < n; i++) label[i] = -1;
  int32_t met = 0;
  uint32_t checksum = 0;
  for (int64_t e = 0; e < m; e++) {
    if (label[from[e]] < 0) label[from[e]] = met++;
    if (label[to[e]] < 0) label[to[e]] = met++;
    from[e] = label[from[e]];
    to[e] = label[to[e]];
    checksum = checksum * 31u + (uint32_t)from[e] * 1000003u + (uint32_t)to[e];
  }
  free(label);

  double started = seconds();
  int32_t *offsets = allocate((n + 1) * sizeof(int32_t));
  for (int64_t e = 0; e < m; e++) offsets[to[e] + 1]++;
  for (int32_t j = 0; j < n; j++) offsets[j + 1] += offsets[j];
  int32_t *fill = allocate(n * sizeof(int32_t));
  for (int32_t j = 0; j < n; j++) fill[j] = offsets[j];
  int32_t *sources = allocate(m * sizeof(int32_t));
  double *weights = allocate(m * sizeof(double));
  for (int64_t e = 0; e < m; e++) {
    int32_t at = fill[to[e]]++;
    sources[at] = from[e];
    weights[at] = value[e];
  }
  free(fill);
  double built = seconds();

  double *current = allocate(n * sizeof(double));
  double *next = allocate(n * sizeof(double));
  double *positive = allocate(n * sizeof(double));
  unsigned char *pinned = allocate(n);
  for (int32_t s = met - 10; s < met; s++) {
    pinned[s] = 1;
    current[s] = 1;
  }
  double squares = 0;
  for (int it = 0; it < 64; it++) {
    for (int32_t i = 0; i < n; i++) positive[i] = current[i] > 0 ? current[i] : 0;
    squares = 0;
    for (int32_t j = 0; j < n; j++) {
      if (pinned[j]) {
        next[j] = 1;
        continue;
      }
      double num = 0, den = 0;
      for (int32_t k = offsets[j]; k < offsets[j + 1]; k++) {
        double r = positive[sources[k]];
        num += weights[k] * (r * r);
        den += r;
      }
      double v = den > 0 ? num / den : 0;
      double d = v - current[j];
      squares += d * d;
      next[j] = v;
    }
    double *swap = current;
    current = next;
    next = swap;
  }
  double iterated = seconds();
  printf("{\"checksum\":%u,\"players\":%d,\"buildSeconds\":%.6f,\"iterationSeconds\":%.6f,\"squares\":%.17g}\n",
         checksum, met, built - started, iterated - built, squares);
  return 0;
}
