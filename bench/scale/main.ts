/**
 * `npm run bench:scale` (issue 27): trust at 10 million players and 100 million ratings (part 5's
 * shape, ./graph.ts), loaded in bulk (loadTrustRatings), against a C floor compiled here with the
 * machine's `cc -O2` (./csr-floor.c: the plain CSR build and 64 pull iterations on one thread over
 * the same edges). Not part of `npm run bench`: it needs about 10 GB and minutes.
 * `-- --players N --ratings M` runs it at another size; `-- --json FILE` writes its figures (part
 * 9, ./figures.ts) as the other benches do, for `npm run bench:docs -- FILE`.
 *
 * Figures: the load; the first computation (1 iteration: the CSR build on fresh memory, the
 * helper thread's start); then, on the memory kept from it, a computation of 64 iterations and one
 * of 1 again: the iterations' cost is their difference over 63, the build the second 1-iteration
 * computation less one iteration. Wall seconds with the process's CPU seconds beside them (both
 * threads), and the peak RSS (VmHWM), each against its target.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTrustRatings } from '../../src/scorers/trust/bulk.js';
import { TrustCommunity } from '../../src/scorers/trust/community.js';
import { count, heading, seconds, table } from '../format.js';
import { canCollectGarbage, collectGarbage } from '../measure.js';
import { peakResidentKiB } from '../process-memory.js';
import { finish } from '../report.js';
import { BUILD_TARGET_RATIO, PEAK_RSS_TARGET_GB, scaleFigures, TOTAL_TARGET_RATIO } from './figures.js';
import { scaleGraph, SEED } from './graph.js';

const SOURCE = fileURLToPath(new URL('../../../bench/scale/csr-floor.c', import.meta.url));
const ITERATIONS = 64;

/** `--players N --ratings M --json FILE`; anything else stops the bench before it starts. */
function scaleOptions(): { readonly players: number; readonly ratings: number; readonly json?: string } {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { players: { type: 'string' }, ratings: { type: 'string' }, json: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    const size = (name: string, text: string | undefined, fallback: number): number => {
      const n = text === undefined ? fallback : Number(text);
      if (!Number.isSafeInteger(n) || n < 2) throw new Error(`--${name} takes a whole number of at least 2, got ${text}`);
      return n;
    };
    const players = size('players', values.players, 10_000_000);
    const ratings = size('ratings', values.ratings, 100_000_000);
    return values.json === undefined ? { players, ratings } : { players, ratings, json: values.json };
  } catch (error) {
    process.stderr.write(`bench:scale: ${(error as Error).message}\nusage: npm run bench:scale -- [--players N] [--ratings M] [--json FILE]\n`);
    process.exit(2);
  }
}

const options = scaleOptions();
const PLAYERS = options.players;
const RATINGS = options.ratings;

interface Floor {
  readonly checksum: number;
  readonly buildSeconds: number;
  readonly iterationSeconds: number;
}

/** The C floor's figures, or why there are none (no compiler). */
function cFloor(): Floor | string {
  const compiler = ['cc', 'gcc', 'clang'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
  if (compiler === undefined) return 'no C compiler (cc, gcc, clang) on this machine';
  const dir = mkdtempSync(join(tmpdir(), 'standing-scale-'));
  try {
    const binary = join(dir, 'csr-floor');
    execFileSync(compiler, ['-O2', '-o', binary, SOURCE, '-lm']);
    return JSON.parse(execFileSync(binary, [String(PLAYERS), String(RATINGS), String(SEED)], { encoding: 'utf8' })) as Floor;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wall and CPU seconds of `run` (CPU: the whole process, every thread). */
function timed<T>(run: () => T): { result: T; wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = run();
  const used = process.cpuUsage(cpu);
  return { result, wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** Peak resident set size of this process, bytes (VmHWM). */
function peakRss(): number {
  return (peakResidentKiB() ?? process.resourceUsage().maxRSS) * 1024;
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');

console.log(heading(`bench:scale — trust, ${count(PLAYERS)} players, ${count(RATINGS)} ratings`));
const floor = cFloor();
const graph = timed(() => scaleGraph(PLAYERS, RATINGS));
const { players, checksum } = graph.result;
console.log(`generated in ${seconds(graph.wall)} (not counted): ${count(players)} players met`);
if (typeof floor === 'string') console.log(`C floor: none: ${floor}`);
else console.log(`C floor (${SOURCE.split('/').slice(-3).join('/')}, cc -O2, one thread): same edges: ${floor.checksum === checksum ? 'yes' : `NO (checksum ${floor.checksum}, here ${checksum})`}`);

const observers = Array.from({ length: 10 }, (_, i) => String(players - 10 + i)); // the last met: rarely rated
const load = timed(() => loadTrustRatings({ observers, maxIterations: 1, tolerance: 0 }, graph.result));
const loaded = load.result.communities.get('default')!;
/**
 * One computation of `iterations` over the loaded log, on a community of its own that is dropped
 * afterwards (with its cached result), the garbage collected before the next: the figures of one
 * computation at a time, as an application computing once sees them.
 */
function computation(iterations: number): { wall: number; cpu: number; threads: number; live: number } {
  const community = new TrustCommunity({ ...loaded.params, maxIterations: iterations });
  community.ratings = loaded.ratings;
  const run = timed(() => community.compute());
  const { threads, csr } = run.result;
  const figures = { wall: run.wall, cpu: run.cpu, threads, live: csr.offsets[csr.nodes]! };
  if (canCollectGarbage()) collectGarbage();
  return figures;
}
const first = computation(1);
const full = computation(ITERATIONS);
const warm = computation(1);
const iteration = (full.wall - warm.wall) / (ITERATIONS - 1);
const iterationCpu = (full.cpu - warm.cpu) / (ITERATIONS - 1);
const build = warm.wall - iteration;
const buildCpu = warm.cpu - iterationCpu;
const live = full.live;
const nsPerEdge = (iteration / live) * 1e9;
const peak = peakRss();

const rows: string[][] = [];
const c = typeof floor === 'string' ? undefined : floor;
const cIteration = c === undefined ? NaN : c.iterationSeconds / ITERATIONS;
const cTotal = c === undefined ? NaN : c.buildSeconds + c.iterationSeconds;
const vs = (value: number, target: number, op: '≤'): [string, string] =>
  Number.isNaN(target) ? ['—', 'no floor'] : [`${op} ${seconds(target)}`, verdict(value <= target)];
rows.push(['load (loadTrustRatings)', seconds(load.wall), `${load.cpu.toFixed(1)} s`, '—', '—', '']);
rows.push(['first computation, 1 iteration (cold)', seconds(first.wall), `${first.cpu.toFixed(1)} s`, '—', '—', '']);
rows.push(['CSR build', seconds(build), `${buildCpu.toFixed(1)} s`, c === undefined ? '—' : seconds(c.buildSeconds), ...vs(build, BUILD_TARGET_RATIO * (c?.buildSeconds ?? NaN), '≤')]);
rows.push([
  'iteration, ns per edge',
  `${nsPerEdge.toFixed(2)} ns`,
  `${((iterationCpu / live) * 1e9).toFixed(2)} ns`,
  c === undefined ? '—' : `${((cIteration / RATINGS) * 1e9).toFixed(2)} ns`,
  '—',
  `${full.threads} thread${full.threads === 1 ? '' : 's'}`,
]);
rows.push([`build + ${ITERATIONS} iterations`, seconds(full.wall), `${full.cpu.toFixed(1)} s`, c === undefined ? '—' : seconds(cTotal), ...vs(full.wall, TOTAL_TARGET_RATIO * cTotal, '≤')]);
rows.push(['peak RSS (VmHWM)', `${(peak / 1e9).toFixed(2)} GB`, '—', '—', `≤ ${PEAK_RSS_TARGET_GB.toFixed(2)} GB`, verdict(peak <= PEAK_RSS_TARGET_GB * 1e9)]);
console.log(
  table(
    [
      { title: 'figure' },
      { title: 'standing', align: 'right' },
      { title: 'CPU', align: 'right' },
      { title: 'C floor', align: 'right' },
      { title: 'target' },
      { title: '' },
    ],
    rows,
  ),
);
console.log(
  `\n${count(live)} live ratings. CSR build target: ≤ 2× the C build; build + ${ITERATIONS} iterations: ≤ the C floor's. CPU: the process's, both threads.`,
);
finish(
  'bench:scale',
  scaleFigures({
    players: PLAYERS,
    ratings: RATINGS,
    live,
    iterations: ITERATIONS,
    threads: full.threads,
    load: { wall: load.wall, cpu: load.cpu },
    first,
    build: { wall: build, cpu: buildCpu },
    iteration: { wall: iteration, cpu: iterationCpu },
    total: { wall: full.wall, cpu: full.cpu },
    peakRssBytes: peak,
    ...(c === undefined ? {} : { floor: c }),
  }),
  options,
);
