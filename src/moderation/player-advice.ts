/**
 * What a player can do about where they stand under one scorer, in words for the player
 * (docs/moderation.md#the-player-view): how the score moves, never who moved it. The five scorers
 * standing ships have their own; any other scorer a sentence built from its words alone.
 */
import { num } from '../util/words.js';

/** The advice for a player in the bad tail of scorer `id`, its instance's parameters given. */
export function adviceFor(id: string, params: Readonly<Record<string, unknown>>, bad: string): string {
  switch (id) {
    case 'cqr':
      return 'Act in ways that help the community: this score adds up how your last actions changed it, so each helpful action pushes an old harmful one out.';
    case 'reliability': {
      const days = typeof params.keepDays === 'number' ? ` Matches older than ${num(params.keepDays)} days stop counting.` : '';
      return `Finish the matches you start: leaving matches, above all ones you are losing, lowers this score, and every match played through raises it.${days}`;
    }
    case 'chat':
      return 'Write to others less and be written to more: this score rises as more players, reputable ones among them, write to you, and stays at its floor while you send many messages few answer.';
    case 'reports':
      return 'Play so that nobody has cause to report you: reports from players whose reports prove right raise this score, and it falls as they stop.';
    case 'trust':
      return 'Earn good ratings from trusted players: ratings age and weigh less over time, so new good ratings outweigh old bad ones.';
    default:
      return `This score counts against you when it is ${bad}.`;
  }
}
