/** `standing keys` and `standing serve` as real processes. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, startDemo } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';

const dir = () => mkdtempSync(join(tmpdir(), 'standing-cli-service-'));

describe('standing keys', () => {
  it('creates a key printed once, lists keys without secrets, and revokes one', async () => {
    const db = join(dir(), 'k.sqlite');
    const created = await runCli(['keys', 'create', '--scope', 'read,ingest', '--label', 'game server', '--db', db]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^stk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(/\(ingest, read\)|\(read, ingest\)/);
    const id = key.slice(4, 16);
    const list = await runCli(['keys', 'list', '--db', db]);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('game server');
    expect(list.stdout).not.toContain(key.slice(17));
    expect((await runCli(['keys', 'revoke', id, '--db', db])).code).toBe(0);
    expect((await runCli(['keys', 'list', '--db', db])).stdout).toMatch(new RegExp(`${id}.*\\d{4}-\\d\\d-\\d\\dT.*\\d{4}-\\d\\d-\\d\\dT`));
    const again = await runCli(['keys', 'revoke', id, '--db', db]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`no active key "${id}"`);
  });

  it('refuses an unknown scope', async () => {
    const result = await runCli(['keys', 'create', '--scope', 'root', '--db', join(dir(), 'k.sqlite')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--scope: "root" is not one of ingest, read, moderate, senior, player-view, admin');
  });
});

describe('standing serve: configuration errors stop it at start, naming where and why', () => {
  it('a bad flag', async () => {
    const result = await runCli(['serve', '--port', 'eighty', '--db', join(dir(), 's.sqlite')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('standing: --port: port must be a port number, got "eighty"\n');
  });

  it('an unknown key, a bad value and a bad threshold in a file', async () => {
    const d = dir();
    const file = (name: string, body: unknown) => {
      writeFileSync(join(d, name), JSON.stringify(body));
      return join(d, name);
    };
    const unknown = await runCli(['serve', '--config', file('a.json', { prot: 1 })]);
    expect(unknown.stderr).toBe(`standing: ${join(d, 'a.json')}: prot is not a configuration key, got 1\n`);
    const param = await runCli(['serve', '--config', file('b.json', { scorers: [{ scorer: 'cqr', params: { T: 3 } }] })]);
    expect(param.stderr).toMatch(/b\.json: scorers\[0\]\.params\.k .*T/);
    const threshold = await runCli(['serve', '--config', file('c.json', { alerts: { thresholds: [{ name: 'x', scorer: 'trust', below: 0 }] } })]);
    expect(threshold.stderr).toContain('alerts.thresholds[0].scorer "trust" is neither a configured scorer');
    expect([unknown.code, param.code, threshold.code]).toEqual([1, 1, 1]);
  });
});

describe('standing serve --demo (what npm start runs)', () => {
  it('loads the demo, prints the URL and keys, serves all five scorers, and stops on SIGTERM', async () => {
    const demo = await startDemo(join(dir(), 'demo.sqlite'));
    const { url, read } = demo;
    expect(demo.ingest).toMatch(/^stk_/);
    expect(demo.out).toContain(`dashboard:  ${url}/#key=${demo.moderator}`);
    const me = (await (await contractFetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${demo.moderator}` } })).json()) as { scopes: string[]; label: string };
    expect(me).toMatchObject({ scopes: ['senior'], label: 'demo moderator key' });
    const scorers = (await (await contractFetch(`${url}/v1/scorers`, { headers: { authorization: `Bearer ${read}` } })).json()) as { scorers: { scorer: string; rankOneIsWorst: boolean }[] };
    expect(scorers.scorers.map((s) => [s.scorer, s.rankOneIsWorst])).toEqual([
      ['cqr', false],
      ['reliability', false],
      ['chat', false],
      ['trust', false],
      ['reports', true],
    ]);
    const player = (await (await contractFetch(`${url}/v1/players/D1`, { headers: { authorization: `Bearer ${read}` } })).json()) as { communities: { scores: unknown[] }[] };
    expect(player.communities[0]!.scores).toHaveLength(5);
    const top = (await (await contractFetch(`${url}/v1/rankings/cqr?limit=2`, { headers: { authorization: `Bearer ${read}` } })).json()) as { rows: { player: string; score: number }[] };
    expect(top.rows.map((r) => [r.player, r.score])).toEqual([
      ['f1', 188],
      ['F1', 178],
    ]);
    const alerts = (await (await contractFetch(`${url}/v1/alerts`, { headers: { authorization: `Bearer ${read}` } })).json()) as { alerts: unknown[] };
    expect(alerts.alerts.length).toBeGreaterThan(0);
    // issue 28: two example rules, one proposing and one muting with a ladder; the queue shows their labels.
    const moderate = { headers: { authorization: `Bearer ${demo.moderator}` } };
    const rules = (await (await contractFetch(`${url}/v1/rules`, moderate)).json()) as { rules: { name: string; action: string; ladder: string[]; actions: number }[] };
    expect(rules.rules.map((r) => [r.name, r.action, r.ladder])).toEqual([
      ['reported-often', 'propose', []],
      ['leaves-matches', 'mute', ['10m', '1h', '1d']],
    ]);
    expect(rules.rules.every((r) => r.actions > 0)).toBe(true);
    const queue = (await (await contractFetch(`${url}/v1/queue?limit=50`, moderate)).json()) as { rows: { reasons: string[]; proposals: { label?: string }[] }[] };
    const reasons = queue.rows.flatMap((r) => r.reasons);
    expect(reasons.some((r) => r.startsWith('rule reported-often (Reported by several players) proposes a look'))).toBe(true);
    expect(reasons.some((r) => r.startsWith('muted by rule leaves-matches (Leaves matches) '))).toBe(true);
    expect(queue.rows.some((r) => r.proposals.some((p) => p.label === 'Reported by several players'))).toBe(true);
    expect(await demo.stop()).toBe(0);
  });
});

describe('the command line outside the service', () => {
  it('does not load the service modules (fastify, pg, better-sqlite3, pino, prom-client) when every command is registered, for help, only when one runs', async () => {
    const heavy = /node_modules\/(fastify|pg|better-sqlite3|pino|prom-client)\//;
    const script = `import('./dist/cli/program.js').then(async ({ buildProgram }) => {
      await buildProgram('0.0.0', ['node', 'standing', '--help']);
      const before = Object.keys(require.cache).filter((k) => ${heavy}.test(k)).length;
      await import('./dist/app/serve.js');
      const after = Object.keys(require.cache).filter((k) => ${heavy}.test(k)).length;
      console.log(JSON.stringify([before, after > 0]));
    })`;
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    await new Promise((resolve) => child.on('exit', resolve));
    expect(JSON.parse(out)).toEqual([0, true]);
  });
});
