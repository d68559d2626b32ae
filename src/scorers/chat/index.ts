/** chat, reputation from chat: the scorer (scorer.ts), its words, explanation and defences. */
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
