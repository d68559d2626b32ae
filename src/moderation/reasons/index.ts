/** Each scorer's words, by scorer id; a scorer of one's own gets plain generic words. */
import { num, worstPlace } from '../words.js';
import { chatWords } from './chat.js';
import { cqrWords } from './cqr.js';
import { reliabilityWords } from './reliability.js';
import { reportsWords } from './reports.js';
import { trustWords } from './trust.js';
import type { ScorerWords } from './types.js';

export type { EvidenceItem, ScorerWords, WordsInput } from './types.js';

const WORDS: Readonly<Record<string, ScorerWords>> = { reliability: reliabilityWords, reports: reportsWords, trust: trustWords, cqr: cqrWords, chat: chatWords };

function genericWords(id: string, rankOneIsWorst: boolean): ScorerWords {
  const direction = rankOneIsWorst ? 'higher is worse' : 'higher is better';
  return {
    direction,
    good: rankOneIsWorst ? 'a low score' : 'a high score',
    bad: rankOneIsWorst ? 'a high score' : 'a low score',
    reason: (i) => `${id} ${num(i.standing.score)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`,
    summary: (i) => `${id} ${num(i.standing.score)} (${worstPlace(i.standing.worstFirst, i.standing.of)}; ${direction}).`,
    evidence: () => [],
  };
}

export function wordsFor(scorerId: string, rankOneIsWorst: boolean): ScorerWords {
  return WORDS[scorerId] ?? genericWords(scorerId, rankOneIsWorst);
}
