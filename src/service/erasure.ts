/**
 * What erasing a player does to each stored event (docs/spec.md is silent; our choice, in
 * docs/service.md#erasure): events the player did or that are about the player — their actions,
 * disconnects, played counts, ratings and reports from or to them, the moderator events about
 * them (verdicts on them, verdicts on reports about them, notes, sanctions, appeals), chats they
 * sent — are removed; a chat they received loses them from `to` (removed when no receiver is
 * left); a match loses them from `players` and `bots` (removed when fewer than two players are
 * left).
 *
 * A verdict on the player's own reports about someone else (named by `from` and `to`, or by the
 * id of a report the erasure removes: the store passes that report, see EventStore.erase) is a
 * decision about that other player: the audit log keeps it, without the reporter. It loses `from`
 * and `report` and gains `reporterErased: true`, keeping `to` (the reported player), its outcome,
 * reason, moderator, time and id; it judges no report (the reports it judged are gone). Extra
 * fields of other players' events are kept as they are.
 */
import type { ReportEvent, StandingEvent, VerdictEvent } from '../events/types.js';
import type { EventRewrite } from '../store/types.js';

/** The verdict on the reports of an erased reporter about `to`, as the audit log keeps it. */
function withoutReporter(verdict: VerdictEvent, to: string): VerdictEvent {
  const { from: _from, report: _report, ...kept } = verdict;
  return { ...kept, to, reporterErased: true };
}

/** What erasing `player` does to a verdict (given the removed report it names by `report`, if any). */
function verdictRewrite(player: string, event: VerdictEvent, report: ReportEvent | undefined): StandingEvent | null | undefined {
  if (event.player === player || event.to === player) return null;
  if (event.from === player) return withoutReporter(event, event.to!);
  if (report === undefined) return undefined;
  return report.to === player ? null : withoutReporter(event, report.to);
}

export function eraseRewrite(player: string): EventRewrite {
  return (event: StandingEvent, removedReport?: ReportEvent): StandingEvent | null | undefined => {
    switch (event.type) {
      case 'action':
      case 'disconnect':
      case 'played':
        return event.player === player ? null : undefined;
      case 'rating':
      case 'report':
        return event.from === player || event.to === player ? null : undefined;
      case 'verdict':
        return verdictRewrite(player, event, removedReport);
      case 'note':
      case 'sanction':
      case 'appeal':
        return event.player === player ? null : undefined;
      case 'rule':
        return undefined; // a rule's state names no player
      case 'chat': {
        if (event.from === player) return null;
        if (!event.to.includes(player)) return undefined;
        const to = event.to.filter((p) => p !== player);
        return to.length === 0 ? null : { ...event, to };
      }
      case 'match.start': {
        const bots = event.bots ?? [];
        if (!event.players.includes(player) && !bots.includes(player)) return undefined;
        const players = event.players.filter((p) => p !== player);
        if (players.length < 2) return null;
        return event.bots === undefined ? { ...event, players } : { ...event, players, bots: bots.filter((p) => p !== player) };
      }
      default:
        return undefined;
    }
  };
}
