/**
 * The shape every scorer has (docs/spec.md's five methods): typed parameters, an initial state, an
 * incremental `evolve`, a ranking query and an explanation of one player's score.
 *
 * `evolve` is deterministic and free of I/O, but for speed it updates the state in place and
 * returns it: the state belongs to whoever created it with `initialState`. Scorers ignore event
 * types they do not use. State is kept per community, so it can be partitioned by community.
 */
import type { ParamsDefinition } from '../params/define.js';
import type { EventType, StandingEvent } from '../events/types.js';
import type { TextParts } from '../util/json-parts.js';

export interface RankQuery {
  /** Community to rank; every community when absent. */
  readonly community?: string;
  /** Keep only the first `top` rows of each community. */
  readonly top?: number;
}

export interface RankRow {
  readonly rank: number;
  readonly player: string;
  readonly score: number;
  readonly community: string;
}

export interface Scorer<P extends object, S, R extends RankRow, E> {
  readonly id: string;
  readonly params: ParamsDefinition<P>;
  /**
   * True when rank 1 is the most harmful player (reports: most bad-player points), false when it
   * is the best (every other scorer): moderators' "worst first" reads the ranking from this end.
   */
  readonly rankOneIsWorst: boolean;
  /** The event types `evolve` uses (it ignores the others). */
  readonly uses: readonly EventType[];
  initialState(params: Readonly<P>): S;
  evolve(state: S, event: StandingEvent): S;
  rank(state: S, query?: RankQuery): R[];
  /** The explanation of `player`'s score in `community`, or undefined for an unknown player. */
  explain(state: S, community: string, player: string): E | undefined;
  /** Communities that have state. */
  communities(state: S): string[];
  /**
   * One community's state as text, for a checkpoint: one string, or the text in parts (in order)
   * when it is too long for one string; undefined when the community has no state.
   */
  snapshot(state: S, community: string): TextParts | undefined;
  /**
   * Replaces one community's state with one read back from `snapshot` (taken with the same
   * parameters), or forgets the community when `snapshot` is undefined. Replaying on from a
   * restored community gives exactly what replaying its whole log gives.
   */
  restore(state: S, community: string, snapshot: TextParts | undefined): void;
  /** For iterative scorers: how the last computation of each community (or of `community` alone) ended. */
  stats?(state: S, community?: string): ComputationStats[];
  /**
   * For scorers whose inputs expire by event time (docs/spec.md §1, one clock per community):
   * moves the clock of `community` (of every community the state has, when absent) to `time`,
   * never back, exactly as an event of `community` dated `time` of a type the scorer does not use
   * would, so that expiry is evaluated at that moment. `evolve` moves the clock on every event of
   * the community, whatever its type; the engine calls `advance` for an event no scorer is handed
   * (a domain action that is no player's contribution) and for `--now`.
   */
  advance?(state: S, time: number, community?: string): void;
  /**
   * Defences (parameters) that read events a community may never send, each with the event type
   * it needs: such a defence, when on, engages in a community at its first event of that type and
   * is off there until then (reports: sharedMatchDays and oneVoicePerMatch need `match.start`).
   */
  readonly defencesNeed?: Readonly<Record<string, EventType>>;
  /**
   * The defences of `defencesNeed` that are on in the state's parameters but not engaged in
   * `community` yet, for want of the event they need (every one that is on, for a community the
   * state does not hold).
   */
  dormantDefences?(state: S, community: string): string[];
  /**
   * Bumped when the meaning of the scorer's state changes (so a checkpoint saved by an earlier
   * version is never restored into it: the community is replayed from its log instead).
   */
  readonly revision?: number;
  /**
   * `player`'s score and rank in `community` as `rank` gives them, found in one pass over the
   * scores instead of a sort of the whole community; undefined when `rank` has no row for them.
   */
  standing?(state: S, community: string, player: string): { readonly score: number; readonly rank: number } | undefined;
}

export interface ComputationStats {
  readonly community: string;
  readonly iterations: number;
  /** The final residual: RMSD between the last two iterations (trust), largest change (reports). */
  readonly residual: number;
  readonly converged: boolean;
  readonly milliseconds: number;
  /**
   * Set when the community has inputs but every score is the same for want of any in force
   * (trust: no rating in force reaches from the observers, typically because every rating has
   * expired by the newest event time; reports: no report gives anyone bad-player points): why the
   * ranking says nothing of the players.
   */
  readonly warning?: string;
}

export type AnyScorer = Scorer<any, any, RankRow, unknown>;
