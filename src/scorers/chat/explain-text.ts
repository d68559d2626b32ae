/** `standing explain chat`: a player's reputation, messages, and sender list with each sender's weight now. */
import { describeParams } from '../../params/format.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import type { ExplainText } from '../module.js';
import type { ChatExplanation } from './scorer.js';

export const chatExplainText: ExplainText<ChatExplanation> = {
  nothing: 'chat messages',
  describe(e) {
    const table = renderTable(
      [{ title: 'position', align: 'right' }, { title: 'sender' }, { title: 'β of its next message', align: 'right' }],
      e.senders.map((s, i) => [String(i + 1), s.player, formatNumber(s.beta)]),
    );
    return {
      json: e,
      text: [
        `chat  ${describeParams(e.params)}  player ${e.player}  community ${e.community}`,
        `reputation ${formatNumber(e.score)}; received ${e.received} messages, sent ${e.sent}. A sender not in the list brings β = γ0 = ${e.params.gamma0}.`,
        '',
        e.senders.length === 0 ? '(no senders yet)' : table,
      ].join('\n'),
    };
  },
};
