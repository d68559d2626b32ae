/**
 * SQLite's moderation indexes (migration 10): partial on an OR of the moderator types, so that
 * appending an event no longer builds the types' list again for every row (an `IN` list in a
 * partial index's WHERE made SQLite open an ephemeral table per index and row), and every
 * moderation query still finds its index, as it must repeat the index's condition exactly.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { moderationQuerySql, SQLITE_JSON } from '../../../src/store/moderation-rows.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';

async function freshDb(): Promise<Database.Database> {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-moderation-index-')), 'events.sqlite');
  await openSqliteStore(path).close();
  return new Database(path, { readonly: true });
}

describe('issue 27: SQLite moderation indexes', () => {
  it('appending an event opens no ephemeral table (the IN list once rebuilt per row)', async () => {
    const db = await freshDb();
    const opcodes = (db.prepare('EXPLAIN INSERT INTO events (community, sequence, event_id, type, time, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING').all('c', 1, 'e1', 'action', 1, '{}') as { opcode: string }[]).map((r) => r.opcode);
    expect(opcodes.filter((o) => o === 'IdxInsert').length).toBeGreaterThanOrEqual(3);
    expect(opcodes).not.toContain('OpenEphemeral');
    const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'events_moderation%' ORDER BY name").all() as { name: string; sql: string }[];
    expect(indexes.map((i) => i.name)).toEqual(['events_moderation', 'events_moderation_by_moderator', 'events_moderation_by_player']);
    for (const i of indexes) expect(i.sql).toContain("WHERE (type = 'verdict' OR type = 'note' OR type = 'sanction' OR type = 'appeal' OR type = 'rule')");
    db.close();
  });

  it('the moderation queries (listing, by player, by moderator) each use their partial index', async () => {
    const db = await freshDb();
    const plan = (query: Parameters<typeof moderationQuerySql>[0]) => {
      const { sql, values } = moderationQuerySql(query, SQLITE_JSON, () => '?');
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(values as unknown[])) as { detail: string }[]).map((r) => r.detail).join('; ');
    };
    expect(plan({ limit: 50 })).toMatch(/USING INDEX events_moderation\b/);
    expect(plan({ player: 'p1', community: 'c', limit: 50 })).toMatch(/USING INDEX events_moderation_by_player/);
    expect(plan({ moderator: 'k1', limit: 50 })).toMatch(/USING INDEX events_moderation_by_moderator/);
    db.close();
  });
});
