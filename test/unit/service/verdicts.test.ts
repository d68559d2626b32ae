/** The service's rules for verdict events: erasure and addressable player ids. */
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/events/validate.js';
import { unaddressablePlayer } from '../../../src/events/batch.js';
import { eraseRewrite } from '../../../src/service/erasure.js';

const verdict = (fields: Record<string, unknown>) => validateEvent({ type: 'verdict', time: 0, on: 'report', outcome: 'dismissed', ...fields });

describe('verdicts in the service', () => {
  it('erasing a player removes the verdicts naming it by from or to, and leaves those naming a report by id to the store (removed with their report)', () => {
    const erase = eraseRewrite('a');
    expect(erase(verdict({ from: 'a', to: 'b' }))).toBeNull();
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
