/**
 * The communities the heavy reads are asked of, each written to its own SQLite file as ingest
 * would check it. Both hold 300,000 events and one busy player, p7, in about one event in fifty:
 * one spread over 100,000 players (mostly actions, among ratings, matches and the rest), and one
 * among 5,000 players over ten days, where actions, chats, reports and `played` come in turn.
 */
import { validateEvent } from '../src/events/validate.js';
import { openStore } from '../src/store/open.js';
import { seededRng } from '../src/util/random.js';

export interface ReadShape {
  /** For figure ids: `service.heavy-reads.<key>.…`. */
  readonly key: string;
  readonly community: string;
  readonly events: number;
  readonly players: number;
  /** How the events are made, for the heading. */
  readonly description: string;
  /** The `made`-th event (0-based), drawn with `rng`. */
  event(made: number, rng: () => number): Record<string, unknown>;
}

const EVENTS = 300_000;
const START = 1_700_000_000_000;
const DAY = 86_400_000;

/** p7 in one draw of fifty, else one of `players` at random. */
function drawPlayer(rng: () => number, players: number): string {
  return rng() < 0.02 ? 'p7' : `p${Math.floor(rng() * players)}`;
}

const MANY_PLAYERS = 100_000;

export const MANY_PLAYERS_SHAPE: ReadShape = {
  key: 'many-players',
  community: 'big',
  events: EVENTS,
  players: MANY_PLAYERS,
  description: 'mostly actions, with chats, ratings, reports, played counts and matches, one event every 100 ms',
  event(made, rng) {
    const p = () => drawPlayer(rng, MANY_PLAYERS);
    const base = { id: `h${made}`, time: START + made * 100, community: 'big' };
    const r = rng();
    if (r < 0.55) return { ...base, type: 'action', player: p(), delta: Math.round(rng() * 60 - 30) };
    if (r < 0.7) return { ...base, type: 'chat', from: p(), to: [p()] };
    if (r < 0.82) {
      const from = Math.floor(rng() * MANY_PLAYERS);
      const to = rng() < 0.02 ? 'p7' : `p${(from + 1 + Math.floor(rng() * 50)) % MANY_PLAYERS}`;
      return { ...base, type: 'rating', from: `p${from}`, to, value: rng() < 0.8 ? 1 : -1 };
    }
    if (r < 0.87) return { ...base, type: 'report', from: p(), to: p() };
    if (r < 0.9) return { ...base, type: 'played', player: p(), games: 1 + Math.floor(rng() * 3) };
    if (r < 0.95) {
      const a = Math.floor(rng() * MANY_PLAYERS);
      return { ...base, type: 'match.start', match: `m${made}`, players: [`p${a}`, p() === 'p7' ? 'p7' : `p${(a + 1) % MANY_PLAYERS}`] };
    }
    return { ...base, type: 'match.end', match: `m${made - Math.floor(rng() * 1000)}` };
  },
};

const FEW_PLAYERS = 5_000;

export const FEW_PLAYERS_SHAPE: ReadShape = {
  key: 'few-players',
  community: 'busy',
  events: EVENTS,
  players: FEW_PLAYERS,
  description: 'actions, chats, reports and played counts in turn, over 10 days',
  event(made, rng) {
    const p = () => drawPlayer(rng, FEW_PLAYERS);
    const base = { id: `b${made}`, time: START + Math.floor((made * 10 * DAY) / EVENTS), community: 'busy' };
    switch (made % 4) {
      case 0:
        return { ...base, type: 'action', player: p(), delta: Math.round(rng() * 60 - 30) };
      case 1:
        return { ...base, type: 'chat', from: p(), to: [p()] };
      case 2:
        return { ...base, type: 'report', from: p(), to: p() };
      default:
        return { ...base, type: 'played', player: p(), games: 1 + Math.floor(rng() * 3) };
    }
  },
};

/** Writes `shape`'s events to the store at `db`, in batches of 10,000, leaving out those ingest would refuse. */
export async function fillShape(db: string, shape: ReadShape, seed: number): Promise<void> {
  const store = await openStore(db);
  const rng = seededRng(seed);
  let made = 0;
  try {
    while (made < shape.events) {
      const events: Record<string, unknown>[] = [];
      while (events.length < 10_000 && made < shape.events) events.push(shape.event(made++, rng));
      // Checked as ingest checks them: a pair of players may not repeat, and so on.
      await store.append(
        events.flatMap((e, index) => {
          try {
            return [validateEvent(e, { index })];
          } catch {
            return [];
          }
        }),
      );
    }
  } finally {
    await store.close();
  }
}
