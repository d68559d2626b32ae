/** issue 28: `standing keys create` with the new scopes and --community, as a real child process on a real SQLite file. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { runCli } from '../support/cli.js';

const db = () => join(mkdtempSync(join(tmpdir(), 'standing-keys-')), 'keys.sqlite');

describe('issue 28: standing keys create --scope senior|player-view --community', () => {
  it('creates a key restricted to the communities named, says so, and lists them', async () => {
    const file = db();
    const made = await runCli(['keys', 'create', '--scope', 'senior,player-view', '--label', 'EU team', '--community', 'eu', '--community', 'na, west', '--db', file]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^stk_[A-Za-z0-9]{12}_\S{43}\n$/);
    expect(made.stderr).toMatch(/^key [A-Za-z0-9]{12} \(senior, player-view in "eu", "na, west" only\) created; it is not shown again\n$/);
    const id = made.stdout.slice(4, 16);
    const store = openSqliteStore(file);
    try {
      expect(await store.findKey(id)).toMatchObject({ scopes: ['senior', 'player-view'], label: 'EU team', communities: ['eu', 'na, west'] });
    } finally {
      await store.close();
    }
    const unrestricted = await runCli(['keys', 'create', '--scope', 'read', '--db', file]);
    const list = (await runCli(['keys', 'list', '--db', file])).stdout.split('\n');
    expect(list.find((line) => line.includes(id))).toContain('"eu" "na, west"');
    expect(list.find((line) => line.includes(unrestricted.stdout.slice(4, 16)))).toMatch(/ every /);
  });

  it('refuses a blank community, and a label that would pass for a rule, naming the flag', async () => {
    const file = db();
    const blank = await runCli(['keys', 'create', '--scope', 'moderate', '--community', ' ', '--db', file]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--community: a community name is blank');
    const rule = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'rule:spam', '--db', file]);
    expect(rule.code).toBe(2);
    expect(rule.stderr).toContain('--label: "rule:spam" begins with "rule:", which names moderation rules in moderator events');
    const unknown = await runCli(['keys', 'create', '--scope', 'junior', '--db', file]);
    expect(unknown.stderr).toContain('--scope: "junior" is not one of ingest, read, moderate, senior, player-view, admin');
  });
});
