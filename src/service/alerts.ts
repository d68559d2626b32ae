/**
 * Alerts (docs/spec.md §2.3): a threshold is absolute (score < below) or relative to the community's
 * current distribution (below the p-th percentile, or z-score below −z). For scorers where a
 * high score is the bad one (reports' bad-player points) an absolute `above` threshold (score >
 * above) works the same way with the sides swapped. Crossing it raises an
 * alert for the player once; it is raised again only after the player came back above it (a
 * `cleared` alert records that). Thresholds are checked on fresh rankings after new events, at
 * most once per `intervalMs` per community, so a player who dips below and recovers between
 * two checks raises nothing. Raised and cleared alerts are stored, so a restart neither repeats
 * nor forgets them; listeners (the SSE stream, webhooks) hear each stored alert once.
 */
import type { ScorerInstance } from '../engine/engine.js';
import type { AlertStore, NewAlert, StoredAlert } from '../store/types.js';
import type { ThresholdConfig } from './config.js';
import type { LiveEngine } from './live-engine.js';
import type { RuleNotice } from '../moderation/rules/stage.js';
import { RULE_MODERATOR_PREFIX } from '../moderation/rules/fold.js';

/** The threshold name of a rule's circuit-breaker alert (its `scorer` is `rule:<name>`, its `player` empty). */
export const BREAKER_THRESHOLD = 'circuit-breaker';
import type { RankingViews } from './views.js';

/** The score a threshold cuts at, for the community's current scores; undefined when it cannot. */
export function cutOf(threshold: ThresholdConfig, scores: readonly number[]): number | undefined {
  if (threshold.below !== undefined) return threshold.below;
  if (threshold.above !== undefined) return threshold.above;
  if (scores.length === 0) return undefined;
  if (threshold.percentile !== undefined) {
    // Nearest rank: the smallest score with at least p % of the scores at or below it.
    const sorted = [...scores].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil((threshold.percentile / 100) * sorted.length) - 1)]!;
  }
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
  return sd === 0 ? undefined : mean - threshold.zscore! * sd;
}

export class AlertMonitor {
  /** Players currently below, per `community \0 instance \0 threshold`, with the event time their alert was raised at. */
  private readonly below = new Map<string, Map<string, number>>();
  /** Grows whenever the open alerts change (the queue's cache key). */
  private changes = 0;
  private readonly listeners = new Set<(alerts: readonly StoredAlert[]) => void>();
  private readonly due = new Set<string>();
  private readonly lastRun = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  private constructor(
    private readonly store: AlertStore,
    private readonly live: LiveEngine,
    private readonly views: RankingViews,
    private readonly thresholds: readonly ThresholdConfig[],
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async start(
    store: AlertStore,
    live: LiveEngine,
    views: RankingViews,
    thresholds: readonly ThresholdConfig[],
    intervalMs: number,
    onError: (error: unknown) => void,
  ): Promise<AlertMonitor> {
    const monitor = new AlertMonitor(store, live, views, thresholds, intervalMs, onError);
    for (const alert of await store.openAlerts()) monitor.belowSet(alert.community, alert.scorer, alert.threshold).set(alert.player, alert.time);
    live.onApplied((change) => {
      for (const community of change.communities.keys()) monitor.due.add(community);
      monitor.schedule();
    });
    return monitor;
  }

  /** Hears every alert stored from now on, in order. Returns the unsubscribe function. */
  subscribe(listener: (alerts: readonly StoredAlert[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Makes `communities` due, as new events would: a cluster worker taking a partition checks
   * them at once, raising what its predecessor did not get to store (the stored open alerts
   * keep it from raising any twice).
   */
  recheck(communities: Iterable<string>): void {
    for (const community of communities) this.due.add(community);
  }

  /** Checks every due community now and resolves when done (tests and shutdown use it). */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.running.then(() => this.check(true));
    return this.running;
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Forgets what it knew of `player` (after an erasure: the store dropped their alerts). */
  forget(player: string): void {
    for (const set of this.below.values()) set.delete(player);
    this.changes++;
  }

  /** A number that changes whenever the open alerts do. */
  get version(): number {
    return this.changes;
  }

  /**
   * The players of `community` with open alerts: how many each, the event time the newest was
   * raised at, and the scorer instances and thresholds they are open for (in the order thresholds are checked).
   */
  openIn(community: string): Map<string, { count: number; latest: number; scorers: string[]; thresholds: string[] }> {
    const out = new Map<string, { count: number; latest: number; scorers: string[]; thresholds: string[] }>();
    const prefix = `${community}\u0000`;
    for (const [key, players] of this.below) {
      if (!key.startsWith(prefix) || players.size === 0) continue;
      const [, scorer, threshold] = key.split('\u0000') as [string, string, string];
      if (scorer.startsWith(RULE_MODERATOR_PREFIX)) continue; // a rule's breaker: about no player
      for (const [player, time] of players) {
        let seen = out.get(player);
        if (seen === undefined) out.set(player, (seen = { count: 0, latest: time, scorers: [], thresholds: [] }));
        seen.count++;
        seen.latest = Math.max(seen.latest, time);
        if (!seen.scorers.includes(scorer)) seen.scorers.push(scorer);
        if (!seen.thresholds.includes(threshold)) seen.thresholds.push(threshold);
      }
    }
    return out;
  }

  /**
   * Stores an alert for each circuit breaker that tripped (`raised`) or whose pause ended
   * (`cleared`): `scorer` is `rule:<name>`, `player` empty, `threshold` "circuit-breaker", `score`
   * the share of the community's active players the rule would have acted on within the hour.
   */
  raiseRuleNotices(notices: readonly RuleNotice[]): Promise<void> {
    const alerts: NewAlert[] = notices.map((n) => ({
      community: n.community,
      scorer: `${RULE_MODERATOR_PREFIX}${n.rule}`,
      player: '',
      threshold: BREAKER_THRESHOLD,
      kind: n.kind === 'paused' ? 'raised' : 'cleared',
      score: n.players === undefined ? 0 : n.players / Math.max(1, n.active ?? 0),
      sequence: this.live.sequence(n.community),
      time: n.time,
    }));
    for (const alert of alerts) {
      const set = this.belowSet(alert.community, alert.scorer, alert.threshold);
      if (alert.kind === 'raised') set.set('', alert.time);
      else set.delete('');
    }
    this.running = this.running.then(async () => {
      try {
        const stored = await this.store.appendAlerts(alerts);
        for (const listener of this.listeners) listener(stored);
      } catch (error) {
        this.onError(error);
      }
    });
    return this.running;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.thresholds.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.running.then(() => this.check(false));
    }, this.intervalMs);
    this.timer.unref();
  }

  private belowSet(community: string, instance: string, threshold: string): Map<string, number> {
    const key = `${community}\u0000${instance}\u0000${threshold}`;
    let set = this.below.get(key);
    if (set === undefined) this.below.set(key, (set = new Map()));
    return set;
  }

  private instancesOf(threshold: ThresholdConfig): ScorerInstance[] {
    return this.live.instances.filter((i) => i.name === threshold.scorer || i.scorer.id === threshold.scorer);
  }

  private async check(all: boolean): Promise<void> {
    const now = Date.now();
    const communities = [...this.due].filter((c) => all || now - (this.lastRun.get(c) ?? 0) >= this.intervalMs);
    const found: NewAlert[] = [];
    for (const community of communities) {
      this.due.delete(community);
      this.lastRun.set(community, now);
      try {
        found.push(...this.evaluate(community));
      } catch (error) {
        this.onError(error);
      }
    }
    if (this.due.size > 0) this.schedule();
    if (found.length === 0) return;
    try {
      const stored = await this.store.appendAlerts(found);
      for (const listener of this.listeners) listener(stored);
    } catch (error) {
      this.onError(error);
    }
  }

  private evaluate(community: string): NewAlert[] {
    const out: NewAlert[] = [];
    const position = { sequence: this.live.sequence(community), time: this.live.lastTime(community) };
    for (const threshold of this.thresholds) {
      for (const instance of this.instancesOf(threshold)) {
        const view = this.views.ranking(instance, community, true);
        const cut = cutOf(threshold, view.rows.map((r) => r.score));
        const below = this.belowSet(community, instance.name, threshold.name);
        const now = new Set<string>();
        const above = threshold.above !== undefined;
        if (cut !== undefined) for (const row of view.rows) if (above ? row.score > cut : row.score < cut) now.add(row.player);
        const base = { community, scorer: instance.name, threshold: threshold.name, ...position };
        const before = out.length;
        for (const row of view.rows) {
          if (now.has(row.player) && !below.has(row.player)) out.push({ ...base, player: row.player, kind: 'raised', score: row.score });
          else if (!now.has(row.player) && below.has(row.player)) out.push({ ...base, player: row.player, kind: 'cleared', score: row.score });
        }
        for (const player of [...below.keys()]) if (!now.has(player)) below.delete(player);
        for (const player of now) if (!below.has(player)) below.set(player, position.time);
        if (out.length > before) this.changes++;
      }
    }
    return out;
  }
}
