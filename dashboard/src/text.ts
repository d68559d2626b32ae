/**
 * Texts that come from outside (player ids, reasons, notes, appeal texts, key labels, the
 * service's sentences that quote them) shown so that they cannot disguise themselves or the page
 * around them: every control, format and separator character that would act unseen (bidi
 * overrides and isolates, zero-width characters, invisible fillers, C0/C1 controls but tab and
 * newlines) is shown as a visible marker, `⟨U+202E⟩`. The element form isolates the text's
 * direction with <bdi> (components/UserText.tsx); the plain-text form, for attributes and
 * <option>s, wraps it in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE.
 */

/** Characters shown as markers: controls but tab, LF and CR; format characters; line and paragraph separators; the invisible Hangul fillers. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;
const SHOWN_CONTROLS = new Set(['\t', '\n', '\r']);
const ZWJ = '\u200D';
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_TAIL = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;

/** A piece of a text: plain characters, or one hidden character shown by its code point. */
export type TextPart = { readonly text: string } | { readonly hidden: string; readonly code: string };

/** The code point as people write it: U+202E, U+1F600. */
export function codeOf(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether `chars[i]` is a character that must be shown: a ZWJ inside an emoji sequence (👨‍👩‍👧) is not. */
function hiddenAt(chars: readonly string[], i: number): boolean {
  const char = chars[i]!;
  if (SHOWN_CONTROLS.has(char) || !HIDDEN.test(char)) return false;
  if (char !== ZWJ) return true;
  const before = chars[i - 1];
  const after = chars[i + 1];
  return !(before !== undefined && after !== undefined && EMOJI_TAIL.test(before) && PICTOGRAPH.test(after));
}

/** `text` cut into plain runs and hidden characters, in order; joining them gives `text` back. */
export function textParts(text: string): TextPart[] {
  const chars = [...text];
  const parts: TextPart[] = [];
  let run = '';
  chars.forEach((char, i) => {
    if (!hiddenAt(chars, i)) {
      run += char;
      return;
    }
    if (run !== '') parts.push({ text: run });
    run = '';
    parts.push({ hidden: char, code: codeOf(char) });
  });
  if (run !== '') parts.push({ text: run });
  return parts;
}

/** The marker a hidden character is shown as. */
export const marker = (code: string) => `⟨${code}⟩`;

/** `text` as plain text that cannot reorder what surrounds it: hidden characters as markers, the whole isolated (FSI … PDI). */
export function plainText(text: string): string {
  const shown = textParts(text)
    .map((part) => ('text' in part ? part.text : marker(part.code)))
    .join('');
  return `\u2068${shown}\u2069`;
}
