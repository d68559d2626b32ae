/**
 * A player's score over event time for one scorer instance (GET /v1/players/:id/history): the
 * community's stored log replayed into a fresh instance with the same parameters, sampled at
 * up to `points` evenly spaced sequences (and at the last one). It costs one replay of the
 * community plus, per point, one pass over the scores (`standing`; a ranking for a scorer
 * without it) and, for a scorer that iterates over the whole community (reports, trust), one
 * such computation: the rank depends on every player's score, and those scorers' scores on every
 * other player's, so nothing narrower than the community answers a point. The replay reads whole
 * only the events the scorer uses and every domain action (a store that can leave the other
 * bodies unread does: SQLite). The route bounds `points` and the service runs it on a history
 * thread (./history-jobs.ts); nothing is kept per player on the ingest path.
 */
import { Engine, type ScorerInstance } from '../engine/engine.js';
import { replayStored, type LogPosition } from '../engine/replay.js';
import { QualityStage, type QualityStageOptions } from '../quality/stage.js';
import { skimmedEventsAfter } from '../store/pages.js';
import type { EventLog } from '../store/types.js';

export interface HistoryPoint {
  readonly sequence: number;
  /**
   * The community's clock at `sequence`, epoch ms: the latest event time up to it (the time the
   * scorers judge expiry by), so points never go back in time when an event arrives dated
   * earlier than those before it.
   */
  readonly time: number;
  /** The player's score then, or null before the scorer knew the player. */
  readonly score: number | null;
  readonly rank: number | null;
}

/** One history to compute on a history thread (./history-jobs.ts): plain data, so it can be posted. */
export interface HistoryJob {
  /** The store to read (`--db`): the thread opens its own connection. */
  readonly db: string;
  /** The configured scorer entry: its id, its parameters as configured, its instance name. */
  readonly scorer: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly instance: string;
  /** Quality domain options (the configuration's `quality`). */
  readonly quality: QualityStageOptions['options'];
  readonly community: string;
  readonly player: string;
  /** The community's last applied sequence when the job was asked for: the replay stops there. */
  readonly last: number;
  readonly points: number;
}

export async function scoreHistory(
  store: EventLog,
  instance: ScorerInstance,
  quality: QualityStageOptions,
  community: string,
  player: string,
  last: number,
  points: number,
): Promise<HistoryPoint[]> {
  const targets: number[] = [];
  for (let k = 1; k <= points; k++) {
    const target = Math.ceil((k * last) / points);
    if (target > 0 && target !== targets[targets.length - 1]) targets.push(target);
  }
  const scorer = instance.scorer;
  const state = scorer.initialState(instance.params);
  const engine = new Engine([{ ...instance, state }], { quality: new QualityStage(quality) });
  const out: HistoryPoint[] = [];
  let next = 0;
  let clock = -Infinity;
  /** Samples the state as of `current` for every target before `bound` (sequences may have gaps after an erasure). */
  const sampleUpTo = (bound: number, current: LogPosition | undefined) => {
    if (current === undefined || next >= targets.length || targets[next]! >= bound) return;
    while (next < targets.length && targets[next]! < bound) next++;
    const row = scorer.standing !== undefined ? scorer.standing(state, community, player) : scorer.rank(state, { community }).find((r) => r.player === player);
    out.push({ sequence: current.sequence, time: Math.max(clock, current.time), score: row?.score ?? null, rank: row?.rank ?? null });
  };
  // Events the live engine left out are left out here the same way (see replayStoredEvent). Only
  // the events the scorer uses are read whole, and every domain action (the quality stage's state
  // and refusals depend on each); of the rest, the type and time move the clock (Engine.passOver).
  const whole = { types: scorer.uses, domainActions: true };
  const { last: end } = await replayStored(engine, skimmedEventsAfter(store, community, whole), {
    before(sequence, previous) {
      if (next >= targets.length) return false;
      sampleUpTo(sequence, previous);
      if (previous !== undefined && previous.time > clock) clock = previous.time;
      return true;
    },
  });
  sampleUpTo(Infinity, end);
  return out;
}
