/**
 * Checkpoints kept in chunks, against a real SQLite file and a real PostgreSQL server (skipped
 * without one, unless STANDING_REQUIRE_POSTGRES=1). The chunk size is lowered so that a small
 * checkpoint is cut as a large one would be.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { scorerById, type StandingEvent } from '../../../src/index.js';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { CheckpointSet, EventStore } from '../../../src/store/types.js';
import { scorerView } from '../../../src/testing/index.js';
import { stringifyExactParts } from '../../../src/util/json-parts.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable, postgresStoreAtVersion } from '../../support/postgres.js';

const CHUNK = 100;

interface Backend {
  readonly name: string;
  readonly skip: boolean;
  /** A new empty store, opened by `open` (again with each call, chunks of `chunk` characters). */
  fresh(): Promise<{ open(chunk?: number): Promise<EventStore>; chunks(): Promise<{ community: string; name: string; part: number; chunk: number; text: string }[]> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite file',
    skip: false,
    async fresh() {
      const path = join(mkdtempSync(join(tmpdir(), 'standing-chunks-')), 'events.sqlite');
      return {
        open: async (chunk) => openSqliteStore(path, { checkpointChunkChars: chunk }),
        async chunks() {
          const db = new Database(path, { readonly: true });
          try {
            return db.prepare('SELECT community, name, part, chunk, text FROM checkpoint_chunks ORDER BY community, name, part, chunk').all() as never;
          } finally {
            db.close();
          }
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable,
    async fresh() {
      const url = await freshPostgresUrl();
      return {
        open: (chunk) => openPostgresStore(url, { checkpointChunkChars: chunk }),
        async chunks() {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            return (await client.query('SELECT community, name, part, chunk, text FROM checkpoint_chunks ORDER BY community, name COLLATE "C", part, chunk')).rows as never;
          } finally {
            await client.end();
          }
        },
      };
    },
  },
];

afterAll(dropPostgresSchemas);

const cqr = scorerById('cqr')!;
const cqrParams = cqr.params.resolve({ T: 4, x: 5, k: 2 });

/** A cqr state of `players` players in community `c`. */
function cqrState(players: number): unknown {
  const state = cqr.initialState(cqrParams);
  for (let i = 0; i < players * 3; i++) {
    cqr.evolve(state, { type: 'action', community: 'c', time: 1_700_000_000_000 + i, player: `player-${i % players}`, delta: ((i * 37) % 61) - 30 } as StandingEvent);
  }
  return state;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`checkpoints in chunks: ${backend.name}`, () => {
    it('cuts a state longer than a chunk into chunks, and gives back the text and the parts it was given', async () => {
      const store = await backend.fresh();
      const long = `ab${'é😀'.repeat(40)}${'x'.repeat(CHUNK * 3)}😀`; // a surrogate pair where the first cut would fall
      const parts = ['{"layout"}', 'y'.repeat(CHUNK * 2 + 7), '', 'z'];
      const sets = new Map<string, CheckpointSet>([
        ['default', { sequence: 42, states: { cqr: long, trust: parts, quality: '' } }],
        ['eu', { sequence: 7, states: { cqr: 'short' } }],
      ]);
      let s = await store.open(CHUNK);
      await s.saveCheckpointSets(sets);
      expect(await s.loadCheckpointSets(['default', 'eu'])).toEqual(sets);
      expect(await s.loadCheckpoints('default')).toEqual(sets.get('default'));
      await s.close();

      const rows = await store.chunks();
      for (const row of rows) expect(row.text.length).toBeLessThanOrEqual(CHUNK);
      const of = (name: string) => rows.filter((r) => r.community === 'default' && r.name === name);
      expect(of('cqr').length).toBe(Math.ceil(long.length / CHUNK));
      expect(of('cqr')[0]!.text.length).toBe(CHUNK - 1); // the pair is not cut
      for (const row of of('cqr')) expect(/[\uD800-\uDBFF]$/.test(row.text)).toBe(false);
      expect(of('cqr').map((r) => r.text).join('')).toBe(long);
      expect(of('trust').map((r) => [r.part, r.chunk])).toEqual([[0, 0], [1, 0], [1, 1], [1, 2], [2, 0], [3, 0]]);
      expect(of('quality').map((r) => r.text)).toEqual(['']);

      // Read back the same with any chunk size; a replacement leaves no chunk of the set it replaces.
      s = await store.open();
      try {
        expect(await s.loadCheckpointSets(['eu', 'default'])).toEqual(sets);
        await s.saveCheckpoints('default', { sequence: 50, states: { cqr: 'again' } });
        expect(await s.loadCheckpoints('default')).toEqual({ sequence: 50, states: { cqr: 'again' } });
        expect((await store.chunks()).map((r) => [r.community, r.name, r.text])).toEqual([
          ['default', 'cqr', 'again'],
          ['eu', 'cqr', 'short'],
        ]);
      } finally {
        await s.close();
      }
    });

    it('keeps long and short states of many communities together, at the default chunk size', async () => {
      const store = await backend.fresh();
      const s = await store.open();
      try {
        const long = Array.from({ length: 30_000 }, (_, i) => `"p${i}"`).join(','); // longer than the rows written in bulk
        const sets = new Map<string, CheckpointSet>(Array.from({ length: 40 }, (_, c) => [`c${c}`, { sequence: c + 1, states: { cqr: c % 10 === 0 ? [long, `{"n":${c}}`] : `{"n":${c}}`, chat: '' } }]));
        await s.saveCheckpointSets(sets);
        expect(await s.loadCheckpointSets([...sets.keys()])).toEqual(sets);
      } finally {
        await s.close();
      }
    });

    it('a scorer state written in parts round-trips through the store and restores exactly', async () => {
      const store = await backend.fresh();
      const s = await store.open(CHUNK);
      try {
        const state = cqrState(300);
        const snapshot = cqr.snapshot(state, 'c');
        expect(typeof snapshot).toBe('string'); // small enough for one part at the default size
        // The same state cut as one too long for a string would be, at a lowered part size.
        const parts = stringifyExactParts(JSON.parse(snapshot as string), 1_000);
        expect(parts.length).toBeGreaterThan(5);
        await s.saveCheckpoints('c', { sequence: 900, states: { cqr: parts } });
        const loaded = await s.loadCheckpoints('c');
        expect(loaded!.states['cqr']).toEqual(parts);
        const restored = cqr.initialState(cqrParams);
        cqr.restore(restored, 'c', loaded!.states['cqr']);
        expect(scorerView(cqr, restored, ['c'], ['player-7'])).toBe(scorerView(cqr, state, ['c'], ['player-7']));
      } finally {
        await s.close();
      }
    });

    it('erasure drops the checkpoint of a community it changes, every chunk of it', async () => {
      const store = await backend.fresh();
      const s = await store.open(CHUNK);
      try {
        await s.append([{ type: 'action', community: 'default', time: 1, player: 'ann', delta: 1 }]);
        await s.saveCheckpoints('default', { sequence: 1, states: { cqr: 'a'.repeat(CHUNK * 4) } });
        await s.saveCheckpoints('eu', { sequence: 1, states: { cqr: 'kept' } });
        await s.erase('ann', () => null);
        expect(await s.loadCheckpoints('default')).toBeUndefined();
        expect((await store.chunks()).map((r) => r.community)).toEqual(['eu']);
      } finally {
        await s.close();
      }
    });
  });
}

describe.skipIf(!postgresAvailable)('checkpoints of an earlier PostgreSQL store', () => {
  it('upgrades a version-4 PostgreSQL store in place, keeping its checkpoints', async () => {
    const url = await postgresStoreAtVersion(4, async (client) => {
      await client.query("INSERT INTO checkpoints (scorer, community, sequence, state) VALUES ('cqr', 'default', 3, '{\"s\":1}'), ('chat', 'default', 3, '')");
    });
    const store = await openPostgresStore(url);
    try {
      expect(await store.loadCheckpoints('default')).toEqual({ sequence: 3, states: { cqr: '{"s":1}', chat: '' } });
    } finally {
      await store.close();
    }
  });
});
