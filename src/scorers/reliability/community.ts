/**
 * One community's dropper-detection state (Gibbon, docs/spec.md §3): each player's scored events with a
 * running sum and count, the matches in progress, and which matches are interrupted by whom.
 * Expiry is by event time: every scored event and every match is forgotten once it is older
 * than `keepDays` before the newest event time, so memory stays bounded as the log grows.
 * With the defences of ./params.ts a finish has a weight, and the reliability is the weighted
 * mean (sum of weight · value over sum of weights, the confidence).
 */
import { TimeQueue, type TimeQueueSnapshot } from '../../util/time-queue.js';
import type { ReliabilityParams } from './params.js';

const DAY_MS = 86_400_000;

export type ScoredKind = 'finish' | 'drop' | 'resume';

/** One scored event of a player. `alive` turns false when it expires or the bot rule deletes it. */
export interface ScoredEvent {
  readonly player: string;
  readonly time: number;
  readonly value: number;
  readonly kind: ScoredKind;
  readonly match: string;
  alive: boolean;
  /** With the defences: the event's weight when not 1, and a finish's co-players (repeat defence). */
  readonly weight?: number;
  readonly with?: readonly string[];
}

/** An event's weight: 1 unless a defence set another. */
const weightOf = (event: ScoredEvent): number => event.weight ?? 1;

/**
 * The least weight a defence gives a finish (docs/reliability.md#defences): a match of length 0 (or
 * one that ends before its start) still weighs this much, so a scored player's total weight, the
 * confidence, is never 0 and its reliability is always a weighted mean.
 */
export const MIN_FINISH_WEIGHT = 1e-6;

interface PlayerRecord {
  /** Σ weight · value and Σ weight over the kept events (with no defence, Σ value and their number). */
  sum: number;
  count: number;
  /** In arrival order; dead entries are compacted away once they are half the list. */
  events: ScoredEvent[];
  dead: number;
  /** Repeat defence: kept finishes shared with each co-player. */
  together?: Map<string, number>;
}

interface Match {
  readonly players: readonly string[];
  /** Usually empty: an array is cheaper than a Set per match. */
  readonly bots: readonly string[];
  /** Time of the last event that touched the match: it expires `keepDays` after. */
  lastTime: number;
  /** When it started (the short-match defence). */
  readonly started: number;
  /** Interrupted by this player's disconnect, with the −1.0 it scored. */
  interruption: { readonly dropper: string; readonly penalty: ScoredEvent } | undefined;
}

/**
 * The state as data. Scored events are listed once and referred to by index, so an
 * interruption keeps pointing at the very −1.0 it scored; every insertion order is kept.
 */
export interface ReliabilitySnapshot {
  readonly events: readonly ScoredEvent[];
  readonly players: readonly [string, { sum: number; count: number; events: number[]; dead: number }][];
  readonly matches: readonly [string, { players: readonly string[]; bots: readonly string[]; lastTime: number; interruption: { dropper: string; penalty: number } | null; started?: number }][];
  readonly matchesOf: readonly [string, string[]][];
  readonly expiry: TimeQueueSnapshot<number>;
  readonly newest: number | null;
}

/** The bots of a match with none (most matches): one shared empty list. */
const NO_BOTS: readonly string[] = Object.freeze([]);

export class ReliabilityCommunity {
  players = new Map<string, PlayerRecord>();
  private matches = new Map<string, Match>();
  /** Running or interrupted matches of each player (one or two, as a rule). */
  private matchesOf = new Map<string, string[]>();
  private expiry = new TimeQueue<ScoredEvent>();
  private newest = -Infinity;
  private readonly keepMs: number;
  private readonly repeat: boolean;
  private readonly short: boolean;

  constructor(readonly params: ReliabilityParams) {
    this.keepMs = params.keepDays * DAY_MS;
    this.repeat = params.repeatWeight < 1;
    this.short = params.minMatchMinutes > 0;
  }

  toSnapshot(): ReliabilitySnapshot {
    const events: ScoredEvent[] = [];
    const index = new Map<ScoredEvent, number>();
    const ref = (event: ScoredEvent): number => {
      let i = index.get(event);
      if (i === undefined) {
        i = events.length;
        index.set(event, i);
        events.push({ ...event });
      }
      return i;
    };
    return {
      players: [...this.players].map(([id, r]) => [id, { sum: r.sum, count: r.count, events: r.events.map(ref), dead: r.dead }]),
      matches: [...this.matches].map(([id, m]) => [
        id,
        {
          players: m.players,
          bots: m.bots,
          lastTime: m.lastTime,
          interruption: m.interruption === undefined ? null : { dropper: m.interruption.dropper, penalty: ref(m.interruption.penalty) },
          ...(this.short ? { started: m.started } : {}),
        },
      ]),
      matchesOf: [...this.matchesOf].map(([player, ids]) => [player, [...ids]]),
      expiry: this.expiry.toSnapshot(ref),
      newest: Number.isFinite(this.newest) ? this.newest : null,
      events,
    };
  }

  static fromSnapshot(params: ReliabilityParams, s: ReliabilitySnapshot): ReliabilityCommunity {
    const c = new ReliabilityCommunity(params);
    const events = s.events.map((e) => ({ ...e }));
    c.players = new Map(s.players.map(([id, r]) => [id, { sum: r.sum, count: r.count, events: r.events.map((i) => events[i]!), dead: r.dead }]));
    c.matches = new Map(
      s.matches.map(([id, m]) => [
        id,
        {
          players: m.players,
          bots: m.bots,
          lastTime: m.lastTime,
          started: m.started ?? m.lastTime,
          interruption: m.interruption === null ? undefined : { dropper: m.interruption.dropper, penalty: events[m.interruption.penalty]! },
        },
      ]),
    );
    if (c.repeat) {
      for (const record of c.players.values()) for (const e of record.events) if (e.alive) c.together(record, e, 1);
    }
    c.matchesOf = new Map(s.matchesOf.map(([player, ids]) => [player, [...ids]]));
    c.expiry = TimeQueue.fromSnapshot(s.expiry, (i) => events[i]!);
    c.newest = s.newest ?? -Infinity;
    return c;
  }

  /** Advances the clock to `time` and forgets everything older than keepDays before the newest time. */
  advance(time: number): void {
    if (time > this.newest) this.newest = time;
    const cutoff = this.newest - this.keepMs;
    this.expiry.popBefore(cutoff, (event) => {
      if (event.alive) this.kill(event.player, event);
    });
    // Matches are kept in order of last activity (re-inserted on every touch).
    for (const [id, match] of this.matches) {
      if (match.lastTime >= cutoff) break;
      this.forgetMatch(id, match);
    }
  }

  start(id: string, players: readonly string[], bots: readonly string[], time: number): void {
    const old = this.matches.get(id);
    if (old !== undefined) this.forgetMatch(id, old); // a restarted id is a new match
    const unique = players.length === 2 && players[0] !== players[1] ? players : [...new Set(players)];
    const match: Match = { players: unique, bots: bots.length === 0 ? NO_BOTS : bots.filter((b) => unique.includes(b)), lastTime: time, started: time, interruption: undefined };
    this.matches.set(id, match);
    for (const player of unique) {
      const list = this.matchesOf.get(player);
      if (list === undefined) this.matchesOf.set(player, [id]);
      else list.push(id);
    }
  }

  /**
   * The match `id` while it is in the kept history, or undefined: one whose last event is older
   * than keepDays before the newest time is forgotten here, even when `advance` has not reached
   * it yet (it sweeps matches in insertion order, and an out-of-order start inserts an old one
   * behind newer ones), so what a match scores never depends on the order of the sweep.
   */
  private liveMatch(id: string): Match | undefined {
    const match = this.matches.get(id);
    if (match === undefined || match.lastTime >= this.newest - this.keepMs) return match;
    this.forgetMatch(id, match);
    return undefined;
  }

  /** A regular end: +finish for every player (weighted by the defences); the match is over. */
  end(id: string, time: number): void {
    const match = this.liveMatch(id);
    if (match === undefined) return;
    const finish = this.params.finish;
    if (!this.repeat && !this.short) {
      for (const player of match.players) this.score({ player, time, value: finish, kind: 'finish', match: id, alive: true });
    } else {
      const weights = match.players.map((player) => this.finishWeight(player, match, time));
      match.players.forEach((player, i) => {
        const weight = weights[i]!;
        const others = this.repeat ? match.players.filter((p) => p !== player) : undefined;
        this.score({ player, time, value: finish, kind: 'finish', match: id, alive: true, ...(weight === 1 ? {} : { weight }), ...(others === undefined ? {} : { with: others }) });
      });
    }
    this.forgetMatch(id, match);
  }

  /**
   * The weight of `player`'s finish of `match` at `time`: repeatWeight^n, n the kept finishes it
   * shares with the co-player it has finished with least often, times length / minMatchMinutes
   * for a match shorter than minMatchMinutes.
   */
  private finishWeight(player: string, match: Match, time: number): number {
    const p = this.params;
    let weight = 1;
    if (this.repeat) {
      const together = this.players.get(player)?.together;
      let least = Infinity;
      for (const other of match.players) if (other !== player) least = Math.min(least, together?.get(other) ?? 0);
      if (least !== Infinity && least > 0) weight *= p.repeatWeight ** least;
    }
    if (this.short) {
      const minutes = (time - match.started) / 60_000;
      if (minutes < p.minMatchMinutes) weight *= Math.max(0, minutes) / p.minMatchMinutes;
    }
    return Math.max(weight, MIN_FINISH_WEIGHT);
  }

  /** Adds `step` to the record's count of kept finishes shared with each co-player of `event`. */
  private together(record: PlayerRecord, event: ScoredEvent, step: number): void {
    if (event.with === undefined) return;
    const together = (record.together ??= new Map());
    for (const other of event.with) {
      const n = (together.get(other) ?? 0) + step;
      if (n === 0) together.delete(other);
      else together.set(other, n);
    }
  }

  /** A disconnect: −1.0 and an interruption for every running match of the player. */
  disconnect(player: string, time: number): void {
    const ids = this.matchesOf.get(player);
    if (ids === undefined) return;
    for (const id of [...ids]) {
      const match = this.liveMatch(id);
      if (match === undefined) continue; // forgotten (and taken off the list)
      if (match.interruption !== undefined) continue; // not running: already interrupted
      const penalty: ScoredEvent = { player, time, value: this.params.drop, kind: 'drop', match: id, alive: true };
      // A drop older than the kept history scores nothing, and its interruption is not in the
      // kept history either: a resume of it scores nothing (docs/spec.md §3).
      if (!this.score(penalty)) penalty.alive = false;
      match.interruption = { dropper: player, penalty };
      this.touch(id, match, time);
    }
  }

  /**
   * A resume of an interrupted match: +resume for the dropper, or, when every opponent is a bot,
   * the dropper's −1.0 for that interruption is deleted and nothing is added. An interruption no
   * longer in the kept history scores nothing.
   */
  resume(id: string, time: number): void {
    const match = this.liveMatch(id);
    const interruption = match?.interruption;
    if (match === undefined || interruption === undefined) return;
    const { dropper, penalty } = interruption;
    match.interruption = undefined;
    this.touch(id, match, time);
    if (!penalty.alive) return; // the interruption has left the kept history
    const opponents = match.players.filter((p) => p !== dropper);
    if (opponents.length > 0 && opponents.every((p) => match.bots.includes(p))) this.kill(dropper, penalty);
    else this.score({ player: dropper, time, value: this.params.resume, kind: 'resume', match: id, alive: true });
  }

  /** The player's kept scored events, oldest first. */
  eventsOf(player: string): ScoredEvent[] {
    return this.players.get(player)?.events.filter((e) => e.alive) ?? [];
  }

  /** Adds a scored event to its player's record; false (and nothing kept) when it is older than the kept history. */
  private score(event: ScoredEvent): boolean {
    if (event.time < this.newest - this.keepMs) return false; // already older than the kept history
    let record = this.players.get(event.player);
    if (record === undefined) this.players.set(event.player, (record = { sum: 0, count: 0, events: [], dead: 0 }));
    if (event.weight === undefined) {
      record.sum += event.value;
      record.count++;
    } else {
      record.sum += event.weight * event.value;
      record.count += event.weight;
    }
    record.events.push(event);
    this.together(record, event, 1);
    this.expiry.push(event);
    return true;
  }

  private kill(player: string, event: ScoredEvent): void {
    const record = this.players.get(player)!;
    event.alive = false;
    record.dead++;
    if (record.dead === record.events.length) {
      this.players.delete(player);
      return;
    }
    this.together(record, event, -1);
    if (event.weight === undefined) {
      record.count--;
      record.sum -= event.value;
    } else {
      record.count -= event.weight;
      record.sum -= event.weight * event.value;
    }
    // With weights, an event heavier than all the kept ones together leaves a count (and sum) made
    // mostly of rounding: they are taken again exactly from the kept events.
    const drifted = (this.repeat || this.short) && weightOf(event) > record.count;
    if (record.dead * 2 > record.events.length) {
      record.events = record.events.filter((e) => e.alive);
      record.dead = 0;
    }
    if (drifted || record.dead === 0) {
      // no drift
      record.sum = record.events.reduce((total, e) => (!e.alive ? total : e.weight === undefined ? total + e.value : total + e.weight * e.value), 0);
      if (this.repeat || this.short) record.count = record.events.reduce((total, e) => (e.alive ? total + weightOf(e) : total), 0);
    }
  }

  private touch(id: string, match: Match, time: number): void {
    match.lastTime = Math.max(match.lastTime, time);
    this.matches.delete(id);
    this.matches.set(id, match);
  }

  private forgetMatch(id: string, match: Match): void {
    this.matches.delete(id);
    for (const player of match.players) {
      const list = this.matchesOf.get(player);
      if (list === undefined) continue;
      if (list.length === 1) {
        if (list[0] === id) this.matchesOf.delete(player);
        continue;
      }
      const at = list.indexOf(id);
      if (at < 0) continue;
      // in place, order kept (splice would make an array of the removed one)
      for (let i = at + 1; i < list.length; i++) list[i - 1] = list[i]!;
      list.pop();
    }
  }
}
