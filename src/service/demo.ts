/**
 * The demo `npm start` serves: the CQR paper's Table 1 log (examples/cqr-table1.ndjson) plus two
 * generated (seeded) weeks of the same 20 players playing matches, rating and reporting each
 * other and chatting, so all five scorers have something to rank. The players' classes drive
 * the generation: fair players (F) finish their matches and are rated up, disruptive ones (D)
 * drop matches, draw reports and negative ratings, and receive fewer messages; the turned ones
 * (f, d) sit in between (a turned player drops about one match in thirty). Every event has an
 * id, so loading it again changes nothing.
 *
 * `serve --demo` dates the log so that its last event is the moment it starts: ratings expire and
 * matches are forgotten by event time, so a client that then posts events dated today finds the
 * demo's history still in force, not two years old.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRng, type Rng } from '../util/random.js';

const TABLE1 = fileURLToPath(new URL('../../examples/cqr-table1.ndjson', import.meta.url));
const PLAYERS = ['F', 'f', 'd', 'D'].flatMap((c) => [1, 2, 3, 4, 5].map((i) => `${c}${i}`));
/** How often a player of each class misbehaves. */
const BADNESS: Record<string, number> = { F: 0.02, f: 0.25, d: 0.5, D: 0.85 };
/**
 * How often a player of each class drops a match they play. Reliability's bands are absolute
 * (red below 0.65: roughly one match dropped in six), so the disruptive players drop often
 * enough to be red and the others rarely, as most players of a real community do: red marks
 * a few players, not half of them (docs/dashboard.md#reliabilitys-bands).
 */
const DROP_RATE: Record<string, number> = { F: 0.005, f: 0.02, d: 0.03, D: 0.45 };
const START = Date.parse('2024-05-02T12:00:00Z');
const MINUTE = 60_000;

export const DEMO_OBSERVERS = ['F1', 'F2'];

export const DEMO_THRESHOLDS = [
  { name: 'cqr-below-50', scorer: 'cqr', below: -50 },
  { name: 'reliability-red', scorer: 'reliability', below: 0.65 },
  { name: 'reports-above-2', scorer: 'reports', above: 2 },
  { name: 'trust-z-below-1.5', scorer: 'trust', zscore: 1.5 },
];

/**
 * The demo's two example rules (docs/moderation.md#rules): one proposes a look at a player
 * several others reported, one mutes a player who keeps leaving matches, longer at each repeat.
 */
export const DEMO_RULES = {
  list: [
    {
      name: 'reported-often',
      label: 'Reported by several players',
      reason: 'reported at least twice within three days, and among the worst fifth by reports',
      when: 'recent.reports >= 2 && scores.reports.percentile >= 0.8',
      action: 'propose',
      windowHours: 72,
    },
    {
      name: 'leaves-matches',
      label: 'Leaves matches',
      reason: 'left at least two matches within a day, and reliability is red',
      when: 'recent.drops >= 2 && scores.reliability.band == "red"',
      action: 'mute',
      ladder: ['10m', '1h', '1d'],
    },
  ],
};

const badness = (player: string) => BADNESS[player[0]!]!;
const dropRate = (player: string) => DROP_RATE[player[0]!]!;

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/**
 * The whole demo log, oldest first, as raw JSON values: dated from 2024-05-01, or, with `end`
 * (epoch ms), moved as a whole so that its last event is at `end`.
 */
export function demoEvents(seed = 2024, end?: number): Record<string, unknown>[] {
  const events = generate(seed);
  if (end === undefined) return events;
  const shift = end - Date.parse(events[events.length - 1]!.time as string);
  for (const event of events) event.time = new Date(Date.parse(event.time as string) + shift).toISOString();
  return events;
}

function generate(seed: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = readFileSync(TABLE1, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const rng = seededRng(seed);
  let time = START;
  let n = 0;
  const push = (event: Record<string, unknown>) => events.push({ ...event, id: `demo-${++n}`, time: new Date((time += MINUTE * (1 + Math.floor(rng() * 30)))).toISOString() });
  const games = new Map<string, number>();

  for (let m = 1; m <= 150; m++) {
    const a = pick(rng, PLAYERS);
    let b = pick(rng, PLAYERS);
    while (b === a) b = pick(rng, PLAYERS);
    const match = `demo-m${m}`;
    push({ type: 'match.start', match, players: [a, b] });
    for (const p of [a, b]) games.set(p, (games.get(p) ?? 0) + 1);
    const dropper = rng() < dropRate(a) ? a : rng() < dropRate(b) ? b : undefined;
    if (dropper === undefined) {
      push({ type: 'match.end', match });
    } else {
      push({ type: 'disconnect', player: dropper });
      if (rng() < 0.3) {
        push({ type: 'match.resume', match });
        push({ type: 'match.end', match });
      }
      const other = dropper === a ? b : a;
      if (rng() < 0.8) push({ type: 'report', from: other, to: dropper, reason: 'left the match' });
    }
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      if (rng() < 0.6) {
        const good = rng() > badness(to);
        const value = Math.round((good ? 1 : -1) * (0.5 + rng() / 2) * 10) / 10;
        push({ type: 'rating', from, to, value });
      }
      if (rng() < 0.03) push({ type: 'report', from, to, reason: 'unsporting' });
    }
  }
  for (const [player, count] of games) push({ type: 'played', player, games: count });

  const weights = PLAYERS.map((p) => 1.1 - badness(p));
  const total = weights.reduce((s, w) => s + w, 0);
  const recipient = () => {
    let r = rng() * total;
    for (let i = 0; i < PLAYERS.length; i++) if ((r -= weights[i]!) < 0) return PLAYERS[i]!;
    return PLAYERS[PLAYERS.length - 1]!;
  };
  for (let c = 0; c < 600; c++) {
    const from = pick(rng, PLAYERS);
    const to = new Set<string>();
    const receivers = 1 + Math.floor(rng() * 2);
    while (to.size < receivers) {
      const r = recipient();
      if (r !== from) to.add(r);
    }
    push({ type: 'chat', from, to: [...to] });
  }
  return events;
}
