/**
 * issue 28: texts from outside as the dashboard shows them (dashboard/src/text.ts): every hidden
 * control, format or separator character becomes a visible marker, nothing else changes, and the
 * plain-text form is isolated so it cannot reorder what surrounds it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, plainText, textParts } from '../../dashboard/src/text.js';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;
const shown = (text: string) => textParts(text).map((p) => ('text' in p ? p.text : `⟨${p.code}⟩`)).join('');

describe('issue 28: texts from outside, shown safely', () => {
  it('shows bidi overrides, zero-width and control characters as their code points', () => {
    expect(shown('adm\u202Enimda\u202C')).toBe('adm⟨U+202E⟩nimda⟨U+202C⟩');
    expect(shown('a\u200Bb\u2066c\u2069\u0007d\u0085e\u2028f\uFEFF')).toBe('a⟨U+200B⟩b⟨U+2066⟩c⟨U+2069⟩⟨U+0007⟩d⟨U+0085⟩e⟨U+2028⟩f⟨U+FEFF⟩');
    expect(shown('\u3164')).toBe('⟨U+3164⟩'); // an invisible "name"
    expect(shown('tag\u{E0041}')).toBe('tag⟨U+E0041⟩');
    expect(codeOf('\u{1F600}')).toBe('U+1F600');
  });

  it('leaves tabs, newlines, right-to-left letters and emoji joined by ZWJ as they are', () => {
    for (const text of ['two\nlines\tand a tab', 'مرحبا שלום', '👨‍👩‍👧 family', '❤️‍🔥', '👍🏽']) expect(shown(text)).toBe(text);
    // A ZWJ that joins no emoji is shown.
    expect(shown('a\u200Db')).toBe('a⟨U+200D⟩b');
  });

  it('the plain form is isolated (FSI … PDI) and holds no hidden character of the text', () => {
    expect(plainText('adm\u202Enimda')).toBe('\u2068adm⟨U+202E⟩nimda\u2069');
  });

  it('property: joining the parts gives the text back; no plain part holds a hidden character but tab, newlines and emoji ZWJs', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (a, b) => {
        const text = a + b;
        const parts = textParts(text);
        expect(parts.map((p) => ('text' in p ? p.text : p.hidden)).join('')).toBe(text);
        for (const part of parts) {
          if ('hidden' in part) expect(HIDDEN.test(part.hidden)).toBe(true);
          else for (const char of part.text.replace(/\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?\u200D(?=\p{Extended_Pictographic})/gu, '')) expect(HIDDEN.test(char) && !'\t\n\r'.includes(char)).toBe(false);
        }
      }),
      { seed: 28 },
    );
  });
});
