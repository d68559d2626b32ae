/**
 * The regression logs of test/fixtures/fixed/ (one per bug found and fixed; the folder's README
 * says what each shows): every file ranks under every scorer on the command line (exit 0, no
 * stack trace), and goes into a live engine over a real SQLite file whole, with the live state
 * then equal to a replay of the store. Then what each issue-24 file must show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCORERS } from '../../src/index.js';
import { runCli, ROOT } from '../support/cli.js';
import { fullReplay, openLive, openSqlite, sqlitePath, view } from '../unit/service/support.js';

const FOLDER = 'test/fixtures/fixed';
const FILES = readdirSync(join(ROOT, FOLDER)).filter((f) => f.endsWith('.ndjson')).sort();
const SET: Readonly<Record<string, string[]>> = { trust: ['--set', 'observers=mod'] };

const scores = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as { player: string; score: number }[]).map((r) => [r.player, r.score]));

describe('issue 24: the regression logs of test/fixtures/fixed', () => {
  it('are there', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(3);
  });

  for (const file of FILES) {
    it(`${file}: ranks under every scorer`, async () => {
      for (const id of Object.keys(SCORERS)) {
        const result = await runCli(['rank', id, join(FOLDER, file), ...(SET[id] ?? []), '--format', 'json']);
        expect({ id, code: result.code, stack: /\n\s+at /.test(result.stderr) }).toEqual({ id, code: 0, stack: false });
      }
    });

    it(`${file}: is applied whole by a live engine, whose state then equals a replay of the store`, async () => {
      const live = await openLive(openSqlite(sqlitePath()));
      const events = readFileSync(join(ROOT, FOLDER, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
      expect((await live.ingest(events)).accepted).toBe(events.length);
      expect(view(live.engine, live.communities())).toBe(await fullReplay(live.store));
      await live.close();
    });
  }

  it('issue-24-old-drop-against-bot: eve’s 2024 drop and its resume score nothing; the file ranks with nothing to rank', async () => {
    const result = await runCli(['rank', 'reliability', join(FOLDER, 'issue-24-old-drop-against-bot.ndjson'), '--format', 'json']);
    expect(result.code).toBe(0);
    expect(scores(result.stdout)).toEqual({});
  });

  it('issue-24-trust-clock: the same ranking with and without --now at its last event, both ratings out of force', async () => {
    const file = join(FOLDER, 'issue-24-trust-clock.ndjson');
    const plain = await runCli(['rank', 'trust', file, '--set', 'observers=mod', '--format', 'json']);
    const now = await runCli(['rank', 'trust', file, '--set', 'observers=mod', '--format', 'json', '--now', '2026-03-01T00:00:00Z']);
    expect(plain.code).toBe(0);
    expect(scores(plain.stdout)).toEqual({ ann: 0, bob: 0 });
    expect(now.stdout).toBe(plain.stdout);
  });

  it('issue-24-stale-match: only the match in the kept history scores; eve’s disconnect does not interrupt a forgotten one', async () => {
    const result = await runCli(['rank', 'reliability', join(FOLDER, 'issue-24-stale-match.ndjson'), '--format', 'json']);
    expect(scores(result.stdout)).toEqual({ cat: 1, dan: 1 });
  });
});
