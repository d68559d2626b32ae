/**
 * `standing worker` and `standing gateway` as an operator meets them: their help, their refusals
 * at start (no NATS server reachable, a database that is not PostgreSQL) as one line each, and the
 * start line naming the NATS server they joined.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { exited, startRole } from '../../src/cluster/child-processes.js';
import { freePort } from '../support/nats-cluster.js';
import { runCli } from '../support/cli.js';
import { freshPostgresUrl, POSTGRES } from '../support/postgres.js';
import { clusterConfig } from './support.js';
import { clusterPerFile } from './per-file.js';
import { configFile } from './processes.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const cluster = clusterPerFile();

/** The tables of the schema `db` names (its search_path). */
async function tablesOf(db: string): Promise<string[]> {
  const schema = decodeURIComponent(/options=(.*)$/.exec(db)![1]!).replace('-c search_path=', '');
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return (await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema])).rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}

describe('issue 25: worker and gateway with no NATS server reachable', () => {
  for (const role of ['worker', 'gateway'] as const) {
    it(`standing ${role} says in one line which servers it tried and why, exits 1, and leaves the database untouched`, async () => {
      const db = await freshPostgresUrl();
      const [a, b] = [await freePort(), await freePort()];
      const result = await runCli([role, '--db', db, '--nats', `nats://127.0.0.1:${a}`, '--nats', `nats://127.0.0.1:${b}`, '--log-level', 'silent']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^standing: no NATS server answered at nats://127\\.0\\.0\\.1:${a}, nats://127\\.0\\.0\\.1:${b} \\(connection refused: connect ECONNREFUSED 127\\.0\\.0\\.1:(${a}|${b})\\): start one there, or name yours with --nats, STANDING_NATS or cluster\\.nats\\n$`,
        ),
      );
      // NATS is tried before PostgreSQL is opened: nothing was migrated.
      expect(await tablesOf(db)).toEqual([]);
    });
  }
});

describe('issue 25: worker and gateway refusing a durability they cannot have', () => {
  for (const role of ['worker', 'gateway'] as const) {
    it(`standing ${role} with serverSync "always" against nats-server 2.9 says so in one line and exits 1 (its NATS connection closed)`, async () => {
      const db = await freshPostgresUrl();
      const file = configFile(clusterConfig(db, cluster.nats.urls, { serverSync: 'always' }));
      try {
        const result = await runCli([role, '--config', file.path, '--log-level', 'silent']);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^standing: .*serverSync.*"always" is declared but the NATS server connected to is 2\.9\.\d+/);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
      } finally {
        file.remove();
      }
    });
  }
});

describe('issue 25: worker and gateway take PostgreSQL only, and say so', () => {
  for (const role of ['worker', 'gateway'] as const) {
    it(`standing ${role} --help names PostgreSQL for --db and the default NATS server`, async () => {
      const help = await runCli([role, '--help']);
      expect(help.code).toBe(0);
      const text = help.stdout.replace(/\s+/g, ' ');
      expect(text).toContain('--db <url> PostgreSQL URL, postgres://… (required: the cluster keeps its state there, SQLite is refused; also STANDING_DB)');
      expect(text).not.toContain('SQLite file');
      expect(text).toContain('(default nats://127.0.0.1:4222, whatever NATS server runs there; the start line names the server joined; also STANDING_NATS)');
    });

    it(`standing ${role} with a SQLite path says once what db must be, before trying NATS`, async () => {
      const closed = await freePort();
      const result = await runCli([role, '--db', './cluster.sqlite', '--nats', `nats://127.0.0.1:${closed}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'standing: configuration: db must be a postgres:// URL: a cluster\'s gateways and workers keep their state in PostgreSQL (set it with --db, STANDING_DB or "db" in the configuration file), got "./cluster.sqlite"\n',
      );
    });
  }
});

describe('issue 25: worker and gateway say which NATS server they joined', () => {
  it('names its URL, server name and id, version and cluster in the start line, and logs it', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, [cluster.nats.urls[1]!], { partitions: 2 });
    const file = configFile({ ...config, logLevel: 'info' });
    const started: Awaited<ReturnType<typeof startRole>>[] = [];
    try {
      const joined = `with NATS ${cluster.nats.urls[1]!.replace(/\./g, '\\.')} \\(server n2, id N[A-Z0-9]{55}, version (\\d+\\.\\d+\\.\\d+), cluster (\\S+)\\)\\n`;
      const worker = await startRole(MAIN, ['worker', '--config', file.path, '--id', 'w-joined'], new RegExp(`standing worker w-joined runs ${joined}`), { stderr: 'pipe' });
      started.push(worker);
      const gateway = await startRole(MAIN, ['gateway', '--config', file.path], new RegExp(`standing gateway serves at (\\S+) ${joined}`), { stderr: 'pipe' });
      started.push(gateway);
      // The version is the server's own, and the cluster the test cluster's name.
      expect(worker.match[1]).toMatch(/^2\.\d+\.\d+$/);
      expect(worker.match[2]).toBe('standing-local');
      expect(gateway.match[3]).toBe('standing-local');
      for (const role of started) {
        const logged = role
          .output()
          .split('\n')
          .filter((line) => line.includes('"NATS joined"'))
          .map((line) => JSON.parse(line) as { nats: Record<string, unknown> });
        expect(logged).toHaveLength(1);
        expect(logged[0]!.nats).toMatchObject({ url: cluster.nats.urls[1], server: 'n2', version: worker.match[1], cluster: 'standing-local' });
      }
    } finally {
      for (const { child } of started.reverse()) {
        child.kill('SIGTERM');
        await exited(child);
      }
      file.remove();
    }
  });
});

describe('issue 26: standing gateway on a taken port', () => {
  it('prints one line naming the port and exits 1, as standing serve does', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const config = clusterConfig(await freshPostgresUrl(), [cluster.nats.urls[0]!], { partitions: 2 });
      const file = configFile({ ...config, port, logLevel: 'silent' });
      const result = await runCli(['gateway', '--config', file.path]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`standing: port ${port} on 127.0.0.1 is in use\n`);
    } finally {
      taken.close();
    }
  });
});
