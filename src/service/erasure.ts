/**
 * What erasing a player does to each stored event (docs/spec.md is silent; our choice, in the README):
 * events the player did or that are about the player — their actions, disconnects, played
 * counts, ratings and reports from or to them, verdicts on reports from or to them (named by
 * `from` and `to` here; a verdict naming a removed report by `report` is removed by the store,
 * see EventStore.erase), the moderator events about them (verdicts on them, notes, sanctions,
 * appeals), chats they sent — are removed; a chat they
 * received loses them from `to` (removed when no receiver is left); a match loses them from
 * `players` and `bots` (removed when fewer than two players are left). Extra fields of other
 * players' events are kept as they are.
 */
import type { StandingEvent } from '../events/types.js';
import type { EventRewrite } from '../store/types.js';

export function eraseRewrite(player: string): EventRewrite {
  return (event: StandingEvent): StandingEvent | null | undefined => {
    switch (event.type) {
      case 'action':
      case 'disconnect':
      case 'played':
        return event.player === player ? null : undefined;
      case 'rating':
      case 'report':
        return event.from === player || event.to === player ? null : undefined;
      case 'verdict':
        return event.from === player || event.to === player || event.player === player ? null : undefined;
      case 'note':
      case 'sanction':
      case 'appeal':
        return event.player === player ? null : undefined;
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
