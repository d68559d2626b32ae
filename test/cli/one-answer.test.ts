/**
 * Issue 24, point 4 ("one question, two answers"): the command line, the library and the HTTP API
 * give the same answer to the same question, and what they say is true. Trust's observers are
 * pinned, not ranked, in every entry point (spec §4); reports says, in every entry point, when no
 * report gives anyone bad-player points, and the CLI then prints no table whose rank 1 is
 * arbitrary; an empty ranking's message says what the log holds; and `serve --demo` dates its
 * note by the demo's load, not by the newest event posted since.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOMMENDED_REPORTS_DEFENCES, reports, trust, trustRanking, type StandingEvent, type TrustState } from '../../src/index.js';
import { BUILTIN_DOMAINS } from '../../src/quality/index.js';
import { DEFAULT_CONFIG, configuredInstances } from '../../src/service/config.js';
import { demoEvents } from '../../src/service/demo.js';
import { LiveEngine } from '../../src/service/live-engine.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { json, startTestService, type TestService } from '../service/support.js';
import { runCli, startDemo } from '../support/cli.js';

const DAY = 24 * 3_600_000;

function logFile(events: readonly object[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-one-answer-')), 'log.ndjson');
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
}

const at = (hour: number) => new Date(Date.parse('2024-03-01T00:00:00Z') + hour * 3_600_000).toISOString();
const rating = (from: string, to: string, value: number, hour: number, community: string) => ({ type: 'rating', time: at(hour), community, from, to, value });

/** Five players rating each other, in two communities; mod is the configured observer, ann the personal view. */
const RATINGS = ['trust-a', 'trust-b'].flatMap((c) => [
  rating('mod', 'ann', 1, 0, c),
  rating('mod', 'bob', 0.5, 1, c),
  rating('ann', 'cid', 1, 2, c),
  rating('ann', 'mod', 0.8, 3, c),
  rating('bob', 'dan', -1, 4, c),
  rating('cid', 'bob', -0.5, 5, c),
  rating('dan', 'ann', 0.2, 6, c),
  rating('cid', 'ann', 0.7, 7, c),
]);

/** Two communities: reports in "us", matches but no report in "eu". */
const MATCHES = [
  { type: 'match.start', time: at(0), community: 'eu', match: 'm1', players: ['ann', 'bob', 'cid'] },
  { type: 'match.end', time: at(1), community: 'eu', match: 'm1' },
  { type: 'match.start', time: at(0), community: 'us', match: 'm1', players: ['ann', 'bob', 'cid'] },
  { type: 'report', time: at(0.5), community: 'us', from: 'ann', to: 'bob' },
  { type: 'match.end', time: at(1), community: 'us', match: 'm1' },
];

function libraryState<S>(scorer: { initialState(p: never): S; params: { resolve(i: Record<string, unknown>): unknown }; evolve(s: S, e: StandingEvent): S }, params: Record<string, unknown>, events: readonly object[]): S {
  const state = scorer.initialState(scorer.params.resolve(params) as never);
  for (const e of events) scorer.evolve(state, { ...e, time: Date.parse((e as { time: string }).time) } as StandingEvent);
  return state;
}

let t: TestService;

beforeAll(async () => {
  t = await startTestService({ scorers: [{ scorer: 'trust', params: { observers: ['mod'] } }, { scorer: 'reports', params: {} }] });
  const posted = await t.call('/v1/events', { ...json([...RATINGS, ...MATCHES]), key: t.keys.ingest });
  expect(posted.status).toBe(200);
});

afterAll(async () => {
  await t.close();
});

async function apiRanking(path: string): Promise<{ rows: unknown[]; total: number; warning?: string }> {
  const response = await t.call(path, { key: t.keys.read });
  expect(response.status).toBe(200);
  return (await response.json()) as { rows: unknown[]; total: number; warning?: string };
}

async function cliRows(args: readonly string[]): Promise<unknown[]> {
  const result = await runCli([...args, '--format', 'json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as unknown[];
}

describe('issue 24: trust observers are pinned, not ranked, in every entry point', () => {
  const file = logFile(RATINGS);

  it.each([
    ['a personal view', 'ann'],
    ['two observers', 'ann,cid'],
  ])('the CLI, the library and the API give the same rows for %s', async (_, observers) => {
    const list = observers.split(',');
    const state = libraryState(trust, { observers: 'mod' }, RATINGS) as TrustState;
    const own = libraryState(trust, { observers }, RATINGS) as TrustState;
    for (const community of ['trust-a', 'trust-b']) {
      const cli = await cliRows(['rank', 'trust', file, '--set', `observers=${observers}`, '--community', community]);
      expect(cli.map((r) => (r as { player: string }).player).sort()).toEqual(['ann', 'bob', 'cid', 'dan', 'mod'].filter((p) => !list.includes(p)));
      const api = await apiRanking(`/v1/rankings/trust?community=${community}&params=${encodeURIComponent(`observers=${observers}`)}`);
      expect(api.rows).toEqual(cli);
      expect(api.total).toBe(cli.length);
      expect(trust.rank(own, { community })).toEqual(cli);
      expect(trustRanking(state, community, list)).toEqual(cli);
    }
  });

  it('the community view leaves its observers out too, with the same rows everywhere', async () => {
    const cli = await cliRows(['rank', 'trust', file, '--set', 'observers=mod', '--community', 'trust-a']);
    const api = await apiRanking('/v1/rankings/trust?community=trust-a');
    expect(cli.map((r) => (r as { player: string }).player)).not.toContain('mod');
    expect(trust.rank(libraryState(trust, { observers: 'mod' }, RATINGS) as TrustState, { community: 'trust-a' })).toEqual(cli);
    expect(api.rows).toEqual(cli);
  });

  it('the API refuses a personal view with no observer, as the CLI and the library do', async () => {
    const response = await t.call('/v1/rankings/trust?community=trust-a&params=observers=', { key: t.keys.read });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('PARAMETER_INVALID');
    expect((await runCli(['rank', 'trust', file, '--set', 'observers='])).code).toBe(1);
    expect(() => trustRanking(libraryState(trust, { observers: 'mod' }, RATINGS) as TrustState, 'trust-a', [])).toThrow(/observers/);
  });
});

describe('issue 24: reports with no bad-player points says that no player is ranked as bad', () => {
  const file = logFile(MATCHES);
  const NO_REPORT = 'no report has been made, so no player is ranked as bad: every bad-player score is 0 and the 3 players are listed in id order, not by badness';

  it('the CLI says so, and prints no table whose rank 1 (the worst) would be whoever sorts first', async () => {
    const eu = await runCli(['rank', 'reports', file, '--community', 'eu']);
    expect(eu.code).toBe(0);
    expect(eu.stdout).toBe('');
    expect(eu.stderr).toMatch(new RegExp(`^standing: reports .* · community eu: ${NO_REPORT}\n$`));
    expect(eu.stderr).not.toContain('--now'); // trust's advice is not for reports
    const worst = await runCli(['rank', 'reports', file, '--community', 'eu', '--order', 'worst']);
    expect([worst.stdout, worst.stderr]).toEqual(['', eu.stderr]);
  });

  it('with a community that has reports, prints that one\'s table and warns of the other', async () => {
    const all = await runCli(['rank', 'reports', file]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('community us · 3 players');
    expect(all.stdout).not.toContain('community eu');
    expect(all.stderr).toMatch(new RegExp(`^standing: reports .* · community eu: ${NO_REPORT}\n$`));
  });

  it('JSON lists the players who played (spec §5), as the library and the API do, with the same warning everywhere', async () => {
    const state = libraryState(reports, { ...RECOMMENDED_REPORTS_DEFENCES }, MATCHES); // what serve and the CLI run by default
    for (const community of ['eu', 'us']) {
      const cli = await runCli(['rank', 'reports', file, '--community', community, '--format', 'json']);
      const rows = JSON.parse(cli.stdout) as { player: string }[];
      const api = await apiRanking(`/v1/rankings/reports?community=${community}`);
      expect(api.rows).toEqual(rows);
      expect(reports.rank(state, { community })).toEqual(rows);
      const warning = community === 'eu' ? NO_REPORT : undefined;
      expect(api.warning).toBe(warning);
      expect(reports.stats!(state, community)[0]!.warning).toBe(warning);
      expect(cli.stderr).toEqual(warning === undefined ? '' : expect.stringContaining(warning));
    }
  });

  it('a report that carries no weight (its reporter has played no game) is told apart from no report', async () => {
    const weightless = logFile([
      { type: 'report', time: at(0), from: 'ann', to: 'bob' },
      { type: 'played', time: at(0), player: 'bob', games: 3 },
    ]);
    const result = await runCli(['rank', 'reports', weightless]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "community default: the one report carries no weight (a report is worth its reporter's judgment points, earned by games played), so no player is ranked as bad: every bad-player score is 0 and the 2 players are listed in id order, not by badness\n",
    );
  });
});

describe('issue 24: an empty ranking says what the log holds', () => {
  it('a match that started but has not ended: reliability events are there, none scores yet', async () => {
    const file = logFile([{ type: 'match.start', time: at(0), match: 'm1', players: ['ann', 'bob'] }]);
    const result = await runCli(['rank', 'reliability', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `standing: no player to rank: ${file} has 1 event reliability uses (match.start: 1), but none gives a player a score yet: a match scores its players at its end, at a disconnect or at a resume\n`,
    );
  });

  it('no event the scorer uses at all', async () => {
    const file = logFile([{ type: 'chat', time: at(0), from: 'ann', to: ['bob'] }]);
    const result = await runCli(['rank', 'reliability', file]);
    expect(result.stderr).toBe(`standing: no player to rank: ${file} has no event reliability uses (match.start, match.end, disconnect, match.resume)\n`);
  });

  it('trust ratings among the observers only', async () => {
    const file = logFile([rating('ann', 'mod', 1, 0, 'default'), rating('mod', 'ann', 1, 1, 'default')]);
    const result = await runCli(['rank', 'trust', file, '--set', 'observers=ann,mod']);
    expect(result.stderr).toBe(
      `standing: no player to rank: ${file} has 2 events trust uses (rating: 2), but none ranks a player: every player rated is an observer (observers are pinned, not ranked), or each rating withdraws one never made\n`,
    );
  });
});

describe('issue 24: serve --demo dates its note by the demo load, not by events posted since', () => {
  /** A demo store loaded (dated) at `loadedAt`, into which an event dated 2024-06-03 was posted afterwards. */
  async function demoStore(loadedAt: number): Promise<string> {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-demo-note-')), 'demo.sqlite');
    const live = await LiveEngine.open({ store: openSqliteStore(db), instances: configuredInstances(DEFAULT_CONFIG), quality: { domains: BUILTIN_DOMAINS, options: {} } });
    const events = demoEvents(2024, loadedAt);
    for (let i = 0; i < events.length; i += 500) await live.ingest(events.slice(i, i + 500));
    await live.ingest([{ type: 'action', time: '2024-06-03T12:00:00Z', player: 'F1', delta: 1, id: 'late-post' }]);
    await live.close();
    return db;
  }

  it('a store loaded 40 days ago: the note gives that day', async () => {
    const loadedAt = Date.now() - 40 * DAY;
    const db = await demoStore(loadedAt);
    const demo = await startDemo(db);
    await demo.stop();
    expect(demo.out).toContain(', 0 new demo events');
    expect(demo.out).toContain(
      `note: this demo store was loaded on ${new Date(loadedAt).toISOString().slice(0, 10)} and its events are dated up to then, so events dated now find its ratings expired (they live 30 days); delete ${db} to load the demo dated now`,
    );
    expect(demo.out).not.toContain('2024-06-03');
  });

  it('a store loaded today: no note, however old the events posted into it', async () => {
    const demo = await startDemo(await demoStore(Date.now()));
    await demo.stop();
    expect(demo.out).toContain(', 0 new demo events');
    expect(demo.out).not.toContain('note:');
  });
});
