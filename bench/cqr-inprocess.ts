/**
 * Part 1: in-process CQR throughput. `cqr.evolve` over an already-built stream of validated
 * action events, from an empty state each run, for three parameterizations; against the
 * "floor": one Map.get plus one Float64Array add per event over the same events, the least
 * any per-player scorer must pay.
 */
import type { ActionEvent } from '../src/events/types.js';
import type { CqrParams } from '../src/scorers/cqr/params.js';
import { cqr, type CqrState } from '../src/scorers/cqr/scorer.js';
import { count, heading, rate, ratio, seconds, table } from './format.js';
import { canCollectGarbage, collectGarbage, median, now } from './measure.js';
import { against, atLeast, type Figure } from './figures.js';

export const TARGET_ACTIONS_PER_SECOND = 10_000_000;
const WARMUP_ROUNDS = 1;
const TIMED_ROUNDS = 5;

/**
 * The default parameters are held to the target; the paper's equation 2 (T = ∞) and a
 * window eight times longer are reported beside them, to show what the window costs.
 */
const PARAMETERIZATIONS: readonly { key: string; label: string; input: Partial<CqrParams>; held: boolean }[] = [
  { key: 'default', label: 'T=8,x=10,k=4 (default)', input: { T: 8, x: 10, k: 4 }, held: true },
  { key: 't-inf', label: 'T=Infinity,x=0,k=Infinity', input: { T: Infinity, x: 0, k: Infinity }, held: false },
  { key: 't64', label: 'T=64,x=10,k=4', input: { T: 64, x: 10, k: 4 }, held: false },
];

/** Kept alive so no run's result is dead code. */
let sink = 0;

/** Seconds of CPU this process has used (every thread: the collector's helpers too). */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

function pass(state: CqrState, events: readonly ActionEvent[]): Timing {
  const start = now();
  const cpuStart = cpuNow();
  for (let i = 0; i < events.length; i++) cqr.evolve(state, events[i]!);
  return { wall: now() - start, cpu: cpuNow() - cpuStart };
}

/** Timings of the stream from an empty state, then of a second pass over the populated state. */
function timeScorer(params: CqrParams, events: readonly ActionEvent[]): { fresh: Timing; populated: Timing } {
  const state = cqr.initialState(params);
  const fresh = pass(state, events);
  const populated = pass(state, events);
  sink += state.communities.get('default')?.size ?? 0;
  return { fresh, populated };
}

function timeFloor(events: readonly ActionEvent[], index: ReadonlyMap<string, number>, totals: Float64Array): Timing {
  totals.fill(0);
  const start = now();
  const cpuStart = cpuNow();
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    totals[index.get(event.player)!]! += event.delta as number;
  }
  const elapsed: Timing = { wall: now() - start, cpu: cpuNow() - cpuStart };
  sink += totals[0]!;
  return elapsed;
}

export function runInProcess(events: readonly ActionEvent[], players: readonly string[]): { text: string; figures: Figure[] } {
  const index = new Map(players.map((id, i) => [id, i]));
  const totals = new Float64Array(players.length);
  const floorRuns: number[] = [];
  const floorCpu: number[] = [];
  const scorers = PARAMETERIZATIONS.map(({ key, label, input, held }) => ({
    key,
    label,
    held,
    params: cqr.params.resolve(input),
    fresh: [] as number[],
    populated: [] as number[],
    freshCpu: [] as number[],
    populatedCpu: [] as number[],
  }));
  const gc = canCollectGarbage();
  // Rounds interleave the contenders so drift (GC, clock, neighbours) hits all of them alike.
  for (let round = 0; round < WARMUP_ROUNDS + TIMED_ROUNDS; round++) {
    const timed = round >= WARMUP_ROUNDS;
    if (gc) collectGarbage();
    const f = timeFloor(events, index, totals);
    if (timed) {
      floorRuns.push(f.wall);
      floorCpu.push(f.cpu);
    }
    for (const scorer of scorers) {
      if (gc) collectGarbage();
      const { fresh, populated } = timeScorer(scorer.params, events);
      if (timed) {
        scorer.fresh.push(fresh.wall);
        scorer.populated.push(populated.wall);
        scorer.freshCpu.push(fresh.cpu);
        scorer.populatedCpu.push(populated.cpu);
      }
    }
  }
  if (sink === -1) console.log(sink);

  const n = events.length;
  const floorTime = median(floorRuns);
  const nsPerAction = (cpu: readonly number[]) => (median(cpu) * 1e9) / n;
  const row = (label: string, state: string, runs: readonly number[], cpu: readonly number[], target: boolean) => {
    const t = median(runs);
    return [
      label,
      state,
      seconds(t),
      rate(n / t, 'actions'),
      `${nsPerAction(cpu).toFixed(1)} ns`,
      `${rate(n / Math.max(...runs), 'actions')} … ${rate(n / Math.min(...runs), 'actions')}`,
      runs === floorRuns ? '1.00× (baseline)' : ratio(t / floorTime),
      !target ? '(info)' : n / t >= TARGET_ACTIONS_PER_SECOND ? 'yes' : 'NO',
    ];
  };
  const rows = [
    row('floor: Map.get + Float64Array add', 'ids known', floorRuns, floorCpu, false),
    ...scorers.flatMap((s) => [row(s.label, 'empty', s.fresh, s.freshCpu, s.held), row('', 'populated', s.populated, s.populatedCpu, false)]),
  ];
  const text = [
    heading('1. In-process CQR throughput: cqr.evolve(state, event)'),
    `${count(n)} validated action events, ${count(players.length)} players, built before timing.`,
    'state "empty": the whole stream from cqr.initialState (interning and array growth included: for the default, the figure held to the target);',
    'state "populated": a second pass over that state (every player known, arrays grown), like the floor, whose Map is prebuilt.',
    'CPU per action: the process\'s CPU time (every thread, the collector\'s included) over the run, per action; it moves less than throughput on a shared host.',
    `Median of ${TIMED_ROUNDS} runs after ${WARMUP_ROUNDS} warm-up round; contenders interleaved${gc ? ', full GC before each' : ''}.`,
    '',
    table(
      [
        { title: 'contender' },
        { title: 'state' },
        { title: 'median', align: 'right' },
        { title: 'throughput', align: 'right' },
        { title: 'CPU per action', align: 'right' },
        { title: 'range (slowest … fastest)', align: 'right' },
        { title: 'time vs floor', align: 'right' },
        { title: '≥ 10 M/s' },
      ],
      rows,
    ),
  ].join('\n');

  const floorRate = n / floorTime;
  const floor = (t: number) => against('Map.get + Float64Array add', floorRate, 'actions/s', t / floorTime);
  const figures: Figure[] = [
    { id: 'cqr.inprocess.floor', part: 1, what: 'in-process floor: Map.get + Float64Array add per action', value: floorRate, unit: 'actions/s' },
    { id: 'cqr.inprocess.floor.cpu', part: 1, what: 'in-process floor: CPU per action', value: nsPerAction(floorCpu), unit: 'ns' },
    ...scorers.flatMap((scorer): Figure[] => {
      const t = median(scorer.fresh);
      const populated = median(scorer.populated);
      return [
        {
          id: `cqr.inprocess.${scorer.key}`,
          part: 1,
          what: `in-process cqr ${scorer.label}, from an empty state`,
          value: n / t,
          unit: 'actions/s',
          ...floor(t),
          ...(scorer.held ? atLeast(TARGET_ACTIONS_PER_SECOND, 'actions/s', n / t >= TARGET_ACTIONS_PER_SECOND) : {}),
        },
        {
          id: `cqr.inprocess.${scorer.key}.populated`,
          part: 1,
          what: `in-process cqr ${scorer.label}, second pass over the populated state`,
          value: n / populated,
          unit: 'actions/s',
          ...floor(populated),
        },
        {
          id: `cqr.inprocess.${scorer.key}.cpu`,
          part: 1,
          what: `in-process cqr ${scorer.label}, from an empty state: CPU per action`,
          value: nsPerAction(scorer.freshCpu),
          unit: 'ns',
        },
      ];
    }),
  ];
  return { text, figures };
}
