/**
 * What came after a moderator handled a player, in words: "handled 2 days ago; new since: 3
 * reports, 1 drop" (docs/moderation.md#handled-and-new-evidence). Pure: the player's bad dated
 * evidence and the raising of their newest open alert come in.
 */
import type { EvidenceItem } from '../scorers/words.js';
import { ago, count } from '../util/words.js';

/** How each kind of bad evidence is counted in words, in the order the line lists them. */
const NOUNS: readonly (readonly [kind: string, singular: string, plural?: string])[] = [
  ['report', 'report'],
  ['drop', 'drop'],
  ['rating', 'negative rating'],
];

/** The bad items dated after `handledAt`. */
export function newSince(items: readonly EvidenceItem[], handledAt: number): EvidenceItem[] {
  return items.filter((item) => item.bad && item.time > handledAt);
}

/** What a rule's sanction did, in the handling line: "muted by rule leaves-matches (Leaves matches)". */
const DONE: Readonly<Record<string, string>> = { warn: 'warned', mute: 'muted', suspend: 'suspended', ban: 'banned' };

/**
 * The handling line of a queue row: when the player was handled (by whom, when a rule's sanction
 * did it: `byRule`, with its label while configured) and, per kind, the bad evidence dated after
 * it; an open alert raised after it (`alertRaised`, event time) counts too.
 */
export function handledText(
  handledAt: number,
  now: number,
  items: readonly EvidenceItem[],
  alertRaised: number | undefined,
  byRule?: { readonly rule: string; readonly action: string; readonly label?: string | undefined },
): string {
  const fresh = newSince(items, handledAt);
  const parts: string[] = [];
  for (const [kind, singular, plural] of NOUNS) {
    const n = fresh.filter((item) => item.kind === kind).length;
    if (n > 0) parts.push(count(n, singular, plural));
  }
  const other = fresh.filter((item) => !NOUNS.some(([kind]) => kind === item.kind)).length;
  if (other > 0) parts.push(count(other, 'other piece', 'other pieces'));
  if (alertRaised !== undefined && alertRaised > handledAt) parts.push('an alert raised');
  const since = parts.length === 0 ? 'new evidence since' : `new since: ${parts.join(', ')}`;
  const who = byRule === undefined ? 'handled' : `${DONE[byRule.action] ?? byRule.action} by rule ${byRule.rule}${byRule.label === undefined ? '' : ` (${byRule.label})`}`;
  return `${who} ${ago(handledAt, now)}; ${since}`;
}
