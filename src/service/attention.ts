/**
 * The attention queue and the player's case on the live service (docs/moderation.md): the
 * rankings come from the ranking views, the open alerts from the alert monitor, the moderation
 * facts from the moderation book (none without one), and ../moderation/queue.ts fuses them. The
 * queue of a community is computed once per (its views' sequences, the open alerts' version, the
 * book's version of the community) and kept for reuse, at most `cacheSize` communities, the least
 * recently read evicted first; what is kept is the queue's rows, not every player's standing (a
 * standing the reasons or a case need is read from the ranking view, O(log n)). The reasons are
 * written only for the rows an answer returns. `now` is the book's community clock, which never
 * goes back.
 */
import { EMPTY_RECORD, NO_FACTS, type ModerationFacts, type PlayerRecord, type QueueFacts } from '../moderation/book-types.js';
import { standingAt, worseThan, type Standing } from '../moderation/percentiles.js';
import { computeQueue, type QueueEntry, type QueueScore, type QueueWeights } from '../moderation/queue.js';
import { wordsOf } from '../scorers/index.js';
import type { EvidenceItem } from '../scorers/words.js';
import { handledText } from '../moderation/new-evidence.js';
import { ago, count } from '../util/words.js';
import type { AlertStore, StoredAlert } from '../store/types.js';
import type { AlertMonitor } from './alerts.js';
import type { LiveEngine } from './live-engine.js';
import type { RankingView, RankingViews } from './views.js';

/** The most evidence items a case lists. */
export const CASE_EVIDENCE_LIMIT = 50;
/** The scorers whose explanations hold dated entries (reliability's events, trust's ratings, the reports received). */
const DATED = new Set(['reliability', 'trust', 'reports']);
/** The most alerts of one player a case reads to find the open ones. */
const CASE_ALERT_READ = 1000;

interface CommunityQueue {
  readonly key: string;
  readonly sequence: number;
  readonly now: number;
  readonly views: readonly RankingView[];
  readonly entries: readonly QueueEntry[];
  readonly byPlayer: Map<string, QueueEntry>;
}

export interface QueueRow extends Omit<QueueEntry, 'scores' | 'latestEvidence' | 'alertScorers' | 'alertThresholds' | 'alertRaised' | 'proposals' | 'handledByRule'> {
  readonly reasons: string[];
  readonly scorers: QueueEntry['scores'];
  /** The rules proposing a look, with their labels while configured. */
  readonly proposals: { rule: string; label?: string; time: number }[];
}

export interface QueuePage {
  readonly community: string;
  readonly sequence: number;
  readonly total: number;
  readonly weights: QueueWeights;
  readonly rows: QueueRow[];
}

/** A score as the queue reads it (but its tail), with what it means for the player. */
export interface CaseScore extends Omit<QueueScore, 'tail'> {
  readonly direction: 'higher is better' | 'higher is worse';
  readonly good: string;
  readonly bad: string;
  readonly band?: string;
  readonly confidence?: number;
  readonly summary: string;
}

export interface PlayerCase {
  readonly player: string;
  readonly community: string;
  readonly sequence: number;
  readonly now: number;
  readonly scores: CaseScore[];
  readonly queue?: { rank: number; attention: number; reasons: string[] };
  readonly record: PlayerRecord;
  readonly alerts: StoredAlert[];
  readonly evidence: { time: number; scorer: string; kind: string; text: string; other?: string }[];
}

export class AttentionQueue {
  private readonly cache = new Map<string, CommunityQueue>();

  constructor(
    private readonly live: LiveEngine,
    private readonly views: RankingViews,
    private readonly alerts: AlertMonitor,
    private readonly store: AlertStore,
    private readonly weights: QueueWeights,
    private readonly moderation: ModerationFacts | undefined,
    private readonly cacheSize = 1000,
  ) {}

  private facts(community: string, player: string, now: number): QueueFacts {
    return this.moderation?.facts(community, player, now) ?? NO_FACTS;
  }

  /** The community's queue, computed or reused. */
  private queueOf(community: string): CommunityQueue {
    const views = this.live.instances.map((instance) => this.views.ranking(instance, community));
    const key = `${views.map((v) => v.sequence).join(',')}/${this.alerts.version}/${this.moderation?.version(community) ?? 0}`;
    const kept = this.cache.get(community);
    if (kept !== undefined && kept.key === key) {
      this.cache.delete(community);
      this.cache.set(community, kept);
      return kept;
    }
    const now = Math.max(this.moderation?.clock(community) ?? 0, this.live.lastTime(community));
    const instances = this.live.instances;
    const entries = computeQueue({
      rankings: instances.map((instance, s) => ({ scorer: instance.name, scorerId: instance.scorer.id, rankOneIsWorst: instance.scorer.rankOneIsWorst, rows: views[s]!.rows })),
      openAlerts: this.alerts.openIn(community),
      withOpenAppeals: this.moderation?.withOpenAppeals(community) ?? [],
      withOpenProposals: this.moderation?.withOpenProposals(community) ?? [],
      facts: (player) => this.facts(community, player, now),
      evidence: (player) => this.evidenceOf(community, player, now, true),
      now,
      weights: this.weights,
    });
    const computed: CommunityQueue = {
      key,
      sequence: this.live.sequence(community),
      now,
      views,
      entries,
      byPlayer: new Map(entries.map((e) => [e.player, e])),
    };
    this.cache.delete(community);
    if (computed.sequence === 0) return computed; // no events: nothing worth keeping
    this.cache.set(community, computed);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return computed;
  }

  /** The community's whole queue without reasons, the clock it was computed at, and the key it is kept under (equal keys, the same queue). */
  snapshot(community: string): { readonly key: string; readonly sequence: number; readonly now: number; readonly entries: readonly QueueEntry[] } {
    const q = this.queueOf(community);
    return { key: q.key, sequence: q.sequence, now: q.now, entries: q.entries };
  }

  /** The queues kept now (computed for a read and not yet evicted), as `snapshot` gives them; nothing is computed, and the order of eviction is left as it is. */
  held(): { readonly community: string; readonly key: string; readonly sequence: number; readonly now: number; readonly entries: readonly QueueEntry[] }[] {
    return [...this.cache].map(([community, q]) => ({ community, key: q.key, sequence: q.sequence, now: q.now, entries: q.entries }));
  }

  /** Forgets the queue of `community` (after an erasure). */
  forget(community: string): void {
    this.cache.delete(community);
  }

  /** The community's whole queue in rank order, without reasons (`standing simulate queue` measures it). */
  ranked(community: string): readonly QueueEntry[] {
    return this.queueOf(community).entries;
  }

  /** Rows `offset` to `offset + limit` of the community's queue, with their reasons. */
  page(community: string, offset: number, limit: number): QueuePage {
    const q = this.queueOf(community);
    const rows = q.entries.slice(offset, offset + limit).map((entry) => {
      const { scores, latestEvidence: _latest, alertScorers: _scorers, alertThresholds: _thresholds, alertRaised: _raised, proposals, handledByRule: _byRule, ...rest } = entry;
      return { ...rest, scorers: scores, proposals: proposals.map((p) => this.labelled(p)), reasons: this.reasonsOf(community, q, entry) };
    });
    return { community, sequence: q.sequence, total: q.entries.length, weights: this.weights, rows };
  }

  /** Everything a moderator needs to judge `player` in `community`; undefined when nothing is known of them. */
  async case(community: string, player: string): Promise<PlayerCase | undefined> {
    const q = this.queueOf(community);
    const record = (await this.moderation?.record(community, player, q.now)) ?? EMPTY_RECORD();
    const scores: CaseScore[] = [];
    this.live.instances.forEach((instance, s) => {
      const standing = this.standingOf(q, s, player);
      if (standing === undefined) return;
      const row = q.views[s]!.rows[standing.rank - 1]! as unknown as Record<string, unknown>;
      const words = wordsOf(instance.scorer);
      const explanation = instance.scorer.explain(instance.state, community, player);
      const summary = explanation === undefined ? '' : words.summary({ scorer: instance.name, params: instance.params, standing, explanation, now: q.now });
      scores.push({
        scorer: instance.name,
        scorerId: instance.scorer.id,
        score: standing.score,
        rank: standing.rank,
        of: standing.of,
        percentile: standing.percentile,
        worseThan: worseThan(standing),
        direction: words.direction,
        good: words.good,
        bad: words.bad,
        ...(typeof row.band === 'string' ? { band: row.band } : {}),
        ...(typeof row.confidence === 'number' ? { confidence: row.confidence } : {}),
        summary,
      });
    });
    const alerts = openAlertsOf(await this.store.readAlerts({ community, player, newestFirst: true, limit: CASE_ALERT_READ }));
    const empty = record.sanctions.length + record.appeals.length + record.notes.length + record.verdicts.length === 0;
    if (scores.length === 0 && empty && alerts.length === 0) return undefined;
    const entry = q.byPlayer.get(player);
    const evidence = this.evidenceOf(community, player, q.now, false)
      .slice(0, CASE_EVIDENCE_LIMIT)
      .map(({ time, scorer, kind, text, other }) => ({ time, scorer, kind, text, ...(other === undefined ? {} : { other }) }));
    return {
      player,
      community,
      sequence: q.sequence,
      now: q.now,
      scores,
      ...(entry === undefined ? {} : { queue: { rank: entry.rank, attention: entry.attention, reasons: this.reasonsOf(community, q, entry) } }),
      record,
      alerts,
      evidence,
    };
  }

  private standingOf(q: CommunityQueue, s: number, player: string): Standing | undefined {
    const view = q.views[s]!;
    const row = view.rowOf(player);
    return row === undefined ? undefined : standingAt(view.rows, row.rank - 1, this.live.instances[s]!.scorer.rankOneIsWorst);
  }

  /** The dated evidence of every scorer that has some, newest first (`badOnly`: what the queue weighs). */
  private evidenceOf(community: string, player: string, now: number, badOnly: boolean): EvidenceItem[] {
    const out: EvidenceItem[] = [];
    for (const instance of this.live.instances) {
      if (!DATED.has(instance.scorer.id)) continue;
      const words = wordsOf(instance.scorer);
      const explanation = instance.scorer.explain(instance.state, community, player);
      if (explanation === undefined) continue;
      for (const item of words.evidence({ scorer: instance.name, params: instance.params, explanation, now })) if (!badOnly || item.bad) out.push(item);
    }
    return out.sort((a, b) => b.time - a.time || (a.scorer < b.scorer ? -1 : a.scorer > b.scorer ? 1 : 0));
  }

  /** A proposal with its rule's label, while the rule is configured. */
  private labelled(p: { rule: string; time: number }): { rule: string; label?: string; time: number } {
    const label = this.live.rules?.rules.list.find((r) => r.name === p.rule)?.label;
    return label === undefined ? { ...p } : { rule: p.rule, label, time: p.time };
  }

  /**
   * Why `entry` is in the queue: the rules proposing a look, each scorer whose tail it is in (deepest first) or that an open
   * alert is about, then the alerts, appeals, handling and sanctions.
   */
  private reasonsOf(community: string, q: CommunityQueue, entry: QueueEntry): string[] {
    const reasons: string[] = [];
    for (const p of entry.proposals) {
      const { label } = this.labelled(p);
      reasons.push(`rule ${p.rule}${label === undefined ? '' : ` (${label})`} proposes a look, ${ago(p.time, q.now)}`);
    }
    const tails = entry.scores
      .map((score, i) => ({ score, i }))
      .filter(({ score }) => score.tail > 0 || entry.alertScorers.includes(score.scorer))
      .sort((a, b) => b.score.tail - a.score.tail || a.i - b.i);
    for (const { score } of tails) {
      const s = this.live.instances.findIndex((i) => i.name === score.scorer);
      const instance = this.live.instances[s]!;
      const standing = this.standingOf(q, s, entry.player);
      const explanation = instance.scorer.explain(instance.state, community, entry.player);
      if (standing === undefined || explanation === undefined) continue;
      reasons.push(wordsOf(instance.scorer).reason({ scorer: instance.name, params: instance.params, standing, explanation, now: q.now }));
    }
    if (entry.openAlerts > 0) {
      const when = entry.alertRaised === undefined ? '' : ` (${entry.openAlerts === 1 ? 'raised' : 'the newest raised'} ${ago(entry.alertRaised, q.now)})`;
      reasons.push(`${count(entry.openAlerts, 'open alert')}${when}: ${entry.alertThresholds.join(', ')}`);
    }
    if (entry.openAppeals > 0) reasons.push(`${count(entry.openAppeals, 'open appeal')} waiting for a decision`);
    if (entry.handledAt !== undefined && entry.newEvidence) {
      const byRule = entry.handledByRule === undefined ? undefined : { ...entry.handledByRule, label: this.labelled({ rule: entry.handledByRule.rule, time: 0 }).label };
      reasons.push(handledText(entry.handledAt, q.now, this.evidenceOf(community, entry.player, q.now, true), entry.alertRaised, byRule));
    }
    if (entry.activeSanctions.length > 0) reasons.push(`active: ${entry.activeSanctions.join(', ')}`);
    const waiting = this.facts(community, entry.player, q.now).secondOpinion;
    if (waiting !== undefined) reasons.push(`${waiting.rule} proposed this case and ${waiting.dismissedBy.join(', ')} dismissed it: a second moderator must confirm the dismissal`);
    return reasons;
  }
}

/** Of a player's alerts (newest first), the last of each (scorer, threshold) when it is `raised`. */
export function openAlertsOf(alerts: readonly StoredAlert[]): StoredAlert[] {
  const seen = new Set<string>();
  const open: StoredAlert[] = [];
  for (const alert of alerts) {
    const key = `${alert.scorer}\u0000${alert.threshold}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (alert.kind === 'raised') open.push(alert);
  }
  return open;
}
