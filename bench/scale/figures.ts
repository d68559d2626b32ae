/**
 * The figures of `npm run bench:scale` (part 9 of the table in docs/benchmarks.md) from what
 * ./main.ts measured: each wall time with the process's CPU time as a figure of its own, the CSR
 * build and the build with 64 iterations against the C floor of the same run (when there is one),
 * the iteration per live rating beside the floor's, and the peak RSS against its target.
 */
import { against, atMost, ratioTarget, type Figure } from '../figures.js';
import { count } from '../format.js';

/** Wall and CPU seconds (CPU: the whole process, every thread). */
export interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/** The C floor's build and its iterations, seconds (one thread). */
export interface FloorTimes {
  readonly buildSeconds: number;
  readonly iterationSeconds: number;
}

export interface ScaleMeasurements {
  readonly players: number;
  readonly ratings: number;
  /** Ratings left once a repeated pair's later rating superseded the earlier. */
  readonly live: number;
  readonly iterations: number;
  readonly threads: number;
  readonly load: Timing;
  readonly first: Timing;
  readonly build: Timing;
  /** One iteration. */
  readonly iteration: Timing;
  /** The build and `iterations` iterations. */
  readonly total: Timing;
  readonly peakRssBytes: number;
  readonly floor?: FloorTimes;
}

export const PEAK_RSS_TARGET_GB = 6;
export const BUILD_TARGET_RATIO = 2;
export const TOTAL_TARGET_RATIO = 1;

const PART = 9;
const TIME = "× the baseline's time";
const FLOOR = 'C floor (cc -O2, one thread)';

export function scaleFigures(m: ScaleMeasurements): Figure[] {
  const shape = `${count(m.players)} players, ${count(m.ratings)} ratings`;
  const figure = (id: string, what: string, value: number, unit: Figure['unit'], extra: Partial<Figure> = {}): Figure => ({ id, part: PART, what, value, unit, ...extra });
  const cpu = (id: string, what: string, seconds: number): Figure => figure(`${id}.cpu`, `${what}: CPU of the process (every thread)`, seconds, 's');
  const perEdge = (seconds: number, edges: number): number => (seconds / edges) * 1e9;
  const f = m.floor;
  const figures: Figure[] = [];

  const load = `trust at scale, ${shape}: load (loadTrustRatings)`;
  figures.push(figure('scale.load', load, m.load.wall, 's'), cpu('scale.load', load, m.load.cpu));

  const first = `trust at scale, ${shape}: first computation, 1 iteration, on fresh memory`;
  figures.push(figure('scale.first', first, m.first.wall, 's'), cpu('scale.first', first, m.first.cpu));

  const build = `trust at scale, ${shape}: CSR build`;
  const buildRatio = f === undefined ? NaN : m.build.wall / f.buildSeconds;
  figures.push(
    figure(
      'scale.build',
      build,
      m.build.wall,
      's',
      f === undefined ? {} : { ...against(`${FLOOR}, CSR build`, f.buildSeconds, 's', buildRatio, TIME), ...ratioTarget('<=', BUILD_TARGET_RATIO, TIME, buildRatio <= BUILD_TARGET_RATIO) },
    ),
    cpu('scale.build', build, m.build.cpu),
  );

  const iteration = `trust at scale, ${shape}: iteration per live rating (${count(m.live)}), ${m.threads} thread${m.threads === 1 ? '' : 's'}`;
  const nsPerEdge = perEdge(m.iteration.wall, m.live);
  const floorNs = f === undefined ? NaN : perEdge(f.iterationSeconds / m.iterations, m.ratings);
  figures.push(
    figure('scale.iteration', iteration, nsPerEdge, 'ns', f === undefined ? {} : against(`${FLOOR}, per rating`, floorNs, 'ns', nsPerEdge / floorNs, TIME)),
    figure('scale.iteration.cpu', `${iteration}: CPU of the process (every thread)`, perEdge(m.iteration.cpu, m.live), 'ns'),
  );

  const total = `trust at scale, ${shape}: CSR build and ${m.iterations} iterations`;
  const floorTotal = f === undefined ? NaN : f.buildSeconds + f.iterationSeconds;
  const totalRatio = m.total.wall / floorTotal;
  figures.push(
    figure(
      'scale.total',
      total,
      m.total.wall,
      's',
      f === undefined ? {} : { ...against(`${FLOOR}, build and ${m.iterations} iterations`, floorTotal, 's', totalRatio, TIME), ...ratioTarget('<=', TOTAL_TARGET_RATIO, TIME, totalRatio <= TOTAL_TARGET_RATIO) },
    ),
    cpu('scale.total', total, m.total.cpu),
  );

  const peakGb = m.peakRssBytes / 1e9;
  figures.push(figure('scale.peak-rss', `trust at scale, ${shape}: peak resident memory of the process (VmHWM)`, peakGb, 'GB', atMost(PEAK_RSS_TARGET_GB, 'GB', peakGb <= PEAK_RSS_TARGET_GB)));
  return figures;
}
