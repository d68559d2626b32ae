/** Table 3–4 correspondence score, quartiles, ROC AUC and the labels file. */
import { describe, expect, it } from 'vitest';
import { correspondenceScore, LabelsError, parseLabels, quartileOf, rocAuc, type Label } from '../../src/index.js';

const ranked = (players: string[], scores?: number[]) =>
  players.map((player, i) => ({ player, rank: i + 1, score: scores?.[i] ?? players.length - i }));

describe('quartiles', () => {
  it('cuts 20 ranks into 1–5, 6–10, 11–15, 16–20', () => {
    expect([1, 5, 6, 10, 11, 15, 16, 20].map((r) => quartileOf(r, 20))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
  it('cuts a count not divisible by 4 by ⌊(rank − 1)·4/n⌋', () => {
    // n = 6: (r−1)·4/6 → 0, 0.67, 1.33, 2, 2.67, 3.33
    expect([1, 2, 3, 4, 5, 6].map((r) => quartileOf(r, 6))).toEqual([0, 0, 1, 2, 2, 3]);
  });
});

describe('correspondence score (paper Tables 3–4)', () => {
  it('adds each labelled player’s cell', () => {
    // 4 players, one per quartile: F in I (6), f in II (6), d in III (6), D in IV (6) = 24
    const labels = new Map<string, Label>([['a', 'F'], ['b', 'f'], ['c', 'd'], ['d', 'D']]);
    expect(correspondenceScore(ranked(['a', 'b', 'c', 'd']), labels)).toBe(24);
    // reversed: D in I (−25), d in II (−4), f in III (−4), F in IV (−25) = −58
    expect(correspondenceScore(ranked(['d', 'c', 'b', 'a']), labels)).toBe(-58);
  });
  it('is undefined (null) for two-class labels', () => {
    expect(correspondenceScore(ranked(['a', 'b']), new Map<string, Label>([['a', 'fair'], ['b', 'disruptive']]))).toBeNull();
  });
});

describe('ROC AUC', () => {
  const labels = new Map<string, Label>([['a', 'F'], ['b', 'fair'], ['c', 'D'], ['d', 'disruptive']]);
  it('is 1 when every fair player scores above every disruptive one, 0 when below', () => {
    expect(rocAuc(ranked(['a', 'b', 'c', 'd']), labels)).toBe(1);
    expect(rocAuc(ranked(['c', 'd', 'a', 'b']), labels)).toBe(0);
  });
  it('counts ties one half', () => {
    // fair scores {2, 1}, disruptive {2, 0}: pairs (2>0) (2=2 → ½) (1>0) (1<2) → 2.5 / 4
    expect(rocAuc(ranked(['a', 'c', 'b', 'd'], [2, 2, 1, 0]), labels)).toBe(0.625);
  });
  it('is null without both kinds', () => {
    expect(rocAuc(ranked(['a', 'b']), labels)).toBeNull();
  });
});

describe('labels file', () => {
  it('reads player,class with a header, comments and blank lines', () => {
    expect([...parseLabels('player,class\n# note\nF1,F\n\nd3, d\nx,fair\n', 'l.csv')]).toEqual([
      ['F1', 'F'],
      ['d3', 'd'],
      ['x', 'fair'],
    ]);
  });
  const bad: [string, RegExp][] = [
    ['player,class\nF1,Q\n', /l\.csv line 2: class "Q" is not one of/],
    ['F1\n', /l\.csv line 1: expected "player,class"/],
    ['F1,F\nF1,f\n', /l\.csv line 2: player "F1" is labelled twice/],
    ['player,class\n', /no labelled players/],
  ];
  it.each(bad)('rejects %j', (text, message) => {
    expect(() => parseLabels(text, 'l.csv')).toThrow(LabelsError);
    expect(() => parseLabels(text, 'l.csv')).toThrow(message);
  });

  it('issue 26: reads quoted player ids holding commas and quotes, and names the line of text that is not CSV', () => {
    expect([...parseLabels('player,class\r\n"smith, j",F\r\n"the ""ace""", D\r\n', 'l.csv')]).toEqual([
      ['smith, j', 'F'],
      ['the "ace"', 'D'],
    ]);
    expect(() => parseLabels('player,class\nF1,F\n"F2,F\n', 'l.csv')).toThrow(LabelsError);
    expect(() => parseLabels('player,class\nF1,F\n"F2,F\n', 'l.csv')).toThrow(/^l\.csv line 3: is not valid CSV: Quote Not Closed/);
  });
});
