/** The service's rules for verdict events: erasure and addressable player ids. */
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/events/validate.js';
import { unaddressablePlayer } from '../../../src/events/batch.js';
import { eraseRewrite } from '../../../src/service/erasure.js';
import type { ReportEvent } from '../../../src/events/types.js';

const verdict = (fields: Record<string, unknown>) => validateEvent({ type: 'verdict', time: 0, on: 'report', outcome: 'dismissed', ...fields });

describe('verdicts in the service', () => {
  it('erasing a player removes the verdicts on reports about it, and leaves those naming a report by id as they are until the store hands over that report', () => {
    const erase = eraseRewrite('a');
    expect(erase(verdict({ from: 'b', to: 'a' }))).toBeNull();
    expect(erase(verdict({ from: 'b', to: 'c' }))).toBeUndefined();
    expect(erase(verdict({ report: 'r1' }))).toBeUndefined();
  });

  it('refuses "." and ".." as the players a verdict names', () => {
    expect(unaddressablePlayer(verdict({ from: '.', to: 'b' }))?.[0]).toBe('from');
    expect(unaddressablePlayer(verdict({ from: 'a', to: '..' }))?.[0]).toBe('to');
    expect(unaddressablePlayer(verdict({ report: '.' }))).toBeUndefined();
  });
});

describe('issue 17: moderator events in the service', () => {
  const event = (fields: Record<string, unknown>) => validateEvent({ time: 0, ...fields });
  it('erasing a player removes the verdicts on them, their notes, sanctions and appeals, and no one else\'s', () => {
    const erase = eraseRewrite('a');
    expect(erase(event({ type: 'verdict', on: 'player', player: 'a', outcome: 'upheld' }))).toBeNull();
    expect(erase(event({ type: 'note', player: 'a', text: 'x' }))).toBeNull();
    expect(erase(event({ type: 'sanction', player: 'a', action: 'ban', reason: 'r' }))).toBeNull();
    expect(erase(event({ type: 'appeal', player: 'a', status: 'opened' }))).toBeNull();
    expect(erase(event({ type: 'note', player: 'b', text: 'about a', moderator: 'a' }))).toBeUndefined();
    expect(erase(event({ type: 'verdict', on: 'player', player: 'b', outcome: 'upheld' }))).toBeUndefined();
  });

  it('refuses "." and ".." as the player a moderator event is about', () => {
    expect(unaddressablePlayer(event({ type: 'note', player: '..', text: 'x' }))?.[0]).toBe('player');
    expect(unaddressablePlayer(event({ type: 'verdict', on: 'player', player: '.', outcome: 'upheld' }))?.[0]).toBe('player');
  });
});

describe('issue 28: erasing a reporter keeps the verdicts about another player, without the reporter', () => {
  const erase = eraseRewrite('a');
  const report = (from: string, to: string) => validateEvent({ type: 'report', time: 0, id: 'r1', from, to }) as ReportEvent;

  it('keeps a verdict on the reports of the erased player about b (named by from and to) with to, reporterErased, outcome, reason, moderator, id and time; it validates', () => {
    const kept = erase(verdict({ id: 'v1', from: 'a', to: 'b', reason: 'spam reports', moderator: 'mia', moderatorKey: 'k1', extra: 1 }));
    expect(kept).toEqual({ type: 'verdict', time: 0, community: 'default', id: 'v1', on: 'report', outcome: 'dismissed', to: 'b', reporterErased: true, reason: 'spam reports', moderator: 'mia', moderatorKey: 'k1', extra: 1 });
    expect(validateEvent(structuredClone(kept))).toEqual(kept);
    expect(erase(kept!)).toBeUndefined(); // erasing again changes nothing
  });

  it('keeps a verdict naming a removed report of the erased player about b by id, naming b instead; removes one on a report about the erased player', () => {
    expect(erase(verdict({ report: 'r1', reason: 'r' }), report('a', 'b'))).toEqual({ type: 'verdict', time: 0, community: 'default', on: 'report', outcome: 'dismissed', to: 'b', reporterErased: true, reason: 'r' });
    expect(erase(verdict({ report: 'r1' }), report('b', 'a'))).toBeNull();
  });

  it('a verdict marked reporterErased names only to, and only on a report', () => {
    expect(() => verdict({ reporterErased: true })).toThrow(/"to" is required with "reporterErased"/);
    expect(() => verdict({ reporterErased: true, to: 'b', from: 'c' })).toThrow(/field "from" names the reporter/);
    expect(() => verdict({ reporterErased: true, report: 'r1' })).toThrow(/field "report" names the reporter/);
    expect(() => verdict({ reporterErased: false, to: 'b', from: 'c' })).toThrow(/field "reporterErased" must be true/);
    expect(() => validateEvent({ type: 'verdict', time: 0, on: 'player', player: 'b', outcome: 'upheld', reporterErased: true })).toThrow(/field "reporterErased" names a report/);
  });
});
