/**
 * Clocks on the command line (issue 14, point 1): `--now` evaluates expiry at a chosen moment,
 * times beyond what a Date represents are refused, a trust ranking whose every reputation is 0
 * for want of a rating in force says so, and `serve --demo` dates the demo by its start.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_DOMAINS } from '../../src/quality/index.js';
import { DEFAULT_CONFIG, configuredInstances } from '../../src/service/config.js';
import { demoEvents } from '../../src/service/demo.js';
import { LiveEngine } from '../../src/service/live-engine.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { runCli, startDemo } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';

const DAY = 24 * 3_600_000;
const log = (events: unknown[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-clocks-')), 'log.ndjson');
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n'));
  return path;
};

/** mod rates ann on day 0 and bob on day 40; ratings live 30 days (ttlMax 720 × 1 h). */
const RATINGS = log([
  { type: 'rating', time: '2024-01-01T00:00:00Z', from: 'mod', to: 'ann', value: 1 },
  { type: 'rating', time: '2024-02-10T00:00:00Z', from: 'mod', to: 'bob', value: 1 },
]);

const ranked = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as { player: string; score: number }[]).map((r) => [r.player, r.score]));

describe('issue 14: standing rank|explain --now', () => {
  it('evaluates expiry at the newest event time by default, at --now when given, leaving later events out', async () => {
    const latest = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod', '--format', 'json']);
    expect(latest.code).toBe(0);
    expect(ranked(latest.stdout)).toEqual({ ann: 0, bob: 1 }); // ann's rating expired on day 30
    const early = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod', '--format', 'json', '--now', '2024-01-15T00:00:00Z']);
    expect(ranked(early.stdout)).toEqual({ ann: expect.closeTo(1 - 14 * 24 / 720, 9) });
    expect(early.stderr).toContain('--now 2024-01-15T00:00:00.000Z: 1 event dated after it left out');
    const epoch = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod', '--format', 'json', '--now', String(Date.parse('2024-01-15T00:00:00Z'))]);
    expect(epoch.stdout).toBe(early.stdout);
  });

  it('says so when every reputation is 0 because every rating has expired by --now', async () => {
    const later = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod', '--format', 'json', '--now', new Date(Date.parse('2024-02-10T00:00:00Z') + 31 * DAY).toISOString()]);
    expect(later.code).toBe(0);
    expect(ranked(later.stdout)).toEqual({ ann: 0, bob: 0 });
    expect(later.stderr).toMatch(/community default: every reputation is 0: no rating is in force at 2024-03-12T00:00:00.000Z \(each expires ttlMax × expireHours = 720 h after it is set, or was withdrawn\); try --now/);
    const live = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod']);
    expect(live.stderr).toBe('');
  });

  it('explain --now shows the ratings in force then, with their TTL', async () => {
    const result = await runCli(['explain', 'trust', RATINGS, '--set', 'observers=mod', '--player', 'ann', '--format', 'json', '--now', '2024-01-02T00:00:00Z']);
    expect(result.code).toBe(0);
    const e = JSON.parse(result.stdout) as { score: number; ratings: { rater: string; ttl: number }[] };
    expect(e.ratings).toEqual([expect.objectContaining({ rater: 'mod', ttl: 720 - 24 })]);
  });

  it('refuses a --now that is not a time, and a log time beyond what a Date represents', async () => {
    const bad = await runCli(['rank', 'trust', RATINGS, '--set', 'observers=mod', '--now', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('standing: --now must be ISO-8601 with a zone');
    const huge = await runCli(['rank', 'cqr', '-'], '{"type":"action","time":1e300,"player":"a","delta":1}\n');
    expect(huge.code).toBe(1);
    expect(huge.stderr).toContain('stdin line 1: field "time" must be within ±8640000000000000 epoch milliseconds');
  });
});

describe('issue 14: standing serve --demo is dated by its start', () => {
  it('says so when the demo store was loaded longer ago than its ratings live', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-demo-old-')), 'demo.sqlite');
    const loadedOn = Date.now() - 40 * DAY;
    const live = await LiveEngine.open({ store: openSqliteStore(db), instances: configuredInstances(DEFAULT_CONFIG), quality: { domains: BUILTIN_DOMAINS, options: {} } });
    const events = demoEvents(2024, loadedOn);
    for (let i = 0; i < events.length; i += 500) await live.ingest(events.slice(i, i + 500));
    await live.close();
    const demo = await startDemo(db);
    await demo.stop();
    expect(demo.out).toContain(', 0 new demo events');
    expect(demo.out).toContain(`note: this demo store was loaded on ${new Date(loadedOn).toISOString().slice(0, 10)} and its events are dated up to then, so events dated now find its ratings expired (they live 30 days); delete ${db} to load the demo dated now`);
    const fresh = await startDemo(join(mkdtempSync(join(tmpdir(), 'standing-demo-new-')), 'demo.sqlite'));
    await fresh.stop();
    expect(fresh.out).not.toContain('note:');
  });

  it('a rating posted now finds the demo ratings still in force', async () => {
    const demo = await startDemo(join(mkdtempSync(join(tmpdir(), 'standing-demo-clock-')), 'demo.sqlite'));
    try {
      const { url, ingest } = demo;
      const read = { authorization: `Bearer ${demo.read}` };
      const communities = (await (await contractFetch(`${url}/v1/communities`, { headers: read })).json()) as { communities: { name: string; time?: number }[] };
      expect(communities.communities.length).toBeGreaterThan(0);
      const posted = await contractFetch(`${url}/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ingest}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ type: 'rating', time: new Date().toISOString(), from: 'F3', to: 'F4', value: 1 }]),
      });
      expect(posted.status).toBe(200);
      const trust = (await (await contractFetch(`${url}/v1/rankings/trust?limit=100`, { headers: read })).json()) as { rows: { player: string; score: number }[] };
      const positive = trust.rows.filter((r) => r.score > 0).map((r) => r.player);
      expect(positive.length).toBeGreaterThan(5); // the demo's ratings, not F4's alone
    } finally {
      await demo.stop();
    }
  });
});
