/**
 * The team figures on the live service (docs/moderation.md#team-figures): ../moderation/team.ts
 * over the moderation book, the reports the first `reports` scorer instance keeps, and the
 * attention queue. A community's figures are computed when asked and kept until its log, its
 * moderation record or its queue changes; GET /v1/team reads one community's, /metrics every
 * community's (../http/team-metrics.ts).
 */
import type { ModerationBook } from '../moderation/book.js';
import { communityTeam, type CommunityTeam } from '../moderation/team.js';
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

export class TeamFigures {
  private readonly kept = new Map<string, { readonly key: string; readonly snapshot: TeamSnapshot }>();

  constructor(
    private readonly live: Pick<LiveEngine, 'instances' | 'sequence' | 'communities'>,
    private readonly book: Pick<ModerationBook, 'teamRecords' | 'version'>,
    private readonly queue: Pick<AttentionQueue, 'snapshot'>,
  ) {}

  /** The figures of `community`, computed or reused. */
  of(community: string): TeamSnapshot {
    const queue = this.queue.snapshot(community);
    const key = `${this.live.sequence(community)}/${this.book.version(community)}/${queue.key}`;
    const kept = this.kept.get(community);
    if (kept !== undefined && kept.key === key) return kept.snapshot;
    const reports = this.live.instances.find((i) => i.scorer.id === 'reports');
    const team = communityTeam({
      players: this.book.teamRecords(community),
      reportTimes: (player) => {
        if (reports === undefined) return [];
        const explanation = reports.scorer.explain(reports.state, community, player) as ReportsExplanation | undefined;
        return explanation?.reportedBy.map((r) => r.time) ?? [];
      },
      queue: queue.entries,
      now: queue.now,
    });
    const snapshot: TeamSnapshot = { community, sequence: queue.sequence, now: queue.now, team };
    this.kept.set(community, { key, snapshot });
    return snapshot;
  }

  /** The figures of every community with events. */
  all(): TeamSnapshot[] {
    const communities = new Set(this.live.communities());
    for (const community of this.kept.keys()) if (!communities.has(community)) this.kept.delete(community);
    return [...communities].map((community) => this.of(community));
  }

  /** Forgets what was kept of `community` (after an erasure). */
  forget(community: string): void {
    this.kept.delete(community);
  }
}
