/** Usage errors, a taken port, and the demo's keys, through the built `standing` binary. */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startDemo, TABLE1_LOG, type RunningDemo } from '../support/cli.js';

const dir = () => mkdtempSync(join(tmpdir(), 'standing-cli-ops-'));

describe('usage errors exit 2 with standing: …', () => {
  it.each([
    [['rank', 'cqr', TABLE1_LOG, '--colour'], "standing: unknown option '--colour'"],
    [['rank'], "standing: missing required argument 'scorer'"],
    [['rank', 'cqr', TABLE1_LOG, 'extra'], 'standing: too many arguments for \'rank\''],
    [['no-such-command'], "standing: unknown command 'no-such-command'"],
    [['keys', 'create'], "standing: required option '--scope <scopes>' not specified"],
    [['serve', '--port'], "standing: option '--port <port>' argument missing"],
  ])('%j', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(message);
    expect(result.stderr).not.toMatch(/^error:/m);
  });

  it('help and --version still exit 0', async () => {
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['rank', '--help'])).code).toBe(0);
  });
});

describe('standing serve on a taken port', () => {
  it('prints one line naming the port and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await runCli(['serve', '--db', join(dir(), 's.sqlite'), '--port', String(port), '--log-level', 'silent']);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`standing: port ${port} on 127.0.0.1 is in use\n`);
    } finally {
      taken.close();
    }
  });
});

/** Starts `serve --demo` on `db`, returns its URL and keys once it printed them, and stops it. */
async function demoStart(db: string): Promise<RunningDemo> {
  const demo = await startDemo(db);
  expect(await demo.stop()).toBe(0);
  return demo;
}

describe('standing serve --demo keys', () => {
  it('revokes the keys the previous demo start made, never an operator key, and reserves their labels', async () => {
    const db = join(dir(), 'demo.sqlite');
    const operator = await runCli(['keys', 'create', '--scope', 'read', '--label', 'demo dashboard', '--db', db]);
    expect(operator.code).toBe(0);
    const operatorId = operator.stdout.trim().slice(4, 16);
    const first = await demoStart(db);
    const second = await demoStart(db);
    expect(second.out).toContain('3 earlier demo keys revoked');
    const list = (await runCli(['keys', 'list', '--db', db])).stdout.split('\n');
    const row = (key: string) => list.find((line) => line.includes(key.slice(4, 16)))!;
    for (const old of [first.read, first.ingest, first.moderator]) expect(row(old)).toMatch(/\d{4}-\d\d-\d\dT.*\d{4}-\d\d-\d\dT/); // created and revoked
    for (const fresh of [second.read, second.ingest, second.moderator]) expect(row(fresh)).not.toMatch(/\d{4}-\d\d-\d\dT.*\d{4}-\d\d-\d\dT/);
    expect(row(`stk_${operatorId}`)).not.toMatch(/\d{4}-\d\d-\d\dT.*\d{4}-\d\d-\d\dT/);
    expect(list.filter((line) => / demo (read|ingest|moderator) key /.test(line))).toHaveLength(6);
    const moderatorLabel = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'demo moderator key', '--db', db]);
    expect(moderatorLabel.code).toBe(2);
    const tooLong = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'x'.repeat(129), '--db', db]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('--label: 129 characters; a label holds at most 128');
    const reserved = await runCli(['keys', 'create', '--scope', 'read', '--label', 'demo read key', '--db', db]);
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toContain('--label: "demo read key" is reserved');
  });
});
