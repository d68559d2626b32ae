/** `standing serve` as a real process on a store of the test's, on a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** What it has written to standard output so far. */
  out(): string;
  /** Sends `signal` (SIGTERM: a clean stop, with its last checkpoint) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `standing serve --db db --port 0` (with `options.args` after it, and `options.env` added
 * to the environment), resolving once it listens (rejecting with its stderr if it exits first).
 */
export function startServe(db: string, options: { readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>> } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--db', db, '--port', '0', '--log-level', 'warn', ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /standing serves at (http:\/\/\S+)/.exec(out);
      if (match === null) return;
      resolve({
        child,
        url: match[1]!,
        out: () => out,
        async stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`standing serve exited (${code}) before listening: ${err}`)));
  });
}
