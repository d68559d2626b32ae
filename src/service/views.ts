/**
 * Ranking views for the read side: per (scorer instance, community) the ranking rows and an
 * index by player, computed from the live state and reused until the community has new events
 * and the view is older than `refreshMs`. Reads stay O(1) per player while ingest runs; a
 * response says which sequence it reflects. Graph scorers compute here, not on ingest.
 *
 * The views kept are bounded: at most `cacheSize`, the least recently read evicted first, and
 * none for a community without events (its ranking is empty and cheap to compute), so reads of
 * made-up community names cost no memory.
 */
import type { ScorerInstance } from '../engine/engine.js';
import type { ComputationStats, RankRow } from '../scorers/scorer.js';
import { SpillMap } from '../util/spill-map.js';
import type { LiveEngine } from './live-engine.js';

export interface RankingView {
  readonly instance: string;
  readonly community: string;
  /** The community sequence the rows reflect. */
  readonly sequence: number;
  /** Rows in rank order (rank 1 first). */
  readonly rows: readonly RankRow[];
  /** When the rows were computed (wall clock, ms), and how long that took. */
  readonly computedAt: number;
  readonly milliseconds: number;
  /** For iterative scorers (trust, reports): how the computation behind the rows ended. */
  readonly stats?: ComputationStats;
  rowOf(player: string): RankRow | undefined;
}

export class RankingViews {
  private readonly views = new Map<string, RankingView>();

  constructor(
    private readonly live: LiveEngine,
    private readonly refreshMs: number,
    private readonly onCompute?: (instance: ScorerInstance, milliseconds: number, community: string, stats?: ComputationStats) => void,
    private readonly cacheSize = 1000,
  ) {}

  /** How many views are kept now (at most the cache size). */
  get size(): number {
    return this.views.size;
  }

  /** The view of `instance` in `community`; `fresh` forces it up to the current sequence. */
  ranking(instance: ScorerInstance, community: string, fresh = false): RankingView {
    const key = `${instance.name}\u0000${community}`;
    const sequence = this.live.sequence(community);
    const view = this.views.get(key);
    if (view !== undefined && (view.sequence === sequence || (!fresh && Date.now() - view.computedAt < this.refreshMs))) {
      // Most recently read last: the Map's order is the eviction order.
      this.views.delete(key);
      this.views.set(key, view);
      return view;
    }
    const started = performance.now();
    const rows = instance.scorer.rank(instance.state, { community });
    const milliseconds = performance.now() - started;
    const stats = instance.scorer.stats?.(instance.state, community)[0];
    this.onCompute?.(instance, milliseconds, community, stats);
    let index: SpillMap<string, number> | undefined;
    const computed: RankingView = {
      instance: instance.name,
      community,
      sequence,
      rows,
      computedAt: Date.now(),
      milliseconds,
      stats,
      rowOf(player) {
        if (index === undefined) {
          index = new SpillMap();
          for (let i = 0; i < rows.length; i++) index.set(rows[i]!.player, i);
        }
        const i = index.get(player);
        return i === undefined ? undefined : rows[i];
      },
    };
    this.views.delete(key);
    if (sequence === 0) return computed; // no events: nothing worth keeping
    this.views.set(key, computed);
    if (this.views.size > this.cacheSize) this.views.delete(this.views.keys().next().value!);
    return computed;
  }

  /** Forgets every view of `community` (after an erasure, its rows may name an erased player). */
  forget(community: string): void {
    for (const key of [...this.views.keys()]) if (key.endsWith(`\u0000${community}`)) this.views.delete(key);
  }
}
