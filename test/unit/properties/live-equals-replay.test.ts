/**
 * Issue 24, point 1: check, store, apply — and applying cannot fail. Random batches of raw
 * events (every type, moderator events, domain actions that conflict with their domain's state,
 * times years apart in any order, repeated ids, invalid events such as self-ratings) go into a
 * live engine over a real SQLite file, with erasures and restarts in between, per scorer (under
 * every parameter set of test/support/parameter-sets.ts) and per quality domain. Every batch is either
 * applied or refused with BatchRejectedError naming its bad indices (nothing else: no scorer or
 * domain error after storing), and after every step the live state — every scorer instance's
 * and the quality stage's snapshot of every community — equals a fresh replay of the stored log,
 * which itself applies every stored event (an erasure alone may leave a domain action the domain
 * now refuses, as docs/service.md says).
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchRejectedError, EventConflictError } from '../../../src/errors.js';
import { Engine, instantiate, type ScorerInstance } from '../../../src/engine/engine.js';
import { replayStoredEvent } from '../../../src/engine/replay.js';
import { SCORERS } from '../../../src/index.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { LiveEngine } from '../../../src/service/live-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { EventStore } from '../../../src/store/types.js';
import { batchesOf, DOMAIN_NAMES, rawLog, validEvents } from '../../support/arbitrary-events.js';
import { PARAMETER_SETS } from '../../support/parameter-sets.js';

const QUALITY = { domains: BUILTIN_DOMAINS, options: { forum: { forbiddenWords: 'idiot' } } };
const folder = mkdtempSync(join(tmpdir(), 'standing-live-replay-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

type Step = { kind: 'batch'; size: number } | { kind: 'erase'; player: string } | { kind: 'restart' };
const steps = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }).map((size): Step => ({ kind: 'batch', size })) },
    { weight: 1, arbitrary: fc.constantFrom('p0', 'p1', 'p2', 'gnubg').map((player): Step => ({ kind: 'erase', player })) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'restart' }) },
  ),
  { minLength: 1, maxLength: 12 },
);

/** Every instance's and the quality stage's snapshot of every community, as one text. */
function view(engine: Engine, communities: readonly string[]): string {
  return JSON.stringify(communities.map((c) => [engine.quality.snapshot(c) ?? null, ...engine.instances.map((i) => i.scorer.snapshot(i.state, c) ?? null)]));
}

/** A fresh replay of the stored log through new instances, and the errors of the events it left out. */
async function replayOf(store: EventStore, instances: () => ScorerInstance[]): Promise<{ view: string; skipped: unknown[] }> {
  const engine = new Engine(instances(), { quality: new QualityStage(QUALITY) });
  const skipped: unknown[] = [];
  const communities = await store.communities();
  for (const community of communities) {
    for (const { event } of await store.read(community)) {
      const left = replayStoredEvent(engine, event);
      if (left !== undefined) skipped.push(left.error);
    }
  }
  return { view: view(engine, communities), skipped };
}

async function run(instances: () => ScorerInstance[], raw: Record<string, unknown>[], plan: readonly Step[]): Promise<void> {
  const path = join(folder, `${files++}.sqlite`);
  const open = () => LiveEngine.open({ store: openSqliteStore(path), instances: instances(), quality: QUALITY, checkpointEvery: 5 });
  let live = await open();
  let erased = false;
  let at = 0;
  // The plan, then whatever of the log it left, in batches of eight.
  const rest = Math.ceil(Math.max(0, raw.length - plan.reduce((n, s) => n + (s.kind === 'batch' ? s.size : 0), 0)) / 8);
  const all: Step[] = [...plan, ...Array.from({ length: rest }, (): Step => ({ kind: 'batch', size: 8 }))];
  try {
    for (const step of all) {
      if (step.kind === 'batch') {
        const batch = raw.slice(at, (at += step.size));
        if (batch.length === 0) continue;
        const outcome = await live.ingest(batch).then(
          () => 'applied',
          (error: unknown) => error,
        );
        if (outcome !== 'applied') expect(outcome).toBeInstanceOf(BatchRejectedError);
      } else if (step.kind === 'erase') {
        await live.erase(step.player);
        erased = true;
      } else {
        await live.close();
        live = await open();
      }
      // SQLite answers at once, so without this a run would go on microtasks alone: vitest's own
      // messages (and their 60 s timeouts) wait for the event loop to turn.
      await setImmediate();
      const replayed = await replayOf(live.store, instances);
      expect(view(live.engine, await live.store.communities())).toBe(replayed.view);
      // Nothing stored is left out by a replay, but what an erasure took a domain action's ground from.
      for (const error of replayed.skipped) {
        expect(erased).toBe(true);
        expect(error).toBeInstanceOf(EventConflictError);
      }
    }
  } finally {
    await live.close();
  }
}

describe('issue 24: after every batch, erasure and restart, the live state equals a fresh replay of the store', () => {
  for (const [id, scorer] of Object.entries(SCORERS)) {
    it(`${id}, under every parameter set: every batch is applied or refused with its bad indices`, async () => {
      const instances = () => PARAMETER_SETS[id]!.map((params, n) => instantiate(scorer, params, `${id} #${n}`));
      await fc.assert(
        fc.asyncProperty(rawLog({ moderation: true }, 50), steps, (raw, plan) => run(instances, raw, plan)),
        { seed: 2400 + id.length, numRuns: 300 },
      );
    });
  }

  for (const domain of DOMAIN_NAMES) {
    it(`the ${domain} domain: a conflicting action refuses its batch, and nothing stored is left unapplied`, async () => {
      const instances = () => [instantiate(SCORERS.cqr!, { T: 4, x: 0, k: 4 }, 'cqr'), instantiate(SCORERS.reliability!, {}, 'reliability')];
      await fc.assert(
        fc.asyncProperty(rawLog({ domains: [domain] }, 50), steps, (raw, plan) => run(instances, raw, plan)),
        { seed: 2450 + domain.length, numRuns: 20 },
      );
    });
  }
});

describe('issue 24: batches cut at any point give one state', () => {
  it('the same events in other batches give the same live state', async () => {
    const instances = () => Object.entries(SCORERS).map(([id, scorer]) => instantiate(scorer, PARAMETER_SETS[id]!.at(-1)!, id));
    await fc.assert(
      fc.asyncProperty(rawLog({ moderation: true }, 40), fc.array(fc.nat(), { maxLength: 10 }), async (raw, cuts) => {
        // Valid events only (no domain actions, which may conflict): every batch must be applied, however cut.
        const events = validEvents(raw);
        const states: string[] = [];
        for (const batches of [[events], batchesOf(events, cuts)]) {
          const live = await LiveEngine.open({ store: openSqliteStore(join(folder, `${files++}.sqlite`)), instances: instances(), quality: QUALITY });
          for (const batch of batches) {
            await live.ingest(batch);
            await setImmediate();
          }
          states.push(view(live.engine, await live.store.communities()));
          await live.close();
        }
        expect(states[1]).toBe(states[0]);
      }),
      { seed: 2499, numRuns: 10 },
    );
  });
});
