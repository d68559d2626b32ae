/**
 * The bench's JSON document and the figures table of docs/benchmarks.md drawn from it
 * (`npm run bench -- --json FILE`, then `npm run bench:docs -- FILE`), over a small fixture:
 * no bench runs here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END_MARKER, renderFiguresTable, START_MARKER, withFiguresTable } from '../../bench/docs-table.js';
import { benchDocument, BenchDocumentError, formatTarget, formatValue, parseBenchDocument, type Figure } from '../../bench/figures.js';
import { scaleFigures, type ScaleMeasurements } from '../../bench/scale/figures.js';

const FIXTURE = readFileSync(new URL('../fixtures/bench-figures.json', import.meta.url), 'utf8');
const fixture = () => JSON.parse(FIXTURE) as Record<string, unknown> & { figures: Record<string, unknown>[] };
const parse = (value: unknown) => parseBenchDocument(JSON.stringify(value), 'figures.json');

describe('the bench JSON document', () => {
  it('reads the fixture', () => {
    const document = parseBenchDocument(FIXTURE, 'bench-figures.json');
    expect(document.figures.map((f) => f.id)).toEqual([
      'cqr.inprocess.floor',
      'cqr.inprocess.default',
      'cqr.cli',
      'trust.graphology',
      'graph.floor',
      'service.read-p99.sqlite',
      'communities.memory.sqlite',
    ]);
  });

  it('is what the bench writes: every figure kept, a value lost to noise (NaN) written as null', () => {
    const figures: Figure[] = [
      { id: 'graph.floor', part: 5, what: 'floor', value: Number.NaN, unit: 'ns' },
      { id: 'chat.simulation', part: 4, what: 'simulation', value: 0.091, unit: 's', target: { op: '<=', value: 0.25, unit: 's', of: 'value' }, met: true },
    ];
    const machine = { cpu: 'c', cores: 2, memoryGiB: 1, node: 'v20', platform: 'linux/x64' };
    const written = JSON.stringify(benchDocument('bench', machine, figures, new Date(0)));
    const document = parseBenchDocument(written, 'out.json');
    expect(document.date).toBe('1970-01-01T00:00:00.000Z');
    expect(document.figures[0]!.value).toBeNull();
    expect(document.figures[1]).toEqual(figures[1]);
  });

  it('names the place and the reason of what is wrong', () => {
    expect(() => parseBenchDocument('{"format":', 'f.json')).toThrow(/^f\.json: is not JSON/);
    const badUnit = fixture();
    badUnit.figures[1]!.unit = 'furlongs';
    expect(() => parse(badUnit)).toThrow(BenchDocumentError);
    expect(() => parse(badUnit)).toThrow(/^figures\.json: \/figures\/1\/unit .*"furlongs"/);
    const twice = fixture();
    twice.figures[2]!.id = 'cqr.inprocess.default';
    expect(() => parse(twice)).toThrow('figures.json: /figures/2/id "cqr.inprocess.default" appears twice');
    const metAlone = fixture();
    delete metAlone.figures[1]!.target;
    expect(() => parse(metAlone)).toThrow('figures.json: /figures/1/met is given without a target');
    const noRatio = fixture();
    delete noRatio.figures[2]!.ratio;
    expect(() => parse(noRatio)).toThrow('figures.json: /figures/2/target bounds the ratio, but the figure has none');
    expect(() => parse({ ...fixture(), format: 'standing-bench/2' })).toThrow(/^figures\.json: \/format /);
    expect(() => parse({ ...fixture(), extra: 1 })).toThrow(/^figures\.json: \/extra /);
  });
});

describe('formats', () => {
  it('writes each unit one way', () => {
    expect(formatValue(11_660_000, 'actions/s')).toBe('11.66 M actions/s');
    expect(formatValue(121_100, 'events/s')).toBe('121.1 k events/s');
    expect(formatValue(1.18, 's')).toBe('1.18 s');
    expect(formatValue(0.091, 's')).toBe('91.0 ms');
    expect(formatValue(3, 'ms')).toBe('3.0 ms');
    expect(formatValue(16.74, 'µs')).toBe('16.7 µs');
    expect(formatValue(2.318, 'ns')).toBe('2.32 ns');
    expect(formatValue(248.93, 'B')).toBe('248.9 B');
    expect(formatValue(8.674, 'KiB')).toBe('8.67 KiB');
    expect(formatValue(5.123, 'GB')).toBe('5.12 GB');
    expect(formatValue(null, 'ns')).toBe('—');
  });

  it('writes targets on the value and on the ratio to the baseline', () => {
    expect(formatTarget({ target: { op: '>=', value: 10_000_000, unit: 'actions/s', of: 'value' } })).toBe('≥ 10.00 M actions/s');
    expect(formatTarget({ target: { op: '<=', value: 1.5, unit: "× the baseline's time", of: 'ratio' } })).toBe("≤ 1.50× the baseline's time");
    expect(formatTarget({ target: { op: '>=', value: 20, unit: '× faster', of: 'ratio' } })).toBe('≥ 20.0× faster');
    expect(formatTarget({})).toBe('—');
  });
});

describe('the figures table of docs/benchmarks.md', () => {
  const document = parseBenchDocument(FIXTURE, 'bench-figures.json');

  it('is one table: every figure with its value, its baseline and ratio, its target and whether it is met', () => {
    expect(renderFiguresTable(document).split('\n')).toEqual([
      'The figures of one `npm run bench` on 2026-11-24: Test CPU, 2 cores, 23.5 GiB, Node v20.20.2 (linux/x64). 3 of 4 targets met.',
      '',
      '| part | figure | value | baseline (same run) | vs baseline | target | met |',
      '|---|---|---|---|---|---|---|',
      '| 1 | in-process floor: Map.get + Float64Array add per action | 21.46 M actions/s | — | — | — | — |',
      "| 1 | in-process cqr T=8,x=10,k=4 (default), from an empty state | 11.66 M actions/s | Map.get + Float64Array add: 21.46 M actions/s | 1.84× the baseline's time | ≥ 10.00 M actions/s | yes |",
      "| 3 | standing rank cqr on a 1,000,000-line NDJSON file, end to end (default parse threads) | 1.18 s | chunk split + JSON.parse: 700.0 ms | 1.69× the baseline's time | ≤ 1.50× the baseline's time | NO |",
      '| 5 | trust end to end \\| 83 iterations | 316.9 ms | graphology + graphology-metrics pagerank: 8.65 s | 27.3× faster | ≥ 20.0× faster | yes |',
      '| 5 | CSR PageRank floor, per edge per iteration | — | — | — | — | — |',
      '| 6 | GET /v1/players/:id p99 under ingest, SQLite | 3.0 ms | — | — | < 10.0 ms | yes |',
      '| 7 | memory per small community, SQLite | 8.67 KiB | — | — | — | — |',
    ]);
  });

  it('replaces what lies between the markers and nothing else, the same way every time', () => {
    const page = ['# Benchmarks', '', 'How the bench works.', '', START_MARKER, 'old table', END_MARKER, '', 'More method.', ''].join('\n');
    const once = withFiguresTable(page, document);
    expect(once.startsWith(`# Benchmarks\n\nHow the bench works.\n\n${START_MARKER}\nThe figures of one`)).toBe(true);
    expect(once.endsWith(`| 7 | memory per small community, SQLite | 8.67 KiB | — | — | — | — |\n${END_MARKER}\n\nMore method.\n`)).toBe(true);
    expect(once).not.toContain('old table');
    expect(withFiguresTable(once, document)).toBe(once);
  });

  it("replaces a part's rows alone with the figures of that part's command, names its run, and counts the targets again", () => {
    const page = withFiguresTable(`# Benchmarks\n\n${START_MARKER}\n${END_MARKER}\n`, document);
    const machine = { cpu: 'Other CPU', cores: 4, memoryGiB: 8, node: 'v20.1.0', platform: 'linux/x64' };
    const communities = benchDocument('bench:communities', machine, [{ id: 'communities.memory.sqlite', part: 7, what: 'memory per small community, SQLite', value: 20, unit: 'KiB', target: { op: '<=', value: 16, unit: 'KiB', of: 'value' }, met: false }], new Date('2026-12-01T00:00:00Z'));
    const cluster = benchDocument('bench:cluster', machine, [{ id: 'cluster.drain.w1', part: 8, what: 'drained by 1 worker', value: 15_500, unit: 'events/s' }, { id: 'cluster.drain.w1.cpu.workers', part: 8, what: 'CPU per event', value: 30.12, unit: 'µs' }], new Date('2026-12-02T00:00:00Z'));
    const once = withFiguresTable(withFiguresTable(page, communities), cluster);
    const block = once.slice(once.indexOf(START_MARKER) + START_MARKER.length + 1, once.indexOf(END_MARKER) - 1).split('\n');
    expect(block.slice(0, 3)).toEqual([
      'The figures of one `npm run bench` on 2026-11-24: Test CPU, 2 cores, 23.5 GiB, Node v20.20.2 (linux/x64). 3 of 5 targets met.',
      'Part 7 from one `npm run bench:communities` on 2026-12-01: Other CPU, 4 cores, 8 GiB, Node v20.1.0 (linux/x64).',
      'Part 8 from one `npm run bench:cluster` on 2026-12-02: Other CPU, 4 cores, 8 GiB, Node v20.1.0 (linux/x64).',
    ]);
    expect(block.slice(-4)).toEqual([
      '| 6 | GET /v1/players/:id p99 under ingest, SQLite | 3.0 ms | — | — | < 10.0 ms | yes |',
      '| 7 | memory per small community, SQLite | 20.00 KiB | — | — | ≤ 16.00 KiB | NO |',
      '| 8 | drained by 1 worker | 15.5 k events/s | — | — | — | — |',
      '| 8 | CPU per event | 30.1 µs | — | — | — | — |',
    ]);
    expect(block).not.toContain('| 7 | memory per small community, SQLite | 8.67 KiB | — | — | — | — |');
    expect(withFiguresTable(withFiguresTable(once, communities), cluster)).toBe(once);
    expect(withFiguresTable(once, document)).toBe(page);
  });

  it('replaces only the rows of the figures a command measuring some of a part gives (npm run bench:reads), and keeps the rest of the part', () => {
    const machine = { cpu: 'Other CPU', cores: 4, memoryGiB: 8, node: 'v20.1.0', platform: 'linux/x64' };
    const slowest = (value: number) => ({ id: 'service.heavy-reads.slowest', part: 6, what: 'history or explanation, the slowest', value, unit: 's' as const, target: { op: '<=' as const, value: 5, unit: 's', of: 'value' as const }, met: value <= 5 });
    const ingest = { id: 'service.ingest.sqlite.p99', part: 6, what: 'GET /v1/players/:id p99 under ingest, SQLite', value: 3, unit: 'ms' as const, target: { op: '<' as const, value: 10, unit: 'ms', of: 'value' as const }, met: true };
    const service = benchDocument('bench:service', machine, [ingest, slowest(7.1)], new Date('2026-12-02T00:00:00Z'));
    const reads = benchDocument('bench:reads', machine, [slowest(3.1)], new Date('2026-12-03T00:00:00Z'));
    const page = withFiguresTable(withFiguresTable(`# Benchmarks\n\n${START_MARKER}\n${END_MARKER}\n`, document), service);
    const once = withFiguresTable(page, reads);
    const block = once.slice(once.indexOf(START_MARKER) + START_MARKER.length + 1, once.indexOf(END_MARKER) - 1).split('\n');
    expect(block.slice(0, 3)).toEqual([
      'The figures of one `npm run bench` on 2026-11-24: Test CPU, 2 cores, 23.5 GiB, Node v20.20.2 (linux/x64). 4 of 5 targets met.',
      'Part 6 from one `npm run bench:service` on 2026-12-02: Other CPU, 4 cores, 8 GiB, Node v20.1.0 (linux/x64).',
      'The 1 figure of part 6 it measures from one `npm run bench:reads` on 2026-12-03: Other CPU, 4 cores, 8 GiB, Node v20.1.0 (linux/x64).',
    ]);
    expect(block.slice(-3)).toEqual([
      '| 6 | GET /v1/players/:id p99 under ingest, SQLite | 3.0 ms | — | — | < 10.0 ms | yes |',
      '| 6 | history or explanation, the slowest | 3.10 s | — | — | ≤ 5.00 s | yes |',
      '| 7 | memory per small community, SQLite | 8.67 KiB | — | — | — | — |',
    ]);
    expect(withFiguresTable(once, reads)).toBe(once);
  });

  it("refuses a page without its markers, and a part's figures without a whole run's table to go into", () => {
    expect(() => withFiguresTable('# Benchmarks\n', document, 'page.md')).toThrow(`page.md: lacks the marker ${START_MARKER}`);
    expect(() => withFiguresTable(`${END_MARKER}\n${START_MARKER}\n`, document, 'page.md')).toThrow('page.md: the end marker comes before the start marker');
    expect(() => withFiguresTable(`${START_MARKER}\n${END_MARKER}\n`, { ...document, command: 'bench:service' }, 'page.md')).toThrow(
      "page.md: holds no whole run's table for the figures of npm run bench:service to go into: make it first from npm run bench -- --json FILE",
    );
  });

  it('docs/benchmarks.md holds each marker once, in order, so npm run bench:docs can fill it', () => {
    const page = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');
    expect(page.split(START_MARKER)).toHaveLength(2);
    expect(page.split(END_MARKER)).toHaveLength(2);
    expect(page.indexOf(START_MARKER)).toBeLessThan(page.indexOf(END_MARKER));
  });
});

describe('issue 27: the figures of npm run bench:scale as part 9 of the table', () => {
  const machine = { cpu: 'Big CPU', cores: 2, memoryGiB: 32, node: 'v20.20.2', platform: 'linux/x64' };
  const measured: ScaleMeasurements = {
    players: 10_000_000,
    ratings: 100_000_000,
    live: 99_000_000,
    iterations: 64,
    threads: 2,
    load: { wall: 4.2, cpu: 4.5 },
    first: { wall: 12, cpu: 14 },
    build: { wall: 6, cpu: 7 },
    iteration: { wall: 0.5, cpu: 0.9 },
    total: { wall: 38, cpu: 65 },
    peakRssBytes: 5.4e9,
    floor: { buildSeconds: 4, iterationSeconds: 32 },
  };
  const date = new Date('2026-12-03T00:00:00Z');
  const scale = () => parseBenchDocument(JSON.stringify(benchDocument('bench:scale', machine, scaleFigures(measured), date)), 'scale.json');

  it('holds the build and the build with 64 iterations to the same run\'s C floor, the peak RSS to 6 GB, and the CPU seconds beside each time', () => {
    const figures = new Map(scale().figures.map((f) => [f.id, f]));
    expect([...figures.keys()]).toEqual([
      'scale.load',
      'scale.load.cpu',
      'scale.first',
      'scale.first.cpu',
      'scale.build',
      'scale.build.cpu',
      'scale.iteration',
      'scale.iteration.cpu',
      'scale.total',
      'scale.total.cpu',
      'scale.peak-rss',
    ]);
    expect(new Set([...figures.values()].map((f) => f.part))).toEqual(new Set([9]));
    const build = figures.get('scale.build')!;
    expect(build.baseline).toEqual({ name: 'C floor (cc -O2, one thread), CSR build', value: 4, unit: 's' });
    expect(build.ratio!.value).toBeCloseTo(1.5);
    expect(build.target).toEqual({ op: '<=', value: 2, unit: "× the baseline's time", of: 'ratio' });
    expect(build.met).toBe(true);
    const total = figures.get('scale.total')!;
    expect(total.baseline!.value).toBe(36);
    expect(total.ratio!.value).toBeCloseTo(38 / 36);
    expect(total.target).toEqual({ op: '<=', value: 1, unit: "× the baseline's time", of: 'ratio' });
    expect(total.met).toBe(false);
    const iteration = figures.get('scale.iteration')!;
    expect(iteration.value).toBeCloseTo((0.5 / 99_000_000) * 1e9);
    expect(iteration.baseline!.value).toBeCloseTo((32 / 64 / 100_000_000) * 1e9);
    expect(iteration.target).toBeUndefined();
    expect(figures.get('scale.iteration.cpu')!.value).toBeCloseTo((0.9 / 99_000_000) * 1e9);
    expect(figures.get('scale.total.cpu')!.value).toBe(65);
    expect(figures.get('scale.peak-rss')).toMatchObject({ value: 5.4, unit: 'GB', target: { op: '<=', value: 6, unit: 'GB', of: 'value' }, met: true });
  });

  it('without a C compiler, reports the times with no baseline and no target on them', () => {
    const { floor: _floor, ...alone } = measured;
    const figures = scaleFigures(alone);
    expect(figures.filter((f) => f.baseline !== undefined)).toEqual([]);
    expect(figures.filter((f) => f.target !== undefined).map((f) => f.id)).toEqual(['scale.peak-rss']);
  });

  it("goes into a whole run's table as part 9's rows, named under the whole run's line, and counts the targets again", () => {
    const whole = parseBenchDocument(FIXTURE, 'bench-figures.json');
    const page = withFiguresTable(`# Benchmarks\n\n${START_MARKER}\n${END_MARKER}\n`, whole);
    const once = withFiguresTable(page, scale());
    const block = once.slice(once.indexOf(START_MARKER) + START_MARKER.length + 1, once.indexOf(END_MARKER) - 1).split('\n');
    expect(block.slice(0, 2)).toEqual([
      'The figures of one `npm run bench` on 2026-11-24: Test CPU, 2 cores, 23.5 GiB, Node v20.20.2 (linux/x64). 5 of 7 targets met.',
      'Part 9 from one `npm run bench:scale` on 2026-12-03: Big CPU, 2 cores, 32 GiB, Node v20.20.2 (linux/x64).',
    ]);
    expect(block.slice(-12, -10)).toEqual([
      '| 7 | memory per small community, SQLite | 8.67 KiB | — | — | — | — |',
      '| 9 | trust at scale, 10,000,000 players, 100,000,000 ratings: load (loadTrustRatings) | 4.20 s | — | — | — | — |',
    ]);
    expect(block).toContain("| 9 | trust at scale, 10,000,000 players, 100,000,000 ratings: CSR build | 6.00 s | C floor (cc -O2, one thread), CSR build: 4.00 s | 1.50× the baseline's time | ≤ 2.00× the baseline's time | yes |");
    expect(block.at(-1)).toBe('| 9 | trust at scale, 10,000,000 players, 100,000,000 ratings: peak resident memory of the process (VmHWM) | 5.40 GB | — | — | ≤ 6.00 GB | yes |');
    expect(withFiguresTable(once, scale())).toBe(once);
    expect(withFiguresTable(once, whole)).toBe(page);
  });
});
