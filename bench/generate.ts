/**
 * The seeded, deterministic stream of `action` events every part of the bench uses. Two
 * shapes: `uniform` (players join over the first part of the stream, then every action is by a
 * player drawn uniformly from all who joined: the worst case for caches) and `sessions` (what
 * a game server sees: `online` players are on at a time, each acting for a session of about
 * `sessionLength` actions before someone else, new or returning, takes the place). Each player
 * has a temperament
 * (fair, neutral or disruptive) that sets the mean and spread of their integer deltas in
 * [-60, 60]. The same seed gives the same stream, in memory or as an NDJSON file.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ActionEvent } from '../src/events/types.js';
import { seededRng } from '../src/util/random.js';

export interface StreamSpec {
  readonly seed: number;
  /** Distinct players; every one of them acts at least once. */
  readonly players: number;
  /** Action events in the stream. */
  readonly actions: number;
  /** Epoch milliseconds of the first event. */
  readonly start: number;
  /** With `sessions`: players online at once, and the mean actions per session. */
  /** With `uniform`: the chance that an action brings in a new player while some have not joined yet (JOIN_RATE when absent). */
  readonly shape: { readonly kind: 'uniform'; readonly joinRate?: number } | { readonly kind: 'sessions'; readonly online: number; readonly sessionLength: number };
}

export const DEFAULT_SPEC: StreamSpec = {
  seed: 20240501,
  players: 100_000,
  actions: 1_000_000,
  start: Date.parse('2024-05-01T18:00:00.000Z'),
  shape: { kind: 'sessions', online: 1_000, sessionLength: 10 },
};

/** The same stream size with every action by a uniformly random player: caches cannot help. */
export const UNIFORM_SPEC: StreamSpec = { ...DEFAULT_SPEC, shape: { kind: 'uniform' } };

/**
 * 1,000,000 players over 2,000,000 actions: half the actions bring in a new player, the others are
 * by a uniformly random one of the players who joined before. A million ids looked up at random,
 * a million players' state, and two million event ids to check for repeats.
 */
export const MILLION_PLAYERS_SPEC: StreamSpec = { ...DEFAULT_SPEC, players: 1_000_000, actions: 2_000_000, shape: { kind: 'uniform', joinRate: 0.5 } };

/** Chance that an event brings in a new player while some have not joined yet. */
const JOIN_RATE = 0.25;

/** `p000123` (a fresh string on every call). */
export function playerId(index: number): string {
  return `p${String(index).padStart(6, '0')}`;
}

/** Called once per action, in stream order: `player` is the player's index (0 ≤ player < players). */
export type ActionVisitor = (time: number, player: number, delta: number) => void;

/** Walks the stream without storing it. */
export function forEachAction(spec: StreamSpec, visit: ActionVisitor): void {
  if (spec.actions < spec.players) throw new Error('the stream needs at least one action per player');
  const rng = seededRng(spec.seed);
  const mean = new Float64Array(spec.players);
  const spread = new Float64Array(spec.players);
  for (let p = 0; p < spec.players; p++) {
    const kind = rng();
    if (kind < 0.6) mean[p] = 5 + 20 * rng(); // fair: mostly helpful contributions
    else if (kind < 0.85) mean[p] = -5 + 10 * rng(); // neutral
    else mean[p] = -35 + 25 * rng(); // disruptive
    spread[p] = 8 + 22 * rng();
  }
  let joined = 0;
  let time = spec.start;
  const shape = spec.shape;
  const joinRate = shape.kind === 'uniform' ? (shape.joinRate ?? JOIN_RATE) : JOIN_RATE;
  const online = shape.kind === 'sessions' ? new Int32Array(Math.min(shape.online, spec.players)).fill(-1) : undefined;
  for (let i = 0; i < spec.actions; i++) {
    const mustJoin = spec.players - joined >= spec.actions - i; // keep room for every player
    let player: number;
    if (online !== undefined && shape.kind === 'sessions') {
      const slot = Math.floor(rng() * online.length);
      if (online[slot]! < 0 || mustJoin || rng() < 1 / shape.sessionLength) {
        // the session in this slot ends: a new player if any are left to join, else a returning one
        online[slot] = joined < spec.players && (mustJoin || rng() < JOIN_RATE * 4) ? joined++ : Math.floor(rng() * Math.max(1, joined));
        if (joined === 0) joined = 1;
      }
      player = online[slot]!;
    } else if (joined === 0 || (joined < spec.players && (mustJoin || rng() < joinRate))) player = joined++;
    else player = Math.floor(rng() * joined);
    const noise = (rng() + rng() + rng() - 1.5) * 2; // roughly normal, sd 1
    const delta = Math.max(-60, Math.min(60, Math.round(mean[player]! + noise * spread[player]!)));
    time += Math.floor(rng() * 120);
    visit(time, player, delta);
  }
}

/** The ids `p000000 … p(players-1)`, built once so events share them as JSON.parse would. */
export function playerIds(spec: StreamSpec): string[] {
  return Array.from({ length: spec.players }, (_, i) => playerId(i));
}

/** The stream as validated event objects (what the engine hands a scorer), sharing the `ids` strings. */
export function buildActionEvents(spec: StreamSpec, ids: readonly string[] = playerIds(spec)): ActionEvent[] {
  const events: ActionEvent[] = new Array<ActionEvent>(spec.actions);
  let i = 0;
  forEachAction(spec, (time, player, delta) => {
    events[i++] = { type: 'action', time, community: 'default', player: ids[player]!, delta };
  });
  return events;
}

export interface WrittenFile {
  readonly lines: number;
  readonly bytes: number;
}

const FLUSH_CHARS = 4 << 20;

/**
 * Writes the stream as NDJSON, one raw event per line:
 * `{"type":"action","id":"a0000001","time":"2024-05-01T18:00:00.123Z","player":"p000123","delta":-12}`.
 */
export function writeNdjson(path: string, spec: StreamSpec): WrittenFile {
  const ids = playerIds(spec);
  const fd = openSync(path, 'w');
  let lines = 0;
  let bytes = 0;
  let buffer = '';
  const flush = () => {
    bytes += writeSync(fd, buffer);
    buffer = '';
  };
  try {
    forEachAction(spec, (time, player, delta) => {
      lines++;
      const id = `a${String(lines).padStart(7, '0')}`;
      buffer += `{"type":"action","id":"${id}","time":"${new Date(time).toISOString()}","player":"${ids[player]!}","delta":${delta}}\n`;
      if (buffer.length >= FLUSH_CHARS) flush();
    });
    flush();
  } finally {
    closeSync(fd);
  }
  return { lines, bytes };
}
