/**
 * Heavy reads against a real server: history replays off the event loop (the service answers
 * /healthz and ingest while one runs), at most `maxHistoryJobs` at once with a 503 naming the
 * limit beyond, and the same points as a straightforward replay; explanations paged with their
 * total; rankings of iterative scorers with iterations, residual and converged, also in /metrics.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { instantiate } from '../../../src/engine/engine.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { scorerById } from '../../../src/scorers/index.js'
import { HistoryJobs } from '../../../src/service/history-jobs.js';
import type { HistoryJob, HistoryPoint } from '../../../src/service/history.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';
import { json, startTestService, type TestService } from '../support.js';

/** The trust instance of the small community, URL-encoded. */
const TRUST = encodeURIComponent('trust observers=mod');
const T0 = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;

interface Point {
  sequence: number;
  time: number;
  score: number | null;
  rank: number | null;
}

async function body<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A small mixed log: actions, chats, ratings, reports, played counts and matches among six players. */
function smallLog(): Record<string, unknown>[] {
  const players = ['ann', 'bob', 'cid', 'dee', 'eve', 'mod'];
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < 72; i++) {
    const a = players[Math.floor(i / 6) % 6]!;
    const b = players[(Math.floor(i / 6) + 1 + (i % 5)) % 6]!;
    const time = T0 + i * HOUR;
    const kind = i % 6;
    if (kind === 0) events.push({ type: 'action', time, player: a, delta: (i % 7) * 5 - 12 });
    else if (kind === 1) events.push({ type: 'rating', time, from: a, to: b, value: i % 4 === 1 ? -1 : 1 });
    else if (kind === 2) events.push({ type: 'chat', time, from: a, to: [b] });
    else if (kind === 3) events.push({ type: 'report', time, from: a, to: b });
    else if (kind === 4) events.push({ type: 'played', time, player: a, games: 2 });
    else events.push({ type: 'match.start', time, match: `m${i}`, players: [a, b] }, { type: 'match.end', time: time + 1000, match: `m${i}` });
  }
  // `target` is rated by 150 raters (a long explanation), some of them trusted by mod.
  for (let i = 0; i < 150; i++) events.push({ type: 'rating', time: T0 + 73 * HOUR, from: `r${i}`, to: 'target', value: i % 3 === 0 ? -1 : 1 });
  for (let i = 0; i < 10; i++) events.push({ type: 'rating', time: T0 + 73 * HOUR, from: 'mod', to: `r${i}`, value: 1 });
  return events;
}

/**
 * Holds the history jobs the service starts until `release()`: each job is posted to its thread
 * and replayed as usual, but its answer is kept back, so the service counts it running
 * (`HistoryJobs.active`, joins, 503s) for as long as a test needs, with no race against its end.
 */
function holdHistoryJobs() {
  const prototype = HistoryJobs.prototype as unknown as {
    run(job: HistoryJob): Promise<HistoryPoint[]>;
    history(this: HistoryJobs, ...args: Parameters<HistoryJobs['history']>): Promise<HistoryPoint[]>;
  };
  const { run, history } = prototype;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: (jobs: HistoryJobs) => void;
  const jobs = new Promise<HistoryJobs>((resolve) => (started = resolve));
  let runs = 0;
  let asked = 0;
  const waiting: { n: number; resolve(): void }[] = [];
  const runSpy = vi.spyOn(prototype, 'run').mockImplementation(async function (this: HistoryJobs, job: HistoryJob) {
    runs++;
    started(this);
    const points = await run.call(this, job);
    await released;
    return points;
  });
  const historySpy = vi.spyOn(prototype, 'history').mockImplementation(function (this: HistoryJobs, ...args) {
    const answer = history.apply(this, args);
    asked++;
    for (const w of waiting.filter((w) => w.n <= asked)) w.resolve();
    return answer;
  });
  return {
    /** The service's history jobs, once the first job has started. */
    jobs,
    /** Jobs started so far (each a replay on a thread). */
    runs: () => runs,
    /** Resolves once the service has taken `n` history requests (from the cache, joined, refused or started). */
    asked: (n: number) => new Promise<void>((resolve) => (asked >= n ? resolve() : waiting.push({ n, resolve }))),
    release,
    /** Lets every held job answer and puts the service's own methods back. */
    restore() {
      release();
      runSpy.mockRestore();
      historySpy.mockRestore();
    },
  };
}

describe('heavy reads: history, explanations and convergence on a small community', () => {
  let t: TestService;
  const SCORER_ENTRIES = [
    { scorer: 'cqr' },
    { scorer: 'reliability' },
    { scorer: 'chat' },
    { scorer: 'reports' },
    { scorer: 'trust', params: { observers: 'mod' } },
    { scorer: 'trust', params: { observers: 'mod', maxIterations: 1 }, name: 'trust capped' },
  ];

  beforeAll(async () => {
    t = await startTestService({ scorers: SCORER_ENTRIES, defences: 'published' }); // the replays below instantiate the published methods
    expect((await t.call('/v1/events', { ...json(smallLog()), key: t.keys.ingest })).status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
  });

  /**
   * The history a straightforward replay gives: for each sampled sequence, a fresh instance fed
   * the log up to it, ranked whole; after an erasure, the last stored event at or before it.
   */
  async function straightforward(entry: (typeof SCORER_ENTRIES)[number], player: string, points: number, service: TestService = t): Promise<Point[]> {
    const stored = await service.service.store.read('default');
    const last = stored.at(-1)!.sequence;
    const targets = Array.from({ length: points }, (_, k) => Math.ceil(((k + 1) * last) / points));
    const sampled = [...new Set(targets.map((target) => stored.filter((s) => s.sequence <= target).at(-1)?.sequence).filter((s) => s !== undefined))];
    return sampled.map((sequence) => {
      const instance = instantiate(scorerById(entry.scorer)!, entry.params ?? {});
      const stage = new QualityStage({ domains: BUILTIN_DOMAINS });
      for (const { event } of stored.filter((s) => s.sequence <= sequence)) {
        const resolved = stage.resolve(event);
        if (resolved !== null) instance.scorer.evolve(instance.state, resolved);
      }
      const row = instance.scorer.rank(instance.state, { community: 'default' }).find((r) => r.player === player);
      return { sequence, time: stored.find((s) => s.sequence === sequence)!.event.time, score: row?.score ?? null, rank: row?.rank ?? null };
    });
  }

  it('history gives the points a straightforward replay gives, for every scorer', async () => {
    const names = ((await body<{ scorers: { name: string }[] }>(await t.call('/v1/scorers', { key: t.keys.read }))).scorers).map((s) => s.name);
    for (const [i, entry] of SCORER_ENTRIES.entries()) {
      for (const [player, points] of [['bob', 7], ['eve', 200], ['target', 3]] as const) {
        const response = await t.call(`/v1/players/${player}/history?scorer=${encodeURIComponent(names[i]!)}&points=${points}`, { key: t.keys.read });
        expect(response.status).toBe(200);
        const answer = await body<{ points: Point[]; sequence: number }>(response);
        expect(answer.points, `${names[i]} ${player} points=${points}`).toEqual(await straightforward(entry, player, points));
        if (player === 'bob') expect(answer.points.some((p) => p.score !== null && p.rank !== null)).toBe(true);
      }
    }
  });

  it('explain pages its list, says the total, and the pages make up the whole list', async () => {
    const get = async (query: string) => {
      const response = await t.call(`/v1/players/target/explain?scorer=${TRUST}&${query}`, { key: t.keys.read });
      expect(response.status).toBe(200);
      return body<{ page: { list: string; total: number; offset: number; limit: number; order: string }; explanation: { ratings: { rater: string }[]; score: number } }>(response);
    };
    const whole = await get('limit=1000');
    expect(whole.page).toEqual({ list: 'ratings', total: 150, offset: 0, limit: 1000, order: 'asc' });
    expect(whole.explanation.ratings).toHaveLength(150);
    const first = await get('');
    expect(first.page).toMatchObject({ total: 150, offset: 0, limit: 100 }); // the default limit
    expect(first.explanation.ratings).toEqual(whole.explanation.ratings.slice(0, 100));
    expect(first.explanation.score).toBe(whole.explanation.score);
    const pages = [];
    for (let offset = 0; offset < 150; offset += 60) pages.push(...(await get(`limit=60&offset=${offset}`)).explanation.ratings);
    expect(pages).toEqual(whole.explanation.ratings);
    const last = await get('limit=25&order=desc');
    expect(last.page).toMatchObject({ total: 150, order: 'desc' });
    expect(last.explanation.ratings).toEqual(whole.explanation.ratings.slice(-25).reverse());
    expect((await get('offset=500')).explanation.ratings).toEqual([]);
    const tooMany = await t.call(`/v1/players/target/explain?scorer=${TRUST}&limit=1001`, { key: t.keys.read });
    expect(tooMany.status).toBe(400);
    expect(await body<{ message: string }>(tooMany)).toMatchObject({ error: 'REQUEST_INVALID', message: expect.stringContaining('limit') });
    // Every scorer's list is paged, its total the length of bob's whole list as the log makes it.
    const log = smallLog();
    const toBob = (type: string) => log.filter((e) => e.type === type && (e.to === 'bob' || (Array.isArray(e.to) && e.to.includes('bob'))));
    const bobLists = [
      // cqr: bob's actions (deltas 18 and -12, both kept by the |Δ| ≥ 10 filter; fewer than the window of 8).
      ['cqr', 'window', log.filter((e) => e.type === 'action' && e.player === 'bob').length],
      // reliability: one finish per match bob played (all ended, none older than keepDays).
      ['reliability', 'events', log.filter((e) => e.type === 'match.start' && (e.players as string[]).includes('bob')).length],
      // chat: the distinct players who chatted to bob (fewer than the list's 5 places).
      ['chat', 'senders', new Set(toBob('chat').map((e) => e.from)).size],
      // reports: one entry per report of bob.
      ['reports', 'reportedBy', toBob('report').length],
    ] as const;
    expect(bobLists.map(([, , total]) => total)).toEqual([2, 5, 2, 1]);
    for (const [scorer, list, total] of bobLists) {
      const answer = await body<{ page: { list: string; total: number }; explanation: Record<string, unknown[]> }>(
        await t.call(`/v1/players/bob/explain?scorer=${scorer}&limit=1`, { key: t.keys.read }),
      );
      expect(answer.page?.list, `${scorer}: ${JSON.stringify(answer)}`).toBe(list);
      expect(answer.page, scorer).toMatchObject({ total, offset: 0, limit: 1 });
      expect(answer.explanation[list], scorer).toHaveLength(1);
      const whole = await body<{ page: { total: number }; explanation: Record<string, unknown[]> }>(await t.call(`/v1/players/bob/explain?scorer=${scorer}&limit=1000`, { key: t.keys.read }));
      expect(whole.page.total, scorer).toBe(total);
      expect(whole.explanation[list], scorer).toHaveLength(total);
    }
  });

  it('rankings of iterative scorers say how their computation ended, and /metrics counts it', async () => {
    const ranking = async (scorer: string) => body<Record<string, unknown>>(await t.call(`/v1/rankings/${encodeURIComponent(scorer)}`, { key: t.keys.read }));
    for (const scorer of ['trust observers=mod', 'reports']) {
      const answer = await ranking(scorer);
      expect(answer, scorer).toMatchObject({ iterations: expect.any(Number), residual: expect.any(Number), converged: true });
      expect(answer.iterations as number).toBeGreaterThan(0);
    }
    const capped = await ranking('trust capped');
    expect(capped).toMatchObject({ iterations: 1, converged: false });
    expect(capped.residual as number).toBeGreaterThan(0);
    const personal = await body<Record<string, unknown>>(await t.call(`/v1/rankings/${TRUST}?params=observers=ann&community=default`, { key: t.keys.read }));
    expect(personal).toMatchObject({ iterations: expect.any(Number), converged: expect.any(Boolean) });
    const cqr = await ranking('cqr');
    expect(cqr).not.toHaveProperty('converged');
    const metrics = await (await t.call('/metrics', { key: t.keys.read })).text();
    expect(metrics).toContain('standing_scorer_converged{scorer="trust capped"} 0');
    expect(metrics).toContain('standing_scorer_iterations{scorer="trust capped"} 1');
    expect(metrics).toMatch(/standing_scorer_computations_total\{scorer="trust capped",converged="false"\} [1-9]/);
    expect(metrics).toContain('standing_scorer_unconverged_communities{scorer="trust capped"} 1');
    expect(metrics).toContain('standing_scorer_converged{scorer="reports"} 1');
    expect(metrics).not.toContain('standing_scorer_converged{scorer="cqr"}');
  });

  it('an erasure forgets the cached histories of its communities', async () => {
    // A service of its own: the erasure changes the log the other tests read.
    const s = await startTestService({ scorers: SCORER_ENTRIES, defences: 'published' });
    try {
      expect((await s.call('/v1/events', { ...json(smallLog()), key: s.keys.ingest })).status).toBe(200);
      const ask = async () => body<{ points: Point[] }>(await s.call('/v1/players/bob/history?scorer=reports&points=9', { key: s.keys.read }));
      const before = await ask();
      expect(before.points).toEqual(await straightforward(SCORER_ENTRIES[3]!, 'bob', 9, s));
      expect((await s.call('/v1/players/dee', { method: 'DELETE', key: s.keys.admin })).status).toBe(200);
      const after = await ask();
      expect(after.points).toEqual(await straightforward(SCORER_ENTRIES[3]!, 'bob', 9, s));
      expect(after.points).not.toEqual(before.points);
    } finally {
      await s.close();
    }
  });
});

describe('heavy reads: history jobs on a larger community', () => {
  let t: TestService;
  const PLAYERS = 2000;

  beforeAll(async () => {
    t = await startTestService({ scorers: [{ scorer: 'cqr' }, { scorer: 'trust', params: { observers: 'p0,p1' } }], maxHistoryJobs: 1 });
    // 30,000 events, two thirds ratings: a history of trust at 200 points is a real replay (the tests hold its answer back, see holdHistoryJobs).
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let b = 0; b < 3; b++) {
      const events: Record<string, unknown>[] = [];
      for (let i = 0; i < 10_000; i++) {
        const time = T0 + (b * 10_000 + i) * 1000;
        const from = next(PLAYERS);
        if (i % 3 === 0) events.push({ type: 'action', time, player: `p${from}`, delta: next(61) - 30 });
        else events.push({ type: 'rating', time, from: `p${from}`, to: `p${(from + 1 + next(40)) % PLAYERS}`, value: next(5) === 0 ? -1 : 1 });
      }
      expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  const history = (player: string, points = 200) => t.call(`/v1/players/${player}/history?scorer=trust&points=${points}`, { key: t.keys.read });

  it('answers /healthz and ingest elsewhere while a history job runs', async () => {
    const hold = holdHistoryJobs();
    try {
      let settled = false;
      const job = history('p5').then((response) => {
        settled = true;
        return response;
      });
      const jobs = await hold.jobs; // the service has posted the replay to its thread
      expect(jobs.active).toBe(1);
      const health = await t.call('/healthz');
      expect(health.status).toBe(200);
      const ingest = await t.call('/v1/events', { ...json([{ type: 'action', time: T0, player: 'x', delta: 1, community: 'elsewhere' }]), key: t.keys.ingest });
      expect(ingest.status).toBe(200);
      // Both were answered while the service still counted the history job running, its request unanswered.
      expect(jobs.active).toBe(1);
      expect(settled).toBe(false);
      hold.release();
      const answer = await job;
      expect(answer.status).toBe(200);
      const { points, sequence } = await body<{ points: Point[]; sequence: number }>(answer);
      expect(points).toHaveLength(200);
      expect(sequence).toBe(30_000); // the ingest elsewhere left this community's log as it was
      expect(points.at(-1)!.sequence).toBe(30_000);
      expect(jobs.active).toBe(0);
    } finally {
      hold.restore();
    }
  });

  it('refuses a history beyond maxHistoryJobs with 503 naming the limit, and joins the same history running', async () => {
    const hold = holdHistoryJobs();
    try {
      const first = history('p6');
      const jobs = await hold.jobs;
      expect(jobs.active).toBe(1);
      const refused = await history('p7');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await body<unknown>(refused)).toEqual({
        error: 'HISTORY_BUSY',
        message: '1 history job is running, the most maxHistoryJobs (1) allows: retry later',
        limit: 1,
      });
      // The same history asked for while it runs joins it: no second replay starts.
      const same = history('p6');
      await hold.asked(3);
      expect(hold.runs()).toBe(1);
      expect(jobs.active).toBe(1);
      hold.release();
      const [a, b] = await Promise.all([first, same]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const answer = await body<{ player: string; points: Point[] }>(a);
      expect(answer).toMatchObject({ player: 'p6', points: expect.any(Array) as unknown });
      expect(answer.points).toHaveLength(200);
      expect(await body<unknown>(b)).toEqual(answer);
      expect(hold.runs()).toBe(1);
      // Once the job is done, another history runs.
      expect(jobs.active).toBe(0);
      expect((await history('p7', 10)).status).toBe(200);
      expect(hold.runs()).toBe(2);
    } finally {
      hold.restore();
    }
  });
});

describe.skipIf(!postgresAvailable)('heavy reads on PostgreSQL', () => {
  afterAll(dropPostgresSchemas);

  it('replays history on its thread over its own PostgreSQL connection', async () => {
    const t = await startTestService({ db: await freshPostgresUrl() });
    try {
      const events = Array.from({ length: 12 }, (_, i) => ({ type: 'action', time: T0 + i, player: `p${i % 3}`, delta: i % 3 === 2 ? -40 : 15 }));
      expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
      const answer = await body<{ points: Point[] }>(await t.call('/v1/players/p2/history?scorer=cqr&points=4', { key: t.keys.read }));
      expect(answer.points.map((p) => [p.sequence, p.score, p.rank])).toEqual([
        [3, -40, 3],
        [6, -80, 3],
        [9, -120, 3],
        [12, -160, 3],
      ]);
    } finally {
      await t.close();
    }
  });
});
