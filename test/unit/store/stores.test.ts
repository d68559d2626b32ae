/**
 * Every port's conformance suite (standing/testing: eventLogSuite, checkpointSuite, …, which
 * eventStoreConformance composes) against a real SQLite file and a real PostgreSQL server
 * (127.0.0.1:5432, database `test`, each run in its own schema). Without a reachable PostgreSQL
 * the PostgreSQL tests are skipped, unless STANDING_REQUIRE_POSTGRES=1 (set by .ci/run) makes
 * them fail.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../../src/store/migrations.js';
import { alertPagesAfter } from '../../../src/store/pages.js';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { NewAlert } from '../../../src/store/types.js';
import {
  alertStoreSuite,
  checkpointSuite,
  claimStoreSuite,
  erasureSuite,
  eventLogSuite,
  keyStoreSuite,
  moderationIndexSuite,
  reporterIndexSuite,
  secretStoreSuite,
  storeLifecycleSuite,
  type FreshStore,
} from '../../../src/testing/index.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'standing-store-')), 'events.sqlite');

const backends: { name: string; skip: boolean; fresh: FreshStore }[] = [
  {
    name: 'SQLite file',
    skip: false,
    fresh: async () => {
      const path = sqliteFile();
      return () => openSqliteStore(path);
    },
  },
  {
    name: 'SQLite file, appends on a worker thread',
    skip: false,
    fresh: async () => {
      const path = sqliteFile();
      return () => openSqliteStore(path, { appendThread: true });
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable,
    fresh: async () => {
      const url = await freshPostgresUrl();
      return () => openPostgresStore(url);
    },
  },
];

for (const { name, skip, fresh } of backends) {
  const test = { describe: skip ? describe.skip : describe, it };
  eventLogSuite(name, fresh, test);
  checkpointSuite(name, fresh, test);
  keyStoreSuite(name, fresh, test);
  alertStoreSuite(name, fresh, test);
  moderationIndexSuite(name, fresh, test);
  erasureSuite(name, fresh, test);
  claimStoreSuite(name, fresh, test);
  secretStoreSuite(name, fresh, test);
  reporterIndexSuite(name, fresh, test);
  storeLifecycleSuite(name, fresh, test, { schemaVersion: LATEST_VERSION });
}

afterAll(dropPostgresSchemas);

describe('alertPagesAfter', () => {
  it('reads the alerts after an id 5,000 at a time, each once and in order', async () => {
    const store = openSqliteStore(sqliteFile());
    try {
      const alert: NewAlert = { community: 'c', scorer: 'cqr', player: 'p', threshold: 't', kind: 'raised', score: 0, sequence: 1, time: 0 };
      const [first] = await store.appendAlerts([alert]);
      await store.appendAlerts(Array.from({ length: 5_003 }, () => alert));
      const pages: number[][] = [];
      for await (const page of alertPagesAfter(store, { after: first!.id })) pages.push(page.map((a) => a.id));
      expect(pages.map((p) => p.length)).toEqual([5_000, 3]);
      expect(pages.flat()).toEqual(Array.from({ length: 5_003 }, (_, i) => first!.id + 1 + i));
    } finally {
      await store.close();
    }
  });
});

describe('schema migrations', () => {
  it('number one version per migration, the latest being the last', () => {
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('index checkpoints by community: replacing or loading one set reads only its rows', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'standing-index-')), 'events.sqlite');
    await openSqliteStore(path).close();
    const db = new Database(path, { readonly: true });
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('c') as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT name, part, chunk, text FROM checkpoint_chunks WHERE community = ?')).toMatch(/USING INDEX sqlite_autoindex_checkpoint_chunks_1/);
    expect(plan('DELETE FROM checkpoint_chunks WHERE community = ?')).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_checkpoint_chunks_1/);
    expect(plan('SELECT sequence FROM checkpoint_sets WHERE community = ?')).toMatch(/USING INDEX sqlite_autoindex_checkpoint_sets_1/);
    db.close();
  });

  it('upgrade a version-1 SQLite store in place, keeping its events and checkpoints', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'standing-upgrade-')), 'events.sqlite');
    const v1 = new Database(path);
    v1.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const statement of MIGRATIONS[0]!.sqlite) v1.exec(statement);
    v1.prepare('INSERT INTO schema_migrations VALUES (1, ?, ?)').run(MIGRATIONS[0]!.description, '2026-01-01T00:00:00.000Z');
    v1.prepare('INSERT INTO communities VALUES (?, 1)').run('default');
    v1.prepare('INSERT INTO events VALUES (?, 1, ?, ?, ?, ?)').run('default', 'e1', 'action', 5, JSON.stringify({ type: 'action', time: 5, community: 'default', id: 'e1', player: 'p', delta: 2 }));
    v1.prepare('INSERT INTO checkpoints VALUES (?, ?, 1, ?)').run('cqr', 'default', 'state');
    v1.close();

    const store = openSqliteStore(path);
    try {
      expect(await store.schemaVersion()).toBe(LATEST_VERSION);
      expect((await store.read('default')).map((s) => s.event)).toEqual([{ type: 'action', time: 5, community: 'default', id: 'e1', player: 'p', delta: 2 }]);
      expect(await store.loadCheckpoints('default')).toEqual({ sequence: 1, states: { cqr: 'state' } });
      expect(await store.listKeys()).toEqual([]); // the version-2 tables exist
      expect((await store.append([{ type: 'action', time: 6, community: 'default', id: 'e1', player: 'p', delta: 2 }])).duplicates).toBe(1);
    } finally {
      await store.close();
    }
  });
});
