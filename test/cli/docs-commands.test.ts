/**
 * Issue 24, point 5: every command the documentation shows runs as written on a fresh clone.
 *
 * The `sh` blocks of README.md, examples/README.md and docs/*.md that run `standing` are read,
 * and each block's commands run in order with /bin/sh, as the docs write them, in a temporary
 * folder laid out as a clone (its own copy of examples/, and ../shared/data beside it), so that
 * what they write (./standing.sqlite, plots/, otc.ndjson) never lands in the repository.
 * `standing` and `npx standing` run the built dist/cli/main.js. Each command must exit 0.
 *
 * A command that cannot run exactly as written is in SPECIAL, with the reason and what the test
 * runs instead: one that serves until stopped, needs a running service, stands for the reader's
 * own key, log or database, needs servers the default tier does not start, or takes too long.
 * SPECIAL names only commands the docs show, so it cannot go stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { outcomeOf, ROOT, type CliResult } from '../support/cli.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';

const MAIN = join(ROOT, 'dist/cli/main.js');
const DOCS = ['README.md', 'examples/README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
/** The docs' placeholder for a service's URL, which a test service replaces. */
const DOCS_URL = 'http://127.0.0.1:8080';
/** The docs' placeholder for a key. */
const DOCS_KEY = 'stk_…';

/**
 * The public data sets the docs read from ../shared/data (outside the clone; docs/development.md),
 * with a small stand-in of the same format for when they are not there.
 */
const DATA: Record<string, string> = {
  'college-msg/CollegeMsg.txt': '1 2 1082040961\n2 1 1082155839\n3 1 1082414391\n1 3 1082418491\n4 1 1082419000\n',
  'bitcoin-otc/soc-sign-bitcoinotc.csv': '1,4,5,1289241911.72836\n2,4,3,1289241941.53378\n3,5,-4,1289243140.39049\n4,5,-2,1289245277.36975\n1,2,8,1289254254.44746\n',
};

const base = mkdtempSync(join(tmpdir(), 'standing-docs-'));
const BIN = join(base, 'bin');
mkdirSync(BIN);
const shim = (name: string, body: string) => {
  writeFileSync(join(BIN, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(BIN, name), 0o755);
};
shim('standing', `exec '${process.execPath}' '${MAIN}' "$@"`);
shim('npx', 'if [ "$1" = standing ]; then shift; exec standing "$@"; fi\necho "npx: only npx standing runs here" >&2\nexit 127');

afterAll(async () => {
  rmSync(base, { recursive: true, force: true });
  await dropPostgresSchemas();
});

interface Block {
  /** FILE:LINE of the block's opening fence. */
  readonly place: string;
  readonly commands: readonly string[];
}

const runsStanding = (command: string) => /(^|[\s|;&(])standing(\s|$)/.test(command);

/** The `sh` blocks that run `standing`, each as its commands: continued lines joined, comments dropped. */
function docBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of DOCS) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/^[ \t]*```(?:sh|bash|shell)\n([\s\S]*?)^[ \t]*```/gm)) {
      const commands = match[1]!
        .replace(/\s*\\\n\s*/g, ' ')
        .split('\n')
        .map((line) => line.replace(/(^|\s)#(\s.*)?$/, '').trim())
        .filter((line) => line !== '');
      if (commands.some(runsStanding)) blocks.push({ place: `${file}:${text.slice(0, match.index).split('\n').length}`, commands });
    }
  }
  return blocks;
}

type Result = CliResult;

const transcript = (command: string, result: Result) => `$ ${command}\nexit ${result.code}\n${result.stdout}${result.stderr}`;

/** One block's run: its clone, its environment, the keys it created and the service it started. */
class BlockRun {
  readonly clone: string;
  readonly env: Record<string, string | undefined>;
  /** The keys `keys create` printed, oldest first. */
  readonly keys: string[] = [];
  private service: { url: string; child: ChildProcess; exited: Promise<number | null> } | undefined;

  constructor() {
    const dir = mkdtempSync(join(base, 'block-'));
    this.clone = join(dir, 'clone');
    cpSync(join(ROOT, 'examples'), join(this.clone, 'examples'), { recursive: true });
    for (const [path, standIn] of Object.entries(DATA)) {
      const real = join(ROOT, '..', 'shared', 'data', path);
      const target = join(dir, 'shared', 'data', path);
      mkdirSync(dirname(target), { recursive: true });
      if (existsSync(real)) symlinkSync(real, target);
      else writeFileSync(target, standIn);
    }
    // A fresh clone's environment: none of the STANDING_* settings of whoever runs the tests.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STANDING_')));
    this.env = { ...env, PATH: `${BIN}:${process.env.PATH ?? ''}` };
  }

  get url(): string {
    if (this.service === undefined) throw new Error('no service is running');
    return this.service.url;
  }

  sh(command: string): Promise<Result> {
    return outcomeOf(spawn('/bin/sh', ['-c', command], { cwd: this.clone, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /** Runs `command`, expects exit 0, and keeps the key a `keys create` printed (as $KEY too). */
  async ok(command: string): Promise<Result> {
    const result = await this.sh(command);
    expect(result.code, transcript(command, result)).toBe(0);
    if (/\bkeys create\b/.test(command)) {
      const key = result.stdout.trim();
      expect(key, transcript(command, result)).toMatch(/^stk_\S+$/);
      this.keys.push(key);
      this.env.KEY = key;
    }
    return result;
  }

  /** Starts `command` (a `standing serve`) and waits until it prints its URL. */
  async serve(command: string): Promise<void> {
    const child = spawn('/bin/sh', ['-c', `exec ${command}`], { cwd: this.clone, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const found = /standing serves at (\S+)/.exec(out);
        if (found) resolve(found[1]!);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      void exited.then((code) => reject(new Error(`$ ${command}\nexited ${code} before printing its URL\n${out}`)));
    });
    this.service = { url, child, exited };
  }

  /** The block's service, or, when the block starts none, one on ./standing.sqlite with an ingest key. */
  async ensureService(): Promise<void> {
    if (this.service !== undefined) return;
    await this.ok('standing keys create --scope ingest');
    await this.serve('standing serve --port 0 --log-level warn');
  }

  /** `command` with the docs' service URL and key placeholder replaced by the block's. */
  localize(command: string): string {
    return command.replaceAll(DOCS_URL, this.url).replaceAll(DOCS_KEY, this.keys.at(-1) ?? DOCS_KEY);
  }

  /** Stops the service with SIGTERM, expecting a clean exit. */
  async stopService(): Promise<void> {
    if (this.service === undefined) return;
    const { child, exited } = this.service;
    this.service = undefined;
    child.kill('SIGTERM');
    expect(await exited, 'standing serve stopped by SIGTERM').toBe(0);
  }

  /** Ends what is still running, after a failure. */
  kill(): void {
    this.service?.child.kill('SIGKILL');
  }
}

interface Special {
  /** Why the command cannot run exactly as written, or what it needs. */
  readonly why: string;
  /** What the test runs instead, with its assertions. */
  run(command: string, block: BlockRun): Promise<void>;
}

const DATA_SET: Special = {
  why: 'reads a public data set from ../shared/data, outside the clone (the data tier reads them too): runs as written, on the real file when it is there, else on a small stand-in of the same format the test writes at that path',
  run: async (command, block) => void (await block.ok(command)),
};

const ATTACKS: Special = {
  why: 'the attack suite on its default 2,000 players takes about 25 s (these two attacks alone 13 s) on two cores: run with the command’s own --players 100 added',
  run: async (command, block) => {
    const result = await block.ok(`${command} --players 100`);
    expect(result.stdout).toMatch(/ 100 players|"players": 100,/);
  },
};

const QUEUE: Special = {
  why: 'the queue simulation on its default 800 players runs a whole service 18 times, about 15 s on two cores: run with the command’s own --players 100 added',
  run: async (command, block) => {
    const result = await block.ok(`${command} --players 100`);
    expect(result.stdout).toMatch(/ 100 players|"players": 100,/);
  },
};

const SERVICE_INGEST: Special = {
  why: 'sends to a running service with a key: a service the test starts (standing serve --port 0) with an ingest key it created replaces http://127.0.0.1:8080 and stk_…; events.ndjson and old.ndjson.gz, the reader’s logs, are examples/chat.ndjson and examples/trust.ndjson (gzipped)',
  run: async (command, block) => {
    await block.ensureService();
    writeFileSync(join(block.clone, 'events.ndjson'), readFileSync(join(block.clone, 'examples/chat.ndjson')));
    writeFileSync(join(block.clone, 'old.ndjson.gz'), gzipSync(readFileSync(join(block.clone, 'examples/trust.ndjson'))));
    const result = await block.ok(block.localize(command));
    expect(Number(/(\d+) accepted/.exec(result.stdout)?.[1]), result.stdout).toBeGreaterThan(0);
  },
};

const CLUSTER_ROLE: Special = {
  why: 'a cluster role runs until stopped, over NATS JetStream servers and PostgreSQL at the reader’s addresses, which the default tier does not start (the cluster tier, test/cluster, runs both roles): the test checks that the command lists every option the docs give it',
  run: async (command, block) => {
    const role = /standing (\w+)/.exec(command)![1]!;
    const help = await block.ok(`standing ${role} --help`);
    for (const option of command.match(/--[a-z-]+/g)!) expect(help.stdout).toContain(option);
  },
};

/** The commands that do not run exactly as written, by their text as the docs give it (comments dropped). */
const SPECIAL: Record<string, Special> = {
  'npx standing serve --observers mod1,mod2': {
    why: 'serves until stopped, on 127.0.0.1:8080, which another process may hold: run with --port 0 added, until the block’s later commands (which get its URL for http://127.0.0.1:8080) have run, then stopped with SIGTERM, which must end it with exit 0',
    run: (command, block) => block.serve(`${command} --port 0`),
  },
  [`curl -X POST -H "Authorization: Bearer $KEY" -H 'content-type: application/json' -d '[{"type":"action","time":"2026-11-21T10:00:00Z","id":"e1","player":"ann","delta":12}]' ${DOCS_URL}/v1/events`]: {
    why: 'not a standing command, but the block’s next line needs what it shows: posts to the service the block started, at its URL, with the $KEY the block’s keys create printed',
    run: async (command, block) => {
      await block.ensureService();
      const result = await block.ok(block.localize(command));
      expect(JSON.parse(result.stdout)).toMatchObject({ accepted: 1 });
    },
  },
  [`STANDING_KEY=$KEY npx standing ingest examples/matches.ndjson --url ${DOCS_URL}`]: {
    why: 'sends to the service the block started: run with its URL, and the $KEY the block’s keys create printed',
    run: async (command, block) => {
      await block.ensureService();
      const result = await block.ok(block.localize(command));
      expect(result.stdout).toContain('15 events sent');
    },
  },
  [`STANDING_KEY=${DOCS_KEY} npx standing ingest events.ndjson --url ${DOCS_URL}`]: SERVICE_INGEST,
  [`zcat old.ndjson.gz | npx standing ingest - --url ${DOCS_URL} --key ${DOCS_KEY}`]: SERVICE_INGEST,
  'npx standing keys revoke 1Ix3SMenxPde': {
    why: '1Ix3SMenxPde stands for the id of a key of the reader’s store (ids are random): as written it exits 2 (no such key); with the id of the first key the block created it exits 0',
    run: async (command, block) => {
      const written = await block.sh(command);
      expect(written.code, transcript(command, written)).toBe(2);
      expect(written.stderr).toContain('no active key "1Ix3SMenxPde"');
      const id = /^stk_([^_]+)_/.exec(block.keys[0]!)![1]!;
      await block.ok(command.replace('1Ix3SMenxPde', id));
      expect((await block.ok('npx standing keys list')).stdout).toMatch(new RegExp(`${id} .*\\d{4}-\\d\\d-\\d\\dT\\S+\\s+\\d{4}-\\d\\d-\\d\\dT`));
    },
  },
  'npx standing erase "player-42" --db ./standing.sqlite': {
    why: 'erases a player of the store the reader’s service filled: the test first fills ./standing.sqlite through standing serve and standing ingest with events naming player-42 in community eu, stops the service, then runs it as written',
    run: async (command, block) => {
      await block.ensureService();
      const events = [
        { type: 'chat', time: '2024-05-20T10:00:00Z', community: 'eu', from: 'player-42', to: ['ann', 'bob'] },
        { type: 'chat', time: '2024-05-20T10:01:00Z', community: 'eu', from: 'ann', to: ['player-42', 'bob'] },
        { type: 'report', time: '2024-05-20T10:02:00Z', community: 'eu', from: 'bob', to: 'player-42' },
        { type: 'played', time: '2024-05-20T10:03:00Z', community: 'eu', player: 'bob', games: 3 },
      ];
      writeFileSync(join(block.clone, 'player-42.ndjson'), events.map((e) => JSON.stringify(e)).join('\n'));
      await block.ok(`standing ingest player-42.ndjson --url ${block.url} --key ${block.keys.at(-1)!}`);
      await block.stopService();
      const result = await block.ok(command);
      expect(result.stdout).toBe('player "player-42" erased: 2 events removed, 1 rewritten (communities eu recomputed)\n');
    },
  },
  'standing keys create --db postgres://… --scope ingest': {
    why: 'postgres://… stands for the cluster’s database: run against a schema of its own in the test PostgreSQL (skipped when none answers, as the PostgreSQL store tests are)',
    run: async (command, block) => {
      if (!postgresAvailable) return;
      const url = await freshPostgresUrl();
      await block.ok(command.replace('postgres://…', `'${url}'`));
    },
  },
  'standing worker  --db postgres://… --nats nats://n1:4222,nats://n2:4222,nats://n3:4222': CLUSTER_ROLE,
  'standing gateway --db postgres://… --nats nats://n1:4222 --nats nats://n2:4222 --port 8080': CLUSTER_ROLE,
  'npx standing simulate attacks --format json --out plots': ATTACKS,
  'npx standing simulate attacks --attack trust/sybil-ring --attack chat/farming --seed 2': ATTACKS,
  'npx standing simulate queue': QUEUE,
  'npx standing simulate queue --scenario reports/combined --defences recommended --format json': QUEUE,
  'npx standing import college-msg ../shared/data/college-msg/CollegeMsg.txt | npx standing rank chat - --top 10': DATA_SET,
  'npx standing import bitcoin-otc ../shared/data/bitcoin-otc/soc-sign-bitcoinotc.csv > otc.ndjson': DATA_SET,
  'npx standing rank trust otc.ndjson --set observers=u1,u2,u3 --set ttlMax=175200 --stats': DATA_SET,
};

const BLOCKS = docBlocks();

describe('issue 24: every command of README.md, examples/README.md and docs/*.md runs as written', () => {
  it('finds the docs’ commands, and every command SPECIAL names is one they show, with a reason', () => {
    const commands = new Set(BLOCKS.flatMap((block) => block.commands));
    // Blocks from README.md, docs/ and examples/, whatever lines they start on.
    for (const file of ['README.md', 'docs/cli.md', 'examples/README.md']) expect(BLOCKS.some((block) => block.place.startsWith(`${file}:`)), file).toBe(true);
    expect(Object.keys(SPECIAL).filter((command) => !commands.has(command))).toEqual([]);
    for (const special of Object.values(SPECIAL)) expect(special.why.length).toBeGreaterThan(40);
  });

  for (const block of BLOCKS) {
    it(`${block.place}: ${block.commands.find(runsStanding)}`, { timeout: 180_000 }, async () => {
      const run = new BlockRun();
      try {
        for (const command of block.commands) {
          const special = SPECIAL[command];
          if (special === undefined) await run.ok(command);
          else await special.run(command, run);
        }
        await run.stopService();
      } finally {
        run.kill();
      }
    });
  }
});
