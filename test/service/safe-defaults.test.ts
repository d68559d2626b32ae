/**
 * Issue 28, point 9 ("safe by default"): `standing serve`'s default configuration runs each
 * scorer's recommended defences, the match ones engaging per community at its first match.start;
 * the published methods are one setting away; GET /v1/scorers and the start lines say which
 * defences run; the command line answers as the service does; a restart under the other setting
 * never reuses the checkpoints of the first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOMMENDED_REPORTS_DEFENCES, reports, type StandingEvent } from '../../src/index.js';
import { reportBrigadeLog } from '../../src/simulations/report-brigade.js';
import { seededRng } from '../../src/util/random.js';
import { runCli } from '../support/cli.js';
import { startServe } from '../support/serve-process.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

interface Row {
  rank: number;
  player: string;
  score: number;
}
interface Defence {
  param: string;
  value: string;
  needs?: string;
  engaged?: boolean;
}
interface ScorerList {
  community?: string;
  scorers: { name: string; scorer: string; params: string; defences: { setting: string; on: Defence[] } }[];
}

/** `standing simulate report-brigade`'s community (1,000 players, 50 truly bad) with its reports after shared matches, and a brigade of 10. */
const brigade = reportBrigadeLog({ players: 1000, bad: 50, reportsPerBad: 8, noise: 200, rng: seededRng(1), matches: true });
const inCommunity = (events: readonly StandingEvent[], community: string) => events.map((e) => ({ ...e, community }));
const BRIGADED = inCommunity([...brigade.base, ...brigade.brigade(10)], 'brigaded');
/** The same community as it would be sent without matches: played and report events only. */
const PLAIN = inCommunity(
  [...brigade.base, ...brigade.brigade(10)].filter((e) => e.type !== 'match.start'),
  'plain',
);

/** Every row of a ranking, page by page. */
async function ranking(t: TestService, scorer: string, community: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (;;) {
    const response = await t.call(`/v1/rankings/${encodeURIComponent(scorer)}?community=${community}&limit=1000&offset=${rows.length}`, { key: t.keys.read });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { rows: Row[]; total: number };
    rows.push(...page.rows);
    if (rows.length >= page.total) return rows;
  }
}

async function scorerList(t: TestService, query = ''): Promise<ScorerList> {
  const response = await t.call(`/v1/scorers${query}`, { key: t.keys.read });
  expect(response.status).toBe(200);
  return (await response.json()) as ScorerList;
}

let safe: TestService;
let published: TestService;

beforeAll(async () => {
  safe = await startTestService(); // the default configuration: cqr, reliability, chat, reports; defences recommended
  published = await startTestService({ defences: 'published' });
  for (const t of [safe, published]) {
    for (const events of [BRIGADED, PLAIN]) expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
  }
});

afterAll(async () => {
  await safe.close();
  await published.close();
});

describe('issue 28: safe by default', () => {
  it('ten brigade accounts no longer make an innocent the worst of 1,000 under the default configuration; under "published" they still do', async () => {
    const defended = await ranking(safe, 'reports', 'brigaded');
    const innocent = defended.find((r) => r.player === brigade.innocent)!;
    // The brigade shared no match with the innocent: its reports count nothing.
    expect(innocent.score).toBe(0);
    expect(innocent.rank).toBeGreaterThan(brigade.bad.length);
    const bad = new Set(brigade.bad);
    expect(defended.slice(0, brigade.bad.length).every((r) => bad.has(r.player))).toBe(true);
    expect((await ranking(published, 'reports', 'brigaded'))[0]!.player).toBe(brigade.innocent);
  });

  it('names the instances as the published setting does: the preset alone changes no name', async () => {
    const names = (list: ScorerList) => list.scorers.map((s) => s.name);
    expect(names(await scorerList(safe))).toEqual(['cqr', 'reliability', 'chat', 'reports']);
    expect(names(await scorerList(published))).toEqual(['cqr', 'reliability', 'chat', 'reports']);
    // A ranking picked by params reads them over the setting's defaults, as the names are read.
    const byParams = async (t: TestService, params: string) => (await t.call(`/v1/rankings/reports?community=brigaded&limit=1&params=${params}`, { key: t.keys.read })).status;
    expect(await byParams(safe, 'judgmentSplit=5')).toBe(200);
    expect(await byParams(safe, 'judgmentSplit=1')).toBe(404);
    expect(await byParams(published, 'judgmentSplit=1')).toBe(200);
    expect(await byParams(published, 'judgmentSplit=5')).toBe(404);
  });

  it('GET /v1/scorers says which defences run, which need match.start, and where they are engaged', async () => {
    const list = await scorerList(safe);
    const defences = Object.fromEntries(list.scorers.map((s) => [s.name, s.defences]));
    expect(defences.cqr).toEqual({ setting: 'recommended', on: [] });
    expect(defences.chat).toEqual({ setting: 'recommended', on: [{ param: 'partners', value: '20' }] });
    expect(defences.reliability).toEqual({ setting: 'recommended', on: [{ param: 'repeatWeight', value: '0.5' }, { param: 'minMatchMinutes', value: '5' }] });
    expect(defences.reports).toEqual({
      setting: 'recommended',
      on: [
        { param: 'sharedMatchDays', value: '30', needs: 'match.start' },
        { param: 'oneVoicePerMatch', value: 'true', needs: 'match.start' },
        { param: 'oneVoicePerReporter', value: 'true' },
        { param: 'judgmentSplit', value: '5' },
        { param: 'accuracyPrior', value: '0.1' },
      ],
    });
    const engaged = async (community: string) => {
      const answer = await scorerList(safe, `?community=${community}`);
      expect(answer.community).toBe(community);
      return Object.fromEntries(answer.scorers.find((s) => s.name === 'reports')!.defences.on.map((d) => [d.param, d.engaged]));
    };
    expect(await engaged('brigaded')).toEqual({ sharedMatchDays: true, oneVoicePerMatch: true, oneVoicePerReporter: true, judgmentSplit: true, accuracyPrior: true });
    expect(await engaged('plain')).toEqual({ sharedMatchDays: false, oneVoicePerMatch: false, oneVoicePerReporter: true, judgmentSplit: true, accuracyPrior: true });
    expect(await engaged('nowhere')).toMatchObject({ sharedMatchDays: false, oneVoicePerMatch: false });
    expect((await scorerList(published)).scorers.map((s) => s.defences)).toEqual(Array.from({ length: 4 }, () => ({ setting: 'published', on: [] })));
  });

  it('ranks the reports of a community that sends only played and report events, the match defences off there', async () => {
    const rows = await ranking(safe, 'reports', 'plain');
    expect(rows.some((r) => r.score > 0)).toBe(true);
    const state = reports.initialState(reports.params.resolve({ ...RECOMMENDED_REPORTS_DEFENCES, sharedMatchDays: 0, oneVoicePerMatch: false }));
    for (const e of PLAIN) reports.evolve(state, e);
    expect(rows).toEqual(reports.rank(state, { community: 'plain' }));
  });

  it('the command line, by default, answers as the default service: one question, one answer', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'standing-safe-')), 'log.ndjson');
    writeFileSync(file, [...BRIGADED, ...PLAIN].map((e) => JSON.stringify(e)).join('\n') + '\n');
    for (const scorer of ['reports', 'reliability', 'chat']) {
      for (const community of ['brigaded', 'plain']) {
        for (const [t, args] of [
          [safe, []],
          [published, ['--defences', 'published']],
        ] as const) {
          const cli = await runCli(['rank', scorer, file, '--community', community, '--format', 'json', ...args]);
          expect(cli.code).toBe(0);
          expect(JSON.parse(cli.stdout), `${scorer} ${community} ${args.join(' ')}`).toEqual(await ranking(t, scorer, community));
        }
      }
    }
    // STANDING_DEFENCES chooses as --defences does; a setting that is neither is refused.
    const viaEnv = await runCli(['rank', 'reports', file, '--community', 'brigaded', '--format', 'json'], undefined, { STANDING_DEFENCES: 'published' });
    expect(JSON.parse(viaEnv.stdout)).toEqual(await ranking(published, 'reports', 'brigaded'));
    const wrong = await runCli(['rank', 'reports', file, '--defences', 'safe']);
    expect(wrong).toMatchObject({ code: 2, stderr: 'standing: --defences expects recommended or published, got "safe"\n' });
  });

  it('a history replays the instance as configured: its last point is the live score', async () => {
    const response = await safe.call(`/v1/players/${brigade.bad[0]}/history?community=brigaded&scorer=reports&points=5`, { key: safe.keys.read });
    expect(response.status).toBe(200);
    const history = (await response.json()) as { points: { score: number | null }[] };
    const live = (await ranking(safe, 'reports', 'brigaded')).find((r) => r.player === brigade.bad[0])!;
    expect(history.points.at(-1)!.score).toBe(live.score);
  });
});

describe('issue 28: a restart under the other defence setting', () => {
  it('reuses no checkpoint of the first: each setting ranks as a fresh service of it', async () => {
    const db = tempDb();
    const first = await startTestService({ db, checkpointEvery: 100 });
    expect((await first.call('/v1/events', { ...json(BRIGADED), key: first.keys.ingest })).status).toBe(200);
    const recommended = await ranking(first, 'reports', 'brigaded');
    await first.close(); // saves checkpoints, under the recommended parameters
    const again = await startTestService({ db, checkpointEvery: 100, defences: 'published' }, first.keys);
    try {
      expect(await ranking(again, 'reports', 'brigaded')).toEqual(await ranking(published, 'reports', 'brigaded'));
    } finally {
      await again.close();
    }
    const back = await startTestService({ db, checkpointEvery: 100 }, first.keys);
    try {
      expect(await ranking(back, 'reports', 'brigaded')).toEqual(recommended);
    } finally {
      await back.close();
    }
  });
});

describe('issue 28: what standing serve says at start', () => {
  it('names the defences it runs and the ones that engage per community; STANDING_DEFENCES=published runs none', async () => {
    for (const [env, expected] of [
      [{}, [/^ {2}defences: recommended: reliability \(repeatWeight=0\.5 minMatchMinutes=5\), chat \(partners=20\), reports \(sharedMatchDays=30 oneVoicePerMatch=true oneVoicePerReporter=true judgmentSplit=5 accuracyPrior=0\.1\)$/m, /^ {2}reports: sharedMatchDays and oneVoicePerMatch engage in each community at its first match\.start event/m]],
      [{ STANDING_DEFENCES: 'published' }, [/^ {2}defences: published: none, every scorer runs its paper's method/m]],
    ] as const) {
      const serve = await startServe(tempDb(), { env });
      try {
        for (const line of expected) expect(serve.out()).toMatch(line);
      } finally {
        await serve.stop();
      }
    }
  });
});
