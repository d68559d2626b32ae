/**
 * Part 4: the per-player incremental scorers of issue #3. `reliability` over a seeded stream of
 * ~1M match events and `chat` over 1M chat messages (100,000 players, 1,000 online at a time),
 * in process and end to end through the CLI against the chunk-split + JSON.parse baseline; and
 * the chat paper's 1M-message balance simulation (target ≤ 0.25 s on one core).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StandingEvent } from '../src/events/types.js';
import { chat } from '../src/scorers/chat/scorer.js';
import { reliability } from '../src/scorers/reliability/scorer.js';
import type { AnyScorer } from '../src/scorers/scorer.js';
import { simulateChatBalance } from '../src/simulations/chat-balance.js';
import { seededRng, type Rng } from '../src/util/random.js';
import { count, heading, rate, ratio, seconds, table } from './format.js';
import { median, now } from './measure.js';
import { runNode, type ChildRun } from './run-child.js';
import { against, atMost, ratioTarget, type Figure } from './figures.js';

/** Each scorer's CLI end to end, over the chunk split baseline's time in the same run (issue 27). */
const TARGET_RATIO = 1.5;

const PLAYERS = 100_000;
const ONLINE = 1_000;
const START = Date.parse('2024-05-01T18:00:00.000Z');
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const SPLIT = fileURLToPath(new URL('./baselines/split-parse.js', import.meta.url));

/** Players online at a time; a slot's player leaves with probability 1/10 per pick. */
function onlinePicker(rng: Rng): () => string {
  const online = Array.from({ length: ONLINE }, (_, i) => i);
  let next = ONLINE;
  return () => {
    const slot = Math.floor(rng() * ONLINE);
    if (rng() < 0.1) online[slot] = next < PLAYERS ? next++ : Math.floor(rng() * PLAYERS);
    return `p${String(online[slot]).padStart(6, '0')}`;
  };
}

/** Two-player matches: a tenth interrupted by a disconnect, most of those resumed; a twentieth against a bot. */
export function matchEvents(target: number, seed: number): StandingEvent[] {
  const rng = seededRng(seed);
  const pick = onlinePicker(rng);
  const events: StandingEvent[] = [];
  let time = START;
  for (let m = 0; events.length < target; m++) {
    const match = `m${m}`;
    const a = pick();
    const bot = rng() < 0.05;
    let b = bot ? 'bot-gnubg' : pick();
    if (b === a) b = `${a}-friend`;
    const at = () => (time += 1 + Math.floor(rng() * 5000));
    events.push({ type: 'match.start', time: at(), community: 'default', match, players: [a, b], ...(bot ? { bots: [b] } : {}) });
    if (rng() < 0.1) {
      events.push({ type: 'disconnect', time: at(), community: 'default', player: rng() < 0.5 ? a : b });
      if (rng() < 0.8) events.push({ type: 'match.resume', time: at(), community: 'default', match });
    }
    events.push({ type: 'match.end', time: at(), community: 'default', match });
  }
  return events;
}

/** Chat messages from an online player to 1–5 other online players. */
export function chatEvents(target: number, seed: number): StandingEvent[] {
  const rng = seededRng(seed);
  const pick = onlinePicker(rng);
  const events: StandingEvent[] = [];
  let time = START;
  while (events.length < target) {
    const to = Array.from({ length: 1 + Math.floor(rng() * 5) }, pick);
    time += 1 + Math.floor(rng() * 200);
    events.push({ type: 'chat', time, community: 'default', from: pick(), to });
  }
  return events;
}

/** Medians of wall-clock and CPU seconds (the process's, every thread) over three runs after a warm-up. */
function timeInProcess(scorer: AnyScorer, events: readonly StandingEvent[]): { wall: number; cpu: number } {
  const runs: number[] = [];
  const cpus: number[] = [];
  for (let round = 0; round < 4; round++) {
    const state = scorer.initialState(scorer.params.resolve({}));
    const start = now();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < events.length; i++) scorer.evolve(state, events[i]!);
    if (round > 0) {
      runs.push(now() - start);
      const cpu = process.cpuUsage(cpuStart);
      cpus.push((cpu.user + cpu.system) / 1e6);
    }
  }
  return { wall: median(runs), cpu: median(cpus) };
}

/** Medians of the CLI's and the baseline's wall-clock and CPU seconds (every thread), interleaved round by round. */
interface EndToEnd {
  readonly standing: number;
  readonly baseline: number;
  readonly standingCpu: number;
  readonly baselineCpu: number;
}

async function timeEndToEnd(id: string, events: readonly StandingEvent[]): Promise<EndToEnd> {
  const file = join(tmpdir(), `standing-bench-${id}-${process.pid}.ndjson`);
  writeFileSync(file, events.map((e) => JSON.stringify({ ...e, time: new Date(e.time).toISOString() })).join('\n') + '\n');
  try {
    const standing: ChildRun[] = [];
    const baseline: ChildRun[] = [];
    for (let round = 0; round < 3; round++) {
      standing.push(await runNode(CLI, ['rank', id, file, '--format', 'json', '--top', '10'], false));
      baseline.push(await runNode(SPLIT, [file], true));
    }
    return {
      standing: median(standing.map((r) => r.seconds)),
      baseline: median(baseline.map((r) => r.seconds)),
      standingCpu: median(standing.map((r) => r.cpuSeconds)),
      baselineCpu: median(baseline.map((r) => r.cpuSeconds)),
    };
  } finally {
    rmSync(file, { force: true });
  }
}

export async function runReliabilityAndChat(): Promise<{ text: string; figures: Figure[] }> {
  const rows: string[][] = [];
  const figures: Figure[] = [];
  for (const [scorer, events] of [
    [reliability, matchEvents(1_000_000, 7)],
    [chat, chatEvents(1_000_000, 8)],
  ] as const) {
    const inProcess = timeInProcess(scorer, events);
    const e2e = await timeEndToEnd(scorer.id, events);
    const perEvent = (cpu: number) => (cpu / events.length) * 1e6;
    rows.push([
      scorer.id,
      count(events.length),
      rate(events.length / inProcess.wall, 'events'),
      `${perEvent(inProcess.cpu).toFixed(2)} µs`,
      seconds(e2e.standing),
      rate(events.length / e2e.standing, 'events'),
      seconds(e2e.baseline),
      ratio(e2e.standing / e2e.baseline),
      `${perEvent(e2e.standingCpu).toFixed(2)} µs`,
      `${perEvent(e2e.baselineCpu).toFixed(2)} µs`,
      ratio(e2e.standingCpu / e2e.baselineCpu),
    ]);
    figures.push(
      { id: `${scorer.id}.inprocess`, part: 4, what: `in-process ${scorer.id}, ${count(events.length)} events`, value: events.length / inProcess.wall, unit: 'events/s' },
      { id: `${scorer.id}.inprocess.cpu`, part: 4, what: `in-process ${scorer.id}: CPU per event`, value: perEvent(inProcess.cpu), unit: 'µs' },
      {
        id: `${scorer.id}.cli`,
        part: 4,
        what: `standing rank ${scorer.id} on a ${count(events.length)}-event NDJSON file, end to end`,
        value: e2e.standing,
        unit: 's',
        ...against('chunk split + JSON.parse', e2e.baseline, 's', e2e.standing / e2e.baseline),
        ...ratioTarget('<=', TARGET_RATIO, "× the baseline's time", e2e.standing / e2e.baseline <= TARGET_RATIO),
      },
      {
        id: `${scorer.id}.cli.cpu`,
        part: 4,
        what: `standing rank ${scorer.id} on a ${count(events.length)}-event NDJSON file, end to end: CPU per event, all threads`,
        value: perEvent(e2e.standingCpu),
        unit: 'µs',
        ...against('chunk split + JSON.parse', perEvent(e2e.baselineCpu), 'µs', e2e.standingCpu / e2e.baselineCpu, "× the baseline's CPU"),
      },
    );
  }
  const simulation: number[] = [];
  for (let round = 0; round < 6; round++) {
    const start = now();
    simulateChatBalance({ recipe: 1, rng: seededRng(1) });
    if (round > 0) simulation.push(now() - start);
  }
  const sim = median(simulation);
  figures.push({ id: 'chat.simulation', part: 4, what: "the chat paper's balance simulation, 1M messages, one core", value: sim, unit: 's', ...atMost(0.25, 's', sim <= 0.25) });
  const text = [
    heading('4. Match reliability and chat reputation (issue #3)'),
    `Seeded streams over ${count(PLAYERS)} players, ${count(ONLINE)} online at a time: two-player matches (a tenth interrupted,`,
    'most of those resumed, a twentieth against a bot) and chat messages to 1–5 receivers. In process: median of 3 runs',
    'after a warm-up. End to end: `standing rank SCORER FILE --format json --top 10` against chunk split + JSON.parse, median of 3,',
    'interleaved; the CLI is held to 1.5× the baseline\'s time. CPU: user + system time of each child, all its threads, per event.',
    '',
    table(
      [
        { title: 'scorer' },
        { title: 'events', align: 'right' },
        { title: 'in process', align: 'right' },
        { title: 'in-process CPU/event', align: 'right' },
        { title: 'CLI', align: 'right' },
        { title: 'CLI throughput', align: 'right' },
        { title: 'baseline', align: 'right' },
        { title: 'CLI ÷ baseline', align: 'right' },
        { title: 'CLI CPU/event', align: 'right' },
        { title: 'baseline CPU/event', align: 'right' },
        { title: 'CPU ÷ baseline', align: 'right' },
      ],
      rows,
    ),
    '',
    `chat paper's balance simulation (recipe 1, seed 1, 1,000,000 messages, one core): median ${seconds(sim)} of 5 runs (target ≤ 0.25 s).`,
  ].join('\n');
  return { text, figures };
}
