/**
 * The team figures on the live service (docs/moderation.md#team-figures): ../moderation/team.ts
 * over the moderation book, the reports the first `reports` scorer instance keeps, and the
 * attention queue.
 *
 * GET /v1/team reads one community's figures, its queue computed as the queue route computes it.
 * /metrics (../http/team-metrics.ts) reads every community's record figures, and the queue
 * figures of the queues the service holds (computed for a read, at most the queue cache's 1,000
 * communities): a scrape never computes a queue, whose rankings would push the ranking views
 * moderators read out of their cache. Each part is kept until what it is made of changes: the
 * record figures until the community's log or record does, the queue figures until the queue does.
 */
import type { ModerationBook } from '../moderation/book.js';
import { queueTeam, recordTeam, type CommunityTeam, type QueueTeam, type RecordTeam } from '../moderation/team.js';
import type { ReportsExplanation } from '../scorers/reports/scorer.js';
import type { AttentionQueue } from './attention.js';
import type { LiveEngine } from './live-engine.js';

export interface TeamSnapshot {
  readonly community: string;
  /** The community's sequence the figures reflect. */
  readonly sequence: number;
  /** The community's clock (event time, epoch ms) the queue's waits count to. */
  readonly now: number;
  readonly team: CommunityTeam;
}

type QueueSnapshot = ReturnType<AttentionQueue['snapshot']>;

export class TeamFigures {
  private readonly records = new Map<string, { readonly key: string; readonly team: RecordTeam }>();
  private readonly queues = new Map<string, { readonly key: string; readonly team: QueueTeam }>();

  constructor(
    private readonly live: Pick<LiveEngine, 'instances' | 'sequence' | 'communities'>,
    private readonly book: Pick<ModerationBook, 'teamRecords' | 'teamRecord' | 'version'>,
    private readonly queue: Pick<AttentionQueue, 'snapshot' | 'held'>,
  ) {}

  /** The figures of `community`, its queue computed (or reused) as GET /v1/queue would. */
  of(community: string): TeamSnapshot {
    const queue = this.queue.snapshot(community);
    return { community, sequence: queue.sequence, now: queue.now, team: { ...this.record(community), queue: this.queued(community, queue) } };
  }

  /** What /metrics sums: every community's record figures, and the queue figures of each queue the service holds. */
  metrics(): { readonly records: readonly RecordTeam[]; readonly queues: readonly QueueTeam[] } {
    const communities = this.live.communities();
    const present = new Set(communities);
    for (const community of this.records.keys()) if (!present.has(community)) this.records.delete(community);
    const held = this.queue.held();
    const holding = new Set(held.map((q) => q.community));
    for (const community of this.queues.keys()) if (!holding.has(community)) this.queues.delete(community);
    return { records: communities.map((c) => this.record(c)), queues: held.map((q) => this.queued(q.community, q)) };
  }

  /** Forgets what was kept of `community` (after an erasure). */
  forget(community: string): void {
    this.records.delete(community);
    this.queues.delete(community);
  }

  private record(community: string): RecordTeam {
    const key = `${this.live.sequence(community)}/${this.book.version(community)}`;
    const kept = this.records.get(community);
    if (kept !== undefined && kept.key === key) return kept.team;
    const team = recordTeam(this.book.teamRecords(community), this.reportTimes(community));
    this.records.set(community, { key, team });
    return team;
  }

  private queued(community: string, queue: Pick<QueueSnapshot, 'key' | 'now' | 'entries'>): QueueTeam {
    const kept = this.queues.get(community);
    if (kept !== undefined && kept.key === queue.key) return kept.team;
    const team = queueTeam(queue.entries, (player) => this.book.teamRecord(community, player), this.reportTimes(community), queue.now);
    this.queues.set(community, { key: queue.key, team });
    return team;
  }

  /** The event times of the reports a player of `community` received, as the first `reports` instance keeps them (none without one). */
  private reportTimes(community: string): (player: string) => readonly number[] {
    const reports = this.live.instances.find((i) => i.scorer.id === 'reports');
    return (player) => {
      if (reports === undefined) return [];
      const explanation = reports.scorer.explain(reports.state, community, player) as ReportsExplanation | undefined;
      return explanation?.reportedBy.map((r) => r.time) ?? [];
    };
  }
}
