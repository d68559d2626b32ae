/** docs/spec.md §1: every event type accepted in its valid form, and every bad-input path named. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, EventValidationError, parseEventLine, validateEvent } from '../../../src/index.js';

const T = '2024-05-01T18:00:00Z';
const MS = Date.UTC(2024, 4, 1, 18);

const valid: Record<(typeof EVENT_TYPES)[number], Record<string, unknown>> = {
  action: { type: 'action', time: T, player: 'p', delta: -3.5 },
  'match.start': { type: 'match.start', time: T, match: 'm', players: ['a', 'b'], bots: ['b'] },
  'match.end': { type: 'match.end', time: T, match: 'm' },
  disconnect: { type: 'disconnect', time: T, player: 'a' },
  'match.resume': { type: 'match.resume', time: T, match: 'm' },
  rating: { type: 'rating', time: T, from: 'a', to: 'b', value: 0 },
  report: { type: 'report', time: T, from: 'a', to: 'b', reason: 'feeding' },
  played: { type: 'played', time: T, player: 'a', games: 3 },
  chat: { type: 'chat', time: T, from: 'a', to: ['b', 'c'] },
  verdict: { type: 'verdict', time: T, on: 'report', outcome: 'dismissed', report: 'r-17', reason: 'no evidence' },
  note: { type: 'note', time: T, player: 'a', text: 'warned in chat twice', moderator: 'ana' },
  sanction: { type: 'sanction', time: T, player: 'a', action: 'suspend', until: '2024-05-08T18:00:00Z', reason: 'dropped 4 matches' },
  appeal: { type: 'appeal', time: T, player: 'a', status: 'opened', sanction: 's-1', text: 'my router died' },
  rule: { type: 'rule', time: T, rule: 'feeders', state: 'dry-run', reason: 'checking false positives', moderator: 'ana' },
};

/** `{a: {a: … null}}`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = null;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function rejection(value: unknown): EventValidationError {
  try {
    validateEvent(value, { source: 'log.ndjson', line: 7 });
  } catch (error) {
    expect(error).toBeInstanceOf(EventValidationError);
    return error as EventValidationError;
  }
  throw new Error('expected a rejection');
}

describe('valid events', () => {
  it.each(Object.entries(valid))('accepts %s, with time in ms and the default community', (_type, event) => {
    const got = validateEvent(structuredClone(event));
    expect(got.time).toBe(MS);
    expect(got.community).toBe('default');
    expect(got.type).toBe(event.type);
  });

  it('covers every type of docs/spec.md §1', () => {
    expect(Object.keys(valid).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('accepts epoch milliseconds, offsets and fractions, and keeps unknown extra fields', () => {
    expect(validateEvent({ type: 'match.end', time: 1714586400000, match: 'm' }).time).toBe(1714586400000);
    expect(validateEvent({ type: 'match.end', time: '2024-05-01T20:00:00.250+02:00', match: 'm' }).time).toBe(MS + 250);
    expect(validateEvent({ type: 'match.end', time: '2024-05-01', match: 'm' }).time).toBe(Date.UTC(2024, 4, 1));
    const kept = validateEvent({ type: 'match.end', time: T, match: 'm', id: 'e1', community: 'eu', map: 'dust2' });
    expect(kept).toMatchObject({ id: 'e1', community: 'eu', map: 'dust2' });
  });

  it('wraps a single chat receiver in an array', () => {
    expect(validateEvent({ type: 'chat', time: T, from: 'a', to: 'b' })).toMatchObject({ to: ['b'] });
  });

  it('issue 17: converts a sanction\'s until to epoch ms, and accepts a verdict on a player', () => {
    expect(validateEvent({ ...valid.sanction })).toMatchObject({ until: Date.UTC(2024, 4, 8, 18) });
    expect(validateEvent({ type: 'sanction', time: T, player: 'a', action: 'mute', reason: 'spam' })).not.toHaveProperty('until');
    expect(validateEvent({ type: 'verdict', time: T, on: 'player', player: 'a', outcome: 'dismissed', moderator: 'ana' })).toMatchObject({ on: 'player', player: 'a' });
    expect(validateEvent({ type: 'appeal', time: T, player: 'a', status: 'denied', appeal: 'ap-1', reason: 'the logs show the drops' })).toMatchObject({ status: 'denied' });
  });

  it('accepts a verdict naming its report by reporter and reported player', () => {
    expect(validateEvent({ type: 'verdict', time: T, on: 'report', outcome: 'upheld', from: 'a', to: 'b' })).toMatchObject({ from: 'a', to: 'b', outcome: 'upheld' });
  });

  it('accepts a domain action without delta', () => {
    expect(validateEvent({ type: 'action', time: T, player: 'p', domain: 'forum', op: 'post' })).toMatchObject({ domain: 'forum' });
  });
});

describe('rejected events name the place, the field and the reason', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['not an object', [1, 2], '', /must be a JSON object/],
    ['null', null, '', /must be a JSON object/],
    ['no type', { time: T }, 'type', /is required/],
    ['unknown type', { type: 'kill', time: T }, 'type', /"kill" is not one of action, match\.start/],
    ['no time', { type: 'match.end', match: 'm' }, 'time', /is required/],
    ['zoneless time', { type: 'match.end', time: '2024-05-01T18:00:00', match: 'm' }, 'time', /with a zone/],
    ['impossible date', { type: 'match.end', time: '2024-13-45T18:00:00Z', match: 'm' }, 'time', /not a real date/],
    ['boolean time', { type: 'match.end', time: true, match: 'm' }, 'time', /ISO-8601 string or epoch/],
    ['empty id', { type: 'match.end', time: T, match: 'm', id: '' }, 'id', /non-empty string/],
    ['numeric community', { type: 'match.end', time: T, match: 'm', community: 3 }, 'community', /non-empty string/],
    ['action without player', { type: 'action', time: T, delta: 1 }, 'player', /is required for type "action"/],
    ['empty player', { type: 'action', time: T, player: '', delta: 1 }, 'player', /must be a non-empty string/],
    ['string delta', { type: 'action', time: T, player: 'p', delta: '5' }, 'delta', /must be a number/],
    ['delta and domain', { type: 'action', time: T, player: 'p', delta: 1, domain: 'forum' }, 'domain', /either "delta" or "domain"/],
    ['neither delta nor domain', { type: 'action', time: T, player: 'p' }, 'delta', /either "delta" or "domain"/],
    ['one player', { type: 'match.start', time: T, match: 'm', players: ['a'] }, 'players', /must have at least 2 items/],
    ['numeric player id', { type: 'match.start', time: T, match: 'm', players: ['a', 2] }, 'players/1', /must be a string/],
    ['rating above 1', { type: 'rating', time: T, from: 'a', to: 'b', value: 1.5 }, 'value', /must be ≤ 1/],
    ['self-rating', { type: 'rating', time: T, from: 'a', to: 'a', value: 1 }, 'to', /self-ratings are rejected/],
    ['zero games', { type: 'played', time: T, player: 'a', games: 0 }, 'games', /must be ≥ 1/],
    ['fractional games', { type: 'played', time: T, player: 'a', games: 1.5 }, 'games', /must be an integer/],
    ['chat to nobody', { type: 'chat', time: T, from: 'a', to: [] }, 'to', /non-empty array of player ids/],
    ['chat to a number', { type: 'chat', time: T, from: 'a', to: 5 }, 'to', /player id/],
    ['report without to', { type: 'report', time: T, from: 'a' }, 'to', /is required/],
    ['verdict on a match', { type: 'verdict', time: T, on: 'match', outcome: 'upheld', report: 'r' }, 'on', /must be one of "report", "player"/],
    ['issue 17: verdict on a player without player', { type: 'verdict', time: T, on: 'player', outcome: 'upheld' }, 'player', /is required when "on" is "player"/],
    ['issue 17: verdict on a player naming a report', { type: 'verdict', time: T, on: 'player', outcome: 'upheld', player: 'a', report: 'r' }, 'report', /a verdict on a player names only "player"/],
    ['issue 17: verdict on a report naming a player', { type: 'verdict', time: T, on: 'report', outcome: 'upheld', report: 'r', player: 'a' }, 'player', /not "player"/],
    ['issue 17: blank note', { type: 'note', time: T, player: 'a', text: '  \n ' }, 'text', /must not be blank/],
    ['issue 17: note over the text limit', { type: 'note', time: T, player: 'a', text: 'x'.repeat(4001) }, 'text', /longer than 4000 characters/],
    ['issue 17: sanction without reason', { type: 'sanction', time: T, player: 'a', action: 'ban' }, 'reason', /is required for type "sanction"/],
    ['issue 17: sanction with a blank reason', { type: 'sanction', time: T, player: 'a', action: 'ban', reason: ' ' }, 'reason', /must not be blank/],
    ['issue 17: suspend without until', { type: 'sanction', time: T, player: 'a', action: 'suspend', reason: 'r' }, 'until', /is required for "suspend"/],
    ['issue 17: ban with until', { type: 'sanction', time: T, player: 'a', action: 'ban', until: MS + 1, reason: 'r' }, 'until', /is refused for "ban"/],
    ['issue 17: until before time', { type: 'sanction', time: T, player: 'a', action: 'mute', until: MS, reason: 'r' }, 'until', /must be after the event's "time"/],
    ['issue 17: until without a zone', { type: 'sanction', time: T, player: 'a', action: 'mute', until: '2024-05-09T10:00:00', reason: 'r' }, 'until', /zone/],
    ['issue 17: sanction naming a sanction', { type: 'sanction', time: T, player: 'a', action: 'ban', sanction: 's', reason: 'r' }, 'sanction', /only "lift" takes it/],
    ['issue 17: appeal "won"', { type: 'appeal', time: T, player: 'a', status: 'won' }, 'status', /must be one of "opened", "granted", "denied"/],
    ['issue 17: appeal decision without appeal', { type: 'appeal', time: T, player: 'a', status: 'granted' }, 'appeal', /is required when "status" is "granted"/],
    ['issue 17: appeal opening naming an appeal', { type: 'appeal', time: T, player: 'a', status: 'opened', appeal: 'x' }, 'appeal', /an opening has none/],
    ['issue 17: moderator that is not a string', { type: 'note', time: T, player: 'a', text: 't', moderator: 7 }, 'moderator', /must be a string/],
    ['verdict without outcome', { type: 'verdict', time: T, on: 'report', report: 'r' }, 'outcome', /is required for type "verdict"/],
    ['verdict "guilty"', { type: 'verdict', time: T, on: 'report', outcome: 'guilty', report: 'r' }, 'outcome', /must be one of "upheld", "dismissed"/],
    ['verdict naming no report', { type: 'verdict', time: T, on: 'report', outcome: 'upheld' }, 'report', /needs "report" \(the report event's id\), or "from" and "to"/],
    ['verdict naming a report twice', { type: 'verdict', time: T, on: 'report', outcome: 'upheld', report: 'r', from: 'a', to: 'b' }, 'report', /either by "report" .* or by "from" and "to", not both/],
    ['verdict with from but no to', { type: 'verdict', time: T, on: 'report', outcome: 'upheld', from: 'a' }, 'to', /is required with "from"/],
    ['verdict with to but no from', { type: 'verdict', time: T, on: 'report', outcome: 'upheld', to: 'b' }, 'from', /is required with "to"/],
    // ./limits.ts: what a store cannot keep, how long an id may be, how deep an event nests
    ['a player id over 128 units', { type: 'action', time: T, player: 'p'.repeat(129), delta: 1 }, 'player', /longer than 128 characters/],
    ['a match player id over 128 units', { type: 'match.start', time: T, match: 'm', players: ['a', 'b'.repeat(129)] }, 'players/1', /longer than 128/],
    ['an event id over 128 units', { type: 'match.end', time: T, match: 'm', id: 'i'.repeat(129) }, 'id', /longer than 128/],
    ['a community over 128 units', { type: 'match.end', time: T, match: 'm', community: 'c'.repeat(129) }, 'community', /longer than 128/],
    ['a chat receiver over 128 units', { type: 'chat', time: T, from: 'a', to: ['b', 'c'.repeat(129)] }, 'to/1', /longer than 128/],
    ['a lone chat receiver over 128 units', { type: 'chat', time: T, from: 'a', to: 'c'.repeat(129) }, 'to', /longer than 128/],
    ['a NUL in a community', { type: 'match.end', time: T, match: 'm', community: 'c\u0000' }, 'community', /NUL character \(U\+0000\) at position 1/],
    ['a NUL in an extra field', { type: 'match.end', time: T, match: 'm', note: { text: ['ok', '\u0000'] } }, 'note/text/1', /NUL/],
    ['a lone high surrogate in a player id', { type: 'disconnect', time: T, player: 'p\ud800' }, 'player', /lone UTF-16 surrogate \(U\+D800\)/],
    ['a lone low surrogate in a key', { type: 'disconnect', time: T, player: 'p', ['k\udc00/x']: 1 }, 'k\\udc00~1x', /is a key that contains a lone UTF-16 surrogate \(U\+DC00\)/],
    ['a NUL in a key', { type: 'disconnect', time: T, player: 'p', extra: { ['a\u0000']: 1 } }, 'extra/a\\u0000', /is a key that contains a NUL/],
    ['a __proto__ key', JSON.parse('{"type":"disconnect","time":1,"player":"p","__proto__":{"admin":true}}'), '__proto__', /reserved key/],
    ['a nested __proto__ key', JSON.parse('{"type":"disconnect","time":1,"player":"p","x":[{"__proto__":1}]}'), 'x/0/__proto__', /reserved key/],
    ['nesting 33 deep', { type: 'disconnect', time: T, player: 'p', x: nested(32) }, `x${'/a'.repeat(31)}`, /deeper than the limit of 32 levels \(maxEventDepth\)/],
  ];
  it.each(cases)('%s', (_name, value, field, reason) => {
    const error = rejection(value);
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
    expect(error.code).toBe('EVENT_INVALID');
    expect(error.message).toMatch(/^log\.ndjson line 7: field/);
  });
});

describe('issue 14: limits (./limits.ts)', () => {
  it('accepts ids of 128 units, surrogate pairs, nesting at the limit, and "constructor" keys as plain fields', () => {
    const event = validateEvent({ type: 'chat', time: T, from: 'é'.repeat(128), to: ['😀'.repeat(64), '..x'], community: 'c'.repeat(128), id: 'i'.repeat(128), x: nested(31) });
    expect(event.from).toHaveLength(128);
    const withConstructor = validateEvent(JSON.parse('{"type":"disconnect","time":1,"player":"p","constructor":{"prototype":{"polluted":true}}}'));
    expect(Object.hasOwn(withConstructor, 'constructor')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes another depth limit, and refuses a body nested 10,000 deep without overflowing the stack', () => {
    expect(() => validateEvent({ type: 'disconnect', time: T, player: 'p', x: nested(3) }, undefined, { maxDepth: 4 })).not.toThrow();
    expect(rejection({ type: 'disconnect', time: T, player: 'p', x: nested(10_000) }).reason).toMatch(/deeper than the limit of 32/);
    try {
      validateEvent({ type: 'disconnect', time: T, player: 'p', x: nested(4) }, { index: 2 }, { maxDepth: 4 });
      throw new Error('expected a rejection');
    } catch (error) {
      expect((error as EventValidationError).message).toBe('[2]: field "x/a/a/a" nests objects and arrays deeper than the limit of 4 levels (maxEventDepth)');
    }
  });

  it('accepts the player ids "." and ".." (real logs hold them; only the service refuses them, a URL path cannot carry them)', () => {
    expect(validateEvent({ type: 'report', time: T, from: '.', to: '..' })).toMatchObject({ from: '.', to: '..' });
    expect(validateEvent({ type: 'match.start', time: T, match: 'm', players: ['a', '.'] })).toMatchObject({ players: ['a', '.'] });
  });

  it('gives the same answer for a line whose text was checked first as for its parsed value (property)', () => {
    const key = fc.constantFrom('ok', '__proto__', 'a\u0000', 'b\ud800', 'c\udc00d', '😀', 'x[{');
    const leaf = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('\u0000', '\ud83d', '😀', '[', '{', '..'), fc.integer());
    const nest = fc.tuple(fc.integer({ min: 0, max: 36 }), fc.boolean(), leaf).map(([levels, arrays, value]) => {
      let x: unknown = value;
      for (let i = 0; i < levels; i++) x = arrays ? [x] : { a: x };
      return x;
    });
    const text = fc
      .tuple(fc.dictionary(key, fc.oneof(leaf, nest), { maxKeys: 3 }), fc.boolean())
      .map(([extra, escape]) => {
        const line = JSON.stringify({ type: 'disconnect', time: 1, player: 'p', ...extra });
        // Escapes that spell plain characters, "__proto__" among them, must not hide anything.
        return escape ? line.replace('"p"', '"\\u0070"').replace(/"ok"/g, '"__\\u0070roto__"') : line;
      });
    const answer = (check: () => unknown) => {
      try {
        check();
        return 'accepted';
      } catch (error) {
        return `${(error as EventValidationError).field}: ${(error as EventValidationError).reason}`;
      }
    };
    fc.assert(
      fc.property(text, (line) => {
        expect(answer(() => parseEventLine(line, 'x', 1))).toBe(answer(() => validateEvent(JSON.parse(line))));
      }),
      { seed: 14, numRuns: 2000 },
    );
  });
});

describe('issue 25: numbers too large for a double', () => {
  const line = (payload: string) => `{"type":"action","time":5,"player":"p","domain":"clustering","dot":"d","color":"r","x":1,"y":2${payload}}`;

  it('refuses 1e999 anywhere in an event (it reads as infinity and would be stored as null), naming the field, in a line and in a decoded value alike', () => {
    for (const [payload, field] of [
      [',"extra":1e999', 'extra'],
      [',"meta":{"deep":[1,-1e999]}', 'meta/deep/1'],
    ] as const) {
      for (const check of [() => parseEventLine(line(payload), 'test', 1), () => validateEvent(JSON.parse(line(payload)))]) {
        try {
          check();
          expect.unreachable();
        } catch (error) {
          expect(error).toBeInstanceOf(EventValidationError);
          expect((error as EventValidationError).field).toBe(field);
          expect((error as EventValidationError).reason).toMatch(/is not a finite number \(JSON text such as 1e999 reads as infinity\)/);
        }
      }
    }
    expect(validateEvent(JSON.parse(line(',"small":1e-999,"big":1e300')))).toMatchObject({ small: 0, big: 1e300 });
    // Handed over by a library caller, NaN is refused alike.
    expect(() => validateEvent({ ...(JSON.parse(line('')) as object), extra: Number.NaN })).toThrow(/extra.*is not a finite number/);
  });
});

describe('issue 27: the text check for numbers too large for a double, on flat lines', () => {
  it('still refuses an upper-case exponent with a plus sign and a run of 400 digits, and passes 1e99', () => {
    const line = (delta: string) => `{"type":"action","time":5,"player":"p","delta":1,"extra":${delta}}`;
    for (const big of ['1E+400', '-2e999', '9'.repeat(400)]) {
      expect(() => parseEventLine(line(big), 'test', 1)).toThrow(/extra.*is not a finite number/);
    }
    expect(parseEventLine(line('1e99'), 'test', 1)).toMatchObject({ extra: 1e99 });
    expect(parseEventLine(line('9'.repeat(299)), 'test', 1)).toMatchObject({ extra: Number('9'.repeat(299)) });
  });
});
