/** Runs the built `standing` binary as a real child process. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `env` adds to (or, with undefined, removes from) the test process's environment. */
export function runCli(args: readonly string[], input?: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  child.stdin.end(input ?? '');
  return outcomeOf(child);
}

/** What a child process with piped standard output and error printed, and its exit code, once it closes. */
export function outcomeOf(child: ChildProcessByStdio<Writable | null, Readable, Readable>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const TABLE1_LOG = 'examples/cqr-table1.ndjson';
export const TABLE1_LABELS = 'examples/cqr-table1.labels.csv';

export interface RunningDemo {
  readonly url: string;
  readonly read: string;
  readonly ingest: string;
  /** The demo moderator key (scope senior), which the printed dashboard link carries. */
  readonly moderator: string;
  /** What it printed on standard output. */
  readonly out: string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `standing serve --demo` over `db` on a free port, once it has printed its URL and keys. */
export async function startDemo(db: string): Promise<RunningDemo> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--demo', '--db', db, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('API reference')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}`)));
  });
  const found = (pattern: RegExp) => pattern.exec(out)![1]!;
  return {
    url: found(/serves the demo at (\S+)/),
    read: found(/read key:\s+(\S+)/),
    ingest: found(/ingest key:\s+(\S+)/),
    moderator: found(/demo moderator key:\s+(\S+)/),
    out,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
