/**
 * SQLite erasure and a reader (issue 14, point 7): a reader in the middle of a transaction (a
 * history thread's replay) keeps the WAL, so the truncation after an erasure cannot go through
 * at once. The erasure answers without waiting on the reader, and the erased bytes leave the WAL
 * once the reader is done.
 */
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { validateEvent } from '../../../src/events/validate.js';
import { eraseRewrite } from '../../../src/service/erasure.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import { sqlitePath } from '../service/support.js';

const ERASED = 'wal-erase-me-5b1e';

describe('issue 14: SQLite erasure while a reader holds the WAL', () => {
  it('answers at once, and truncates the WAL once the reader is done', async () => {
    const path = sqlitePath();
    const store = openSqliteStore(path);
    const reader = new Database(path, { readonly: true });
    try {
      await store.append(Array.from({ length: 20 }, (_, i) => validateEvent({ type: 'action', time: i, player: i % 2 === 0 ? ERASED : 'keeper', delta: i })));
      const bytes = () => ['', '-wal'].map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix) : Buffer.alloc(0)));
      expect(bytes().some((b) => b.includes(ERASED))).toBe(true);
      reader.prepare('BEGIN').run();
      expect(reader.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 20 }); // the reader's snapshot is open
      const outcome = await store.erase(ERASED, eraseRewrite(ERASED));
      expect(outcome.removed).toBe(10);
      expect(bytes()[1]!.includes(ERASED)).toBe(true); // the reader still holds the WAL
      reader.prepare('COMMIT').run();
      await vi.waitFor(() => expect(bytes().map((b) => b.includes(ERASED))).toEqual([false, false]), { timeout: 20_000, interval: 50 });
      expect(bytes()[0]!.includes('keeper')).toBe(true);
    } finally {
      reader.close();
      await store.close();
    }
  });
});
