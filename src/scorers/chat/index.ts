/**
 * `chat`, reputation from chat: everything standing knows about it is in this folder. The maths,
 * citing the paper: formula.ts. The scorer: scorer.ts, over its state (community.ts), with its
 * parameters and recommended defences in params.ts. Its words for moderators: words.ts; `standing
 * explain`: explain-text.ts. This file is its module, the registry's entry (../module.ts says what
 * each part is for). The user's page: docs/chat.md. Tests: test/unit/chat/ (chat.test.ts:
 * hand-computed cases; formula.test.ts: the scorer against formula.ts). Bench:
 * bench/reliability-and-chat.ts.
 */
import { PUBLISHED, type ScorerModule } from '../module.js';
import { chatExplainText } from './explain-text.js';
import { RECOMMENDED_CHAT_DEFENCES, type ChatParams } from './params.js';
import { chat } from './scorer.js';
import { chatWords } from './words.js';

export const chatModule: ScorerModule = {
  scorer: chat,
  words: chatWords,
  // The floor is repMin (0.1 by default): the worst chatter shows an empty bar, not a half-full one.
  bar: (p: ChatParams) => ({ kind: 'floor', floor: p.repMin, ceiling: p.repMax }),
  rowFields: {
    sent: { type: 'number', minimum: 0, description: 'chat: messages sent, a message to M receivers counting M' },
    received: { type: 'number', minimum: 0, description: 'chat: messages received' },
  },
  explainText: chatExplainText,
  defences: [PUBLISHED, { name: 'recommended', params: RECOMMENDED_CHAT_DEFENCES }],
};
