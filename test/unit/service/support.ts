/** Shared pieces of the service tests: the five scorers, a real SQLite file, a full-replay oracle. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, instantiate, type ScorerInstance } from '../../../src/engine/engine.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { scorerById } from '../../../src/scorers/index.js'
import { LiveEngine } from '../../../src/service/live-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { EventStore } from '../../../src/store/types.js';

export const PARAMS: Record<string, Record<string, unknown>> = {
  cqr: { T: 4, x: 5, k: 2 },
  reliability: { keepDays: 60 },
  chat: { recipe: 1 },
  trust: { observers: 'p0,p1', ttlMax: 24 * 50 },
  reports: {},
};

export const QUALITY = { domains: BUILTIN_DOMAINS, options: { forum: { forbiddenWords: 'idiot' } } };

export function freshInstances(): ScorerInstance[] {
  return Object.entries(PARAMS).map(([id, params]) => instantiate(scorerById(id)!, params));
}

export function sqlitePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'standing-live-')), 'events.sqlite');
}

export async function openLive(store: EventStore, checkpointEvery = 10_000): Promise<LiveEngine> {
  return LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY, checkpointEvery });
}

export function openSqlite(path: string): EventStore {
  return openSqliteStore(path);
}

/** Every instance's snapshot of every community, after replaying the whole stored log from nothing. */
export async function fullReplay(store: EventStore): Promise<string> {
  const engine = new Engine(freshInstances(), { quality: new QualityStage(QUALITY) });
  for (const community of await store.communities()) {
    for (const { event } of await store.read(community)) {
      let resolved;
      try {
        resolved = engine.resolve(event);
      } catch {
        continue;
      }
      if (resolved !== null) engine.evolve(resolved);
    }
  }
  return view(engine, await store.communities());
}

/** The instances' states, community by community, as one comparable text. */
export function view(engine: Engine, communities: readonly string[]): string {
  return JSON.stringify(communities.map((c) => engine.instances.map((i) => [i.name, i.scorer.snapshot(i.state, c) ?? null])));
}
