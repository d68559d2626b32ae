/**
 * Child processes of `standing cluster-local`, the cluster tests and the bench (nats-server,
 * `standing worker`, `standing gateway`), started and stopped so that none outlives its parent's
 * intent: the caller gets the process the moment it is spawned (to register its cleanup before
 * waiting for it), waiting for it to say it runs is bounded, and a process that does not exit on
 * SIGTERM within a bound is killed.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

/** How long a role may take to say it runs (ms). */
export const START_TIMEOUT_MS = 60_000;
/** How long a process may take to exit on SIGTERM before SIGKILL (ms): a worker checkpoints its partitions meanwhile. */
export const STOP_GRACE_MS = 30_000;

/**
 * Kills `child` (SIGKILL) if this process exits first, however it exits: a test hook that timed
 * out or an uncaught error leaves no nats-server, worker or gateway behind.
 */
export function killWithParent(child: ChildProcess): ChildProcess {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
  return child;
}

/** Resolves when `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM, then SIGKILL if `child` has not exited within `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(child);
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  try {
    if ((await Promise.race([gone, late])) === 'late') {
      child.kill('SIGKILL');
      await gone;
    }
  } finally {
    clearTimeout(timer);
  }
}

export interface RoleOptions {
  /** Told of the process as soon as it is spawned, before it runs: register its cleanup here. */
  readonly spawned?: (child: ChildProcess) => void;
  /** Bound on waiting for `ready` (default START_TIMEOUT_MS); past it the process is killed. */
  readonly timeoutMs?: number;
  /** Where its standard error goes (default: this process's). */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
  /**
   * Runs it in a process group of its own (`standing cluster-local`): a Ctrl-C at the terminal
   * reaches the parent alone, which stops its roles in order rather than all at once.
   */
  readonly ownGroup?: boolean;
}

/**
 * Runs `node <main> <args>` and resolves with the process and the match of `ready` in its standard
 * output; its output after that goes on to this process's standard error. Rejects, the process
 * killed, when it exits first or does not print `ready` within the bound.
 */
export function startRole(main: string, args: readonly string[], ready: RegExp, options: RoleOptions = {}): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const stdio: StdioOptions = ['ignore', 'pipe', options.stderr ?? 'inherit'];
  const child = killWithParent(spawn(process.execPath, [main, ...args], { stdio, detached: options.ownGroup === true }));
  options.spawned?.(child);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? START_TIMEOUT_MS;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`standing ${args[0]} did not say it runs within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(new Error(`standing ${args[0]} exited (${code ?? signal}) before running: ${output}`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', watch);
      child.off('exit', onExit);
      reject(error);
    };
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.off('data', watch);
      child.stdout!.pipe(process.stderr, { end: false });
      resolve({ child, match, output: () => output });
    };
    child.stdout!.on('data', watch);
    child.once('error', (error) => fail(error));
    child.once('exit', onExit);
  });
}
