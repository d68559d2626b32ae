/**
 * GET /v1/team's answer from a community's team figures (./team.ts): waits in seconds with their
 * median, 90th percentile and buckets, the moderators and rules with the most decisions
 * (firings) first, and the queue's waits so far.
 */
import { quantile, totalDecisions, type CaseKind, type DecidedBy, type DecisionCounts } from '../moderation/team.js';
import type { TeamFiguresAnswer } from './schemas/team.js';
import { WAIT_BUCKETS_SECONDS } from './schemas/team.js';
import type { TeamSnapshot } from '../service/team.js';

const CASES: readonly CaseKind[] = ['player', 'appeal'];
const BY: readonly DecidedBy[] = ['moderator', 'rule'];
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How many of `waits` (ms) fall in each bucket of WAIT_BUCKETS_SECONDS, and above the last. */
export function bucketCounts(waits: readonly number[]): number[] {
  const counts = new Array<number>(WAIT_BUCKETS_SECONDS.length + 1).fill(0);
  for (const ms of waits) {
    const i = WAIT_BUCKETS_SECONDS.findIndex((bound) => ms / 1000 <= bound);
    counts[i < 0 ? WAIT_BUCKETS_SECONDS.length : i]!++;
  }
  return counts;
}

/** Median, 90th percentile and longest of `waits` (ms), in seconds; nothing for no wait. */
function spread(waits: readonly number[], fields: { median: string; p90?: string; max?: string }): Record<string, number> {
  if (waits.length === 0) return {};
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    [fields.median]: quantile(sorted, 0.5) / 1000,
    ...(fields.p90 === undefined ? {} : { [fields.p90]: quantile(sorted, 0.9) / 1000 }),
    ...(fields.max === undefined ? {} : { [fields.max]: sorted[sorted.length - 1]! / 1000 }),
  };
}

const counts = (d: DecisionCounts) => ({ total: totalDecisions(d), verdicts: d.verdicts, reportVerdicts: d.reportVerdicts, sanctions: d.sanctions, lifts: d.lifts, appealDecisions: d.appealDecisions });

export function teamAnswer({ community, sequence, now, team }: TeamSnapshot, limit: number): TeamFiguresAnswer {
  const moderators = [...team.moderators]
    .map(([moderator, t]) => {
      const { total, ...kinds } = counts(t);
      return {
        moderator,
        decisions: total,
        ...kinds,
        sanctionsAppealed: t.sanctionsAppealed,
        appealsGranted: t.appealsGranted,
        cases: t.waits.length,
        ...spread(t.waits, { median: 'medianWaitSeconds' }),
      };
    })
    .sort((a, b) => b.decisions - a.decisions || byName(a.moderator, b.moderator));
  const rules = [...team.rules]
    .map(([rule, t]) => {
      const firings = t.sanctions + t.proposals;
      return { rule, firings, sanctions: t.sanctions, proposals: t.proposals, overturned: t.overturned, ...(firings === 0 ? {} : { overturnRate: t.overturned / firings }) };
    })
    .sort((a, b) => b.firings - a.firings || byName(a.rule, b.rule));
  return {
    community,
    sequence,
    now,
    bucketsSeconds: [...WAIT_BUCKETS_SECONDS],
    decisions: counts(team.decisions),
    waits: CASES.flatMap((kind) =>
      BY.map((by) => {
        const waits = team.waits[kind][by];
        return { case: kind, by, count: waits.length, ...spread(waits, { median: 'medianSeconds', p90: 'p90Seconds', max: 'maxSeconds' }), buckets: bucketCounts(waits) };
      }),
    ),
    moderators: { total: moderators.length, rows: moderators.slice(0, limit) },
    rules: { total: rules.length, rows: rules.slice(0, limit) },
    queue: {
      length: team.queue.length,
      dated: team.queue.ages.length,
      ...spread(team.queue.ages, { median: 'medianSeconds', max: 'oldestSeconds' }),
      buckets: bucketCounts(team.queue.ages),
    },
  };
}
