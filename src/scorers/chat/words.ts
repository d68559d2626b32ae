/** Chat in words: how much, and from how many players, the player is written to. */
import type { ChatExplanation } from './scorer.js';
import type { ChatParams } from './params.js';
import { count, num, worstPlace } from '../../util/words.js';
import type { ScorerWords, WordsInput } from '../words.js';

type Input = WordsInput<ChatExplanation, ChatParams>;

function floorText(i: Input): string {
  return i.explanation.score <= i.params.repMin ? ', the lowest possible' : '';
}

/**
 * What is wrong, in the method's terms: the score grows with the messages others write to the
 * player and decays with every `N` the player sends, so a low score is someone few write to,
 * and more so someone who sends far more than they receive.
 */
export function talkText(i: Pick<Input, 'explanation' | 'params'>): string {
  const { sent, received } = i.explanation;
  if (sent >= 2 * received && sent > 0) {
    const decay = sent >= i.params.N ? `, and every ${num(i.params.N)} they send lowers the score` : '';
    return `sent ${count(sent, 'message')}, received ${num(received)}: talks far more than others write to them${decay}`;
  }
  return `received ${count(received, 'message')}, sent ${num(sent)}: few players write to them`;
}

export const chatWords: ScorerWords<ChatExplanation, ChatParams> = {
  direction: 'higher is better',
  good: 'close to the cap (1): many players, reputable ones among them, write to the player',
  bad: 'at the floor (0.1): few players write to them, while they keep sending',
  reason(i) {
    return `${talkText(i)} — chat ${num(i.explanation.score)}${floorText(i)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const recent = e.senders.length === 0 ? 'nobody has written to them' : `recent senders: ${e.senders.map((s) => s.player).join(', ')}`;
    return `Chat reputation ${num(e.score)}${floorText(i)} (${worstPlace(i.standing.worstFirst, i.standing.of)}; floor ${num(i.params.repMin)}, cap ${num(i.params.repMax)}): received ${count(e.received, 'message')}, sent ${num(e.sent)}; ${recent}.`;
  },
  evidence() {
    return []; // chat's explanation carries no dates
  },
};
