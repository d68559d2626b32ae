/**
 * Issue 24, as a newcomer meets it: `standing ingest examples/matches.ndjson` into the running
 * demo (`npm start`) answers 200 and its scores take it; the log that made reliability throw,
 * posted to the demo's own community, is applied and answered 200 (a retry finds duplicates,
 * and nothing is left unapplied); and the case page dates a trust rating by its event's own
 * time, not by a clock trust kept apart from the community's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { runCli, startDemo } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';

describe('issue 24: the demo takes what a newcomer sends it', () => {
  it('ingests the example logs with 200s, scores them, and dates trust evidence by the rating event', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-demo-ingest-')), 'demo.sqlite');
    const demo = await startDemo(db);
    const get = async (path: string, key: string) => (await contractFetch(`${demo.url}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<Record<string, unknown>>;
    try {
      const ingest = (file: string) => runCli(['ingest', file, '--url', demo.url], undefined, { STANDING_KEY: demo.ingest });
      const matches = await ingest('examples/matches.ndjson');
      expect({ code: matches.code, stderr: matches.stderr }).toEqual({ code: 0, stderr: '' });
      expect(matches.stdout).toContain('15 accepted');
      const cat = (await get('/v1/players/cat?community=fibs', demo.read)) as { communities: { scores: { scorer: string; score: number | null }[] }[] };
      expect(cat.communities[0]!.scores.find((s) => s.scorer.startsWith('reliability'))!.score).toBe(0.5);

      // The four lines that made reliability throw after the batch was stored, into the demo's own community.
      const fixed = 'test/fixtures/fixed/issue-24-old-drop-against-bot.ndjson';
      const first = await ingest(fixed);
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
      expect(first.stdout).toContain('4 accepted');
      const again = await ingest(fixed);
      expect(again.stdout).toContain('0 accepted, 4 duplicates');

      // D3's case: every trust rating is dated by its own event, as stored.
      const kase = (await get('/v1/players/D3/case', demo.moderator)) as { evidence: { scorer: string; kind: string; other?: string; time: number }[] };
      const ratings = kase.evidence.filter((e) => e.kind === 'rating');
      expect(ratings.length).toBeGreaterThan(0);
      expect(await demo.stop()).toBe(0);
      const store = openSqliteStore(db);
      try {
        const stored = (await store.read('default', 0, 1_000_000)).map((s) => s.event).filter((e) => e.type === 'rating' && e.to === 'D3');
        for (const r of ratings) {
          const latest = stored.filter((e) => e.type === 'rating' && e.from === r.other).at(-1)!;
          expect({ rater: r.other, time: r.time }).toEqual({ rater: r.other, time: latest.time });
        }
      } finally {
        await store.close();
      }
    } finally {
      await demo.stop();
    }
  });
});
