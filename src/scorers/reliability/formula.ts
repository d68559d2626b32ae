/**
 * The maths of `reliability`, written to be read: Gibbon's dropper detection over a plain list of
 * events, without the scorer's indexes (./community.ts keeps each player's running sum, its
 * matches and a time queue, so that an event costs O(1) and memory stays bounded). Tests hold the
 * two equal (test/unit/reliability/formula.test.ts).
 *
 * Source: "Dropper Detection Explained", a news article of Gibbon, a client for the First Internet
 * Backgammon Server, 19 June 2011 (no author named; gibbon.bg/gibbon/news/2011/003141). Its values:
 * −1.0 for a disconnect during a match, +1.0 for every player of a regular end, +1.5 for the
 * dropper when the match is resumed (nothing and the −1.0 deleted against a bot); the
 * reliability is the arithmetic mean of a player's values, the confidence their number, shown as
 * a coloured bar (colour: the reliability; length: the confidence). docs/spec.md §3 is the
 * normative reading: the band thresholds, the bar's length, the history kept (keepDays) and
 * crediting every resume of a known interruption.
 *
 *     reliability(u) = Σ values(u) / |values(u)|,   confidence(u) = |values(u)|
 *     band = green ≥ 0.95 > yellow ≥ 0.85 > orange ≥ 0.65 > red,   bar = min(1, confidence / 10)
 *
 * This is the method with the defences off (repeatWeight 1, minMatchMinutes 0); with them, each
 * finish has a weight and the mean is weighted (./community.ts, docs/reliability.md#defences).
 */
import type { StandingEvent } from '../../events/types.js';
import type { ReliabilityParams } from './params.js';

const DAY_MS = 86_400_000;

export type Band = 'green' | 'yellow' | 'orange' | 'red';

/** docs/spec.md §3 bands: green ≥ 0.95, yellow ≥ 0.85, orange ≥ 0.65, red below (defaults). */
export function bandOf(reliability: number, p: Pick<ReliabilityParams, 'green' | 'yellow' | 'orange'>): Band {
  return reliability >= p.green ? 'green' : reliability >= p.yellow ? 'yellow' : reliability >= p.orange ? 'orange' : 'red';
}

/** The bar's length in [0, 1]: full at `fullBar` values. */
export function barOf(confidence: number, p: Pick<ReliabilityParams, 'fullBar'>): number {
  return Math.min(1, confidence / p.fullBar);
}

/** A value a player scored, and whether it still counts. */
export interface ScoredValue {
  readonly player: string;
  readonly time: number;
  readonly value: number;
  counts: boolean;
}

interface Match {
  readonly players: readonly string[];
  readonly bots: readonly string[];
  /** The time of the last event that touched it: it is forgotten keepDays after. */
  lastTime: number;
  /** Interrupted by this player's disconnect, with the value it scored. */
  interruption?: { readonly dropper: string; readonly penalty: ScoredValue };
}

/**
 * The values the events score (docs/spec.md §3), in time order, each marked whether it still
 * counts at the end: expired (older than keepDays before the clock, the newest event time) or
 * deleted by the bot rule, it does not.
 */
export function scoredValues(events: readonly StandingEvent[], p: Pick<ReliabilityParams, 'keepDays' | 'finish' | 'drop' | 'resume'>): ScoredValue[] {
  const values: ScoredValue[] = [];
  const matches = new Map<string, Match>();
  const score = (player: string, time: number, value: number): ScoredValue => {
    const scored = { player, time, value, counts: true };
    values.push(scored);
    return scored;
  };
  let clock = -Infinity;
  for (const e of events) {
    clock = Math.max(clock, e.time);
    // Everything older than keepDays before the clock is forgotten, matches by their last event.
    const horizon = clock - p.keepDays * DAY_MS;
    for (const v of values) if (v.time < horizon) v.counts = false;
    for (const [id, m] of matches) if (m.lastTime < horizon) matches.delete(id);
    if (e.type === 'match.start') {
      const players = [...new Set(e.players)];
      matches.set(e.match, { players, bots: (e.bots ?? []).filter((b) => players.includes(b)), lastTime: e.time });
    } else if (e.type === 'match.end') {
      // A regular end: +finish for every player, interrupted or not; the match is over.
      const m = matches.get(e.match);
      if (m === undefined) continue;
      for (const player of m.players) score(player, e.time, p.finish);
      matches.delete(e.match);
    } else if (e.type === 'disconnect') {
      // A drop: −1 in every running match of the player, which it interrupts.
      for (const m of matches.values()) {
        if (!m.players.includes(e.player) || m.interruption !== undefined) continue;
        m.interruption = { dropper: e.player, penalty: score(e.player, e.time, p.drop) };
        m.lastTime = Math.max(m.lastTime, e.time);
      }
    } else if (e.type === 'match.resume') {
      // A resume: +resume for the dropper, or against bots only, the drop's −1 is deleted instead.
      const m = matches.get(e.match);
      if (m?.interruption === undefined) continue;
      const { dropper, penalty } = m.interruption;
      m.interruption = undefined;
      m.lastTime = Math.max(m.lastTime, e.time);
      if (!penalty.counts) continue;
      const opponents = m.players.filter((player) => player !== dropper);
      if (opponents.length > 0 && opponents.every((player) => m.bots.includes(player))) penalty.counts = false;
      else score(dropper, e.time, p.resume);
    }
  }
  return values;
}

export interface Reliability {
  readonly reliability: number;
  readonly confidence: number;
  readonly band: Band;
  readonly bar: number;
}

/** Each player's reliability, confidence, band and bar from the values that count (players with none are left out). */
export function reliabilities(values: readonly ScoredValue[], p: ReliabilityParams): Map<string, Reliability> {
  const byPlayer = new Map<string, number[]>();
  for (const v of values) if (v.counts) byPlayer.set(v.player, [...(byPlayer.get(v.player) ?? []), v.value]);
  const out = new Map<string, Reliability>();
  for (const [player, list] of byPlayer) {
    const reliability = list.reduce((sum, x) => sum + x, 0) / list.length;
    out.set(player, { reliability, confidence: list.length, band: bandOf(reliability, p), bar: barOf(list.length, p) });
  }
  return out;
}
