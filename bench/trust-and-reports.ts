/**
 * Part 5: the graph scorers of issue #4 on one generated graph (100,000 players, 1,000,000
 * signed edges, seeded). Per iteration: trust and reports against a minimal CSR PageRank written
 * here as the floor (ns per edge per iteration, from the difference between 41 and 1
 * iterations, so building the CSR cancels out). End to end including building the graph:
 * standing's trust ranking against graphology-metrics pagerank (at its own tolerance, and for as
 * many iterations as standing ran) and ngraph.pagerank. And the whole
 * Bitcoin OTC log → trust ranking through the CLI, when ../shared/data is present.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { incomingCsr } from '../src/graph/csr.js';
import type { RatingEvent } from '../src/events/types.js';
import { reports } from '../src/scorers/reports/scorer.js';
import { trust } from '../src/scorers/trust/scorer.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, ratio, seconds, table } from './format.js';
import { canCollectGarbage, collectGarbage, median, now } from './measure.js';
import { against, ratioTarget, type Figure } from './figures.js';

// The baselines are CommonJS packages: loaded with require, typed just as far as used here.
const require = createRequire(import.meta.url);
const Graph = require('graphology') as new (options: { type: string; multi: boolean }) => {
  addNode(id: string): void;
  addEdge(source: string, target: string, attributes?: object): void;
};
const graphologyPagerank = require('graphology-metrics/centrality/pagerank') as (graph: unknown, options: object) => Record<string, number>;
const createNgraph = require('ngraph.graph') as () => { addLink(from: string, to: string): void };
const ngraphPagerank = require('ngraph.pagerank') as (graph: unknown, jump: number, epsilon: number) => Record<string, number>;

const NODES = 100_000;
const EDGES = 1_000_000;
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const DATA = process.env.STANDING_DATA ?? fileURLToPath(new URL('../../../shared/data', import.meta.url));

interface EdgeList {
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly value: Float64Array;
}

/** A seeded graph with skewed in-degrees (some players are rated far more than others). */
function generate(): EdgeList {
  const rng = seededRng(20240601);
  const from = new Int32Array(EDGES);
  const to = new Int32Array(EDGES);
  const value = new Float64Array(EDGES);
  const seen = new Set<number>();
  for (let e = 0; e < EDGES; ) {
    const f = Math.floor(rng() * NODES);
    const t = Math.floor(NODES * rng() ** 2); // popular players get more ratings
    if (f === t || seen.has(f * NODES + t)) continue;
    seen.add(f * NODES + t);
    from[e] = f;
    to[e] = t;
    value[e] = rng() < 0.8 ? Math.ceil(rng() * 10) / 10 : -Math.ceil(rng() * 10) / 10;
    e++;
  }
  return { from, to, value };
}

/** Minimal PageRank over an incoming CSR: the floor any CSR iteration pays. */
function pagerankIterations(graph: EdgeList, iterations: number): number {
  const csr = incomingCsr(NODES, EDGES, graph.from, graph.to, () => 1);
  const outDegree = new Float64Array(NODES);
  for (let e = 0; e < EDGES; e++) outDegree[graph.from[e]!]!++;
  let rank = new Float64Array(NODES).fill(1 / NODES);
  let next = new Float64Array(NODES);
  const share = new Float64Array(NODES);
  settle();
  const start = now();
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < NODES; i++) share[i] = outDegree[i]! > 0 ? rank[i]! / outDegree[i]! : 0;
    for (let j = 0; j < NODES; j++) {
      let sum = 0;
      for (let e = csr.offsets[j]!, end = csr.offsets[j + 1]!; e < end; e++) sum += share[csr.sources[e]!]!;
      next[j] = 0.15 / NODES + 0.85 * sum;
    }
    [rank, next] = [next, rank];
  }
  return now() - start;
}

/** graphology's pagerank run for exactly `iterations` iterations (tolerance 0 never converges). */
function graphologyPagerankFor(g: unknown, iterations: number): void {
  try {
    graphologyPagerank(g, { getEdgeWeight: null, tolerance: 0, maxIterations: iterations });
  } catch (error) {
    if (!(error instanceof Error && /failed to converge/.test(error.message))) throw error;
  }
}

/** How many iterations graphology's pagerank takes to meet `tolerance` (the least maxIterations that does not throw). */
function graphologyIterationsAt(g: unknown, tolerance: number): number {
  for (let k = 1; ; k++) {
    try {
      graphologyPagerank(g, { getEdgeWeight: null, tolerance, maxIterations: k });
      return k;
    } catch (error) {
      if (!(error instanceof Error && /failed to converge/.test(error.message))) throw error;
      if (k === 100) throw new Error('graphology pagerank did not meet its tolerance in 100 iterations', { cause: error });
    }
  }
}

const ids = Array.from({ length: NODES }, (_, i) => `p${i}`);
const OBSERVERS = ids.slice(NODES - 10); // rarely rated: the view spreads over the graph

function ratingEvents(graph: EdgeList): RatingEvent[] {
  return Array.from({ length: EDGES }, (_, e) => ({ type: 'rating', time: 0, community: 'default', from: ids[graph.from[e]!]!, to: ids[graph.to[e]!]!, value: graph.value[e]! }));
}

function trustComputeSeconds(events: readonly RatingEvent[], iterations: number, threads: number): number {
  const state = trust.initialState(trust.params.resolve({ observers: OBSERVERS, maxIterations: iterations, tolerance: 0, threads }));
  for (const e of events) trust.evolve(state, e);
  settle();
  const start = now();
  state.communities.get('default')!.compute();
  return now() - start;
}

function reportsComputeSeconds(graph: EdgeList, iterations: number): number {
  const state = reports.initialState(reports.params.resolve({ maxIterations: iterations, tolerance: 0 }));
  for (let i = 0; i < NODES; i++) reports.evolve(state, { type: 'played', time: 0, community: 'default', player: ids[i]!, games: 1 + (i % 50) });
  for (let e = 0; e < EDGES; e++) reports.evolve(state, { type: 'report', time: 0, community: 'default', from: ids[graph.from[e]!]!, to: ids[graph.to[e]!]! });
  settle();
  const start = now();
  state.communities.get('default')!.compute();
  return now() - start;
}

/** A full collection before a timed section, so garbage from the last run is not billed to it. */
function settle(): void {
  if (canCollectGarbage()) collectGarbage();
}

/**
 * ns per edge per iteration, from the difference between 41 and 1 iterations (median of 3
 * pairs), so building the CSR cancels out. NaN when noise swamped the difference.
 */
function perIteration(run: (iterations: number) => number): number {
  const samples: number[] = [];
  for (let r = 0; r < 3; r++) samples.push((run(41) - run(1)) / 40);
  const ns = (median(samples) / EDGES) * 1e9;
  return ns > 0 ? ns : NaN;
}

export async function runTrustAndReports(): Promise<{ text: string; figures: Figure[] }> {
  const graph = generate();
  const events = ratingEvents(graph);
  const floor = perIteration((n) => pagerankIterations(graph, n));
  const trustOneNs = perIteration((n) => trustComputeSeconds(events, n, 1));
  const trustNs = perIteration((n) => trustComputeSeconds(events, n, 2));
  const reportsNs = perIteration((n) => reportsComputeSeconds(graph, n));

  // End to end, from the edge list to a ranking.
  const standingRuns: number[] = [];
  let iterations = 0;
  for (let r = 0; r < 3; r++) {
    settle();
    const start = now();
    const state = trust.initialState(trust.params.resolve({ observers: OBSERVERS, tolerance: 1e-6 }));
    for (const e of events) trust.evolve(state, e);
    trust.rank(state, { top: 10 });
    standingRuns.push(now() - start);
    iterations = state.communities.get('default')!.compute().iterations;
  }
  settle();
  const graphologyStart = now();
  const g = new Graph({ type: 'directed', multi: false });
  for (const id of ids) g.addNode(id);
  for (let e = 0; e < EDGES; e++) g.addEdge(ids[graph.from[e]!]!, ids[graph.to[e]!]!, { weight: graph.value[e]! });
  const graphologyBuild = now() - graphologyStart;
  graphologyPagerank(g, { getEdgeWeight: null, tolerance: 1e-6 });
  const graphology = now() - graphologyStart;
  // The same graph again, iterated as often as standing did: graphology's tolerance bounds the
  // sum of changes over all nodes by N·tolerance, which on this graph stops it after a few
  // iterations. With tolerance 0 it runs all maxIterations and then throws "failed to converge".
  const graphologyRuns = graphologyIterationsAt(g, 1e-6);
  const graphologyItStart = now();
  graphologyPagerankFor(g, iterations);
  const graphologyEqual = graphologyBuild + (now() - graphologyItStart);
  settle();
  const ngraphStart = now();
  const ng = createNgraph();
  for (let e = 0; e < EDGES; e++) ng.addLink(ids[graph.from[e]!]!, ids[graph.to[e]!]!);
  ngraphPagerank(ng, 0.85, 1e-6);
  const ngraph = now() - ngraphStart;
  const standing = median(standingRuns);

  const perEdge = (ns: number) => against('CSR PageRank floor', floor, 'ns', ns / floor);
  const faster = (name: string, time: number) => against(name, time, 's', time / standing, '× faster');
  const figures: Figure[] = [
    { id: 'graph.floor', part: 5, what: 'CSR PageRank floor, per edge per iteration', value: floor, unit: 'ns' },
    { id: 'trust.iteration.one-thread', part: 5, what: 'trust iteration on one thread, per edge per iteration', value: trustOneNs, unit: 'ns', ...perEdge(trustOneNs) },
    {
      id: 'trust.iteration',
      part: 5,
      what: 'trust iteration on two threads (the default on large graphs), per edge per iteration',
      value: trustNs,
      unit: 'ns',
      ...perEdge(trustNs),
      ...ratioTarget('<=', 2, "× the baseline's time", trustNs <= 2 * floor),
    },
    { id: 'reports.iteration', part: 5, what: 'reports iteration, per edge per iteration', value: reportsNs, unit: 'ns', ...perEdge(reportsNs), ...ratioTarget('<=', 2, "× the baseline's time", reportsNs <= 2 * floor) },
    {
      id: 'trust.graphology',
      part: 5,
      what: `trust end to end, ${count(NODES)} players and ${count(EDGES)} ratings (${iterations} iterations to RMSD < 1e-6)`,
      value: standing,
      unit: 's',
      ...faster('graphology + graphology-metrics pagerank', graphology),
      ...ratioTarget('>=', 20, '× faster', graphology / standing >= 20),
    },
    {
      id: 'trust.graphology.same-iterations',
      part: 5,
      what: `trust end to end, against graphology run for the same ${iterations} iterations (it stops after ${graphologyRuns} at its own tolerance)`,
      value: standing,
      unit: 's',
      ...faster(`graphology, ${iterations} iterations`, graphologyEqual),
    },
    { id: 'trust.ngraph', part: 5, what: 'trust end to end, against ngraph', value: standing, unit: 's', ...faster('ngraph.graph + ngraph.pagerank', ngraph) },
  ];
  const rows: string[][] = [
    ['CSR PageRank floor (this bench)', `${floor.toFixed(2)} ns`, '1.00×'],
    ['trust iteration, one thread', `${trustOneNs.toFixed(2)} ns`, ratio(trustOneNs / floor)],
    ['trust iteration, two threads (the default on large graphs)', `${trustNs.toFixed(2)} ns`, ratio(trustNs / floor)],
    ['reports iteration', `${reportsNs.toFixed(2)} ns`, ratio(reportsNs / floor)],
  ];
  const e2e: string[][] = [
    [`standing trust (${iterations} iterations to RMSD < 1e-6, two threads)`, seconds(standing), '1.00×'],
    [`graphology + graphology-metrics pagerank (${graphologyRuns} iterations to its tolerance)`, seconds(graphology), `${(graphology / standing).toFixed(1)}× slower`],
    [`graphology, the same graph build + ${iterations} pagerank iterations (warm, no result collected)`, seconds(graphologyEqual), `${(graphologyEqual / standing).toFixed(1)}× slower`],
    ['ngraph.graph + ngraph.pagerank', seconds(ngraph), `${(ngraph / standing).toFixed(1)}× slower`],
  ];

  let bitcoin = 'Bitcoin OTC: ../shared/data not found, skipped.';
  const otc = join(DATA, 'bitcoin-otc', 'soc-sign-bitcoinotc.csv');
  if (existsSync(otc)) {
    const file = join(tmpdir(), `standing-bench-otc-${process.pid}.ndjson`);
    try {
      writeFileSync(file, execFileSync(process.execPath, [CLI, 'import', 'bitcoin-otc', otc], { maxBuffer: 1 << 28 }));
      const runs: number[] = [];
      for (let r = 0; r < 3; r++) {
        const start = now();
        execFileSync(process.execPath, [CLI, 'rank', 'trust', file, '--set', 'observers=u1,u2,u3', '--set', 'ttlMax=175200', '--format', 'json', '--top', '10']);
        runs.push(now() - start);
      }
      bitcoin = `Bitcoin OTC log (35,592 ratings) → trust ranking, CLI end to end: median ${seconds(median(runs))} of 3.`;
      figures.push({ id: 'trust.bitcoin-otc.cli', part: 5, what: 'Bitcoin OTC log (35,592 ratings) → trust ranking, through the CLI', value: median(runs), unit: 's' });
    } finally {
      rmSync(file, { force: true });
    }
  }

  const text = [
    heading('5. Graph scorers: trust and reports (issue #4)'),
    `A seeded graph of ${count(NODES)} players and ${count(EDGES)} signed edges (in-degrees skewed). Per iteration: the difference`,
    'between 41 and 1 iterations over 40, median of 3, so building the CSR snapshot cancels out.',
    '',
    table([{ title: 'per edge per iteration' }, { title: 'time', align: 'right' }, { title: 'vs floor', align: 'right' }], rows),
    '',
    'End to end, from the edge list to a ranking (building the graph included; pagerank tolerance 1e-6). graphology',
    "stops when the sum of changes over all N nodes is below N · tolerance, after a few iterations here; the second",
    'graphology row runs its pagerank for as many iterations as standing needed to reach RMSD < 1e-6 (same graph build;',
    'its pagerank already compiled, and with tolerance 0 it throws before collecting its result: both favour graphology).',
    "standing's runs after the first reuse the helper thread (started once per process) and its compiled kernel.",
    '',
    table([{ title: 'contender' }, { title: 'time', align: 'right' }, { title: 'vs standing', align: 'right' }], e2e),
    '',
    bitcoin,
  ].join('\n');
  return { text, figures };
}
