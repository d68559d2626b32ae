/** `standing explain chat`: a player's reputation, messages, and sender list with each sender's weight now. */
import type { ChatExplanation } from '../../scorers/chat/scorer.js';
import { formatNumber, renderTable } from '../format/table.js';
import { load } from '../load.js';
import { describeParams } from '../format/params.js';
import type { Explained, ExplainRequest } from './request.js';
import { unknownPlayer } from './request.js';

export async function explainChat(request: ExplainRequest): Promise<Explained> {
  const { instances } = await load({ scorer: request.scorer, set: request.set, file: request.file, qualityFile: request.qualityFile, now: request.now });
  const e = request.scorer.explain(instances[0]!.state, request.community, request.player) as ChatExplanation | undefined;
  if (e === undefined) throw unknownPlayer(request, 'chat messages');
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
}
