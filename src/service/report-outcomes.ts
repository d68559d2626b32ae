/**
 * What came of the reports a player filed (docs/moderation.md#what-reporters-learn): per report,
 * `acted` (a moderator upheld it, or acted on the reported player after it: an upheld verdict or
 * a sanction), `not acted` (it, or the reported player, was dismissed after it, and nothing acted
 * on), or `pending`. A verdict on the report itself decides (the latest, by id, or by reporter and
 * reported player after it); else the decisions on the reported player after the report. Never
 * which sanction, nor why: the reported player's record stays theirs.
 */
import type { Decisions } from '../moderation/book.js';
import type { ReportEvent } from '../events/types.js';
import type { ReporterIndex, StoredEvent } from '../store/types.js';

export type Outcome = 'acted' | 'not acted' | 'pending';

export interface ReportOutcome {
  /** The report's event id (absent for a report stored without one). */
  readonly id?: string;
  /** The reported player. */
  readonly about: string;
  /** The report's event time (epoch ms). */
  readonly time: number;
  readonly outcome: Outcome;
}

export interface ReportOutcomes {
  readonly reporter: string;
  readonly community: string;
  readonly reports: ReportOutcome[];
  /** Pass as `before` for the next (older) page; absent on the last. */
  readonly next?: number;
}

/** The outcome of one stored report, from the reported player's decisions. */
export function outcomeOf(report: StoredEvent, decisions: Decisions): Outcome {
  const event = report.event as ReportEvent;
  let onReport: Outcome | undefined;
  let onPlayer: Outcome = 'pending';
  for (const { sequence, view } of decisions.verdicts) {
    if (view.on === 'report') {
      const named = view.report !== undefined ? view.report === event.id : view.from === event.from && sequence > report.sequence;
      if (named) onReport = view.outcome === 'upheld' ? 'acted' : 'not acted';
    } else if (sequence > report.sequence) {
      if (view.outcome === 'upheld') onPlayer = 'acted';
      else if (onPlayer === 'pending') onPlayer = 'not acted';
    }
  }
  if (onReport !== undefined) return onReport;
  if (decisions.sanctions.some((s) => s.sequence > report.sequence)) return 'acted';
  return onPlayer;
}

/** A page of `reporter`'s reports in `community`, newest first, each with its outcome. */
export async function reportOutcomes(
  store: ReporterIndex,
  book: { decisions(community: string, player: string): Decisions },
  community: string,
  reporter: string,
  limit: number,
  before?: number,
): Promise<ReportOutcomes> {
  const page = await store.reportsBy(community, reporter, limit + 1, before);
  const shown = page.slice(0, limit);
  const reports = shown.map((stored): ReportOutcome => {
    const event = stored.event as ReportEvent;
    return { ...(event.id === undefined ? {} : { id: event.id }), about: event.to, time: event.time, outcome: outcomeOf(stored, book.decisions(community, event.to)) };
  });
  return page.length > limit ? { reporter, community, reports, next: shown[shown.length - 1]!.sequence } : { reporter, community, reports };
}
