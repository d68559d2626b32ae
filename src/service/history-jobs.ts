/**
 * History jobs off the event loop: each GET /v1/players/:id/history replays the community on a
 * history thread (./history-worker.ts), so the main thread goes on answering health checks,
 * ingest and other reads meanwhile. At most `maxJobs` replays run at once (one thread each,
 * kept for the next job and not keeping the process alive while idle); one more is refused
 * (HistoryBusyError) rather than queued. The same history asked for again while it runs joins
 * the running job; a finished one is kept in a small cache keyed by everything it depends on
 * (instance, community, player, points and the sequence it reflects) until the community is
 * erased from.
 *
 * One HistoryJobs serves a whole process (`standing serve`, or a cluster worker for every
 * partition it holds), so `maxJobs` bounds the process's replays, their threads and, on
 * PostgreSQL, their connections (one per thread, ./history-worker.ts).
 */
import type { Worker } from 'node:worker_threads';
import { InternalError, StandingError } from '../errors.js';
import { startWorker } from '../util/start-worker.js';
import { entryParams, instanceName, type ServiceConfig } from './config.js';
import type { HistoryJob, HistoryPoint } from './history.js';

const WORKER = new URL('./history-worker.js', import.meta.url);

/** Finished histories kept (each at most 200 points). */
export const HISTORY_CACHE_ENTRIES = 256;

/** A history was asked for while the service was stopping. */
export class HistoryClosingError extends StandingError {
  readonly code = 'SERVICE_STOPPING' as const;
  constructor() {
    super('the service is stopping: retry once it is back');
  }
}

/** A history was asked for while `limit` others were running. */
export class HistoryBusyError extends StandingError {
  readonly code = 'HISTORY_BUSY' as const;
  constructor(readonly limit: number) {
    super(`${limit} history ${limit === 1 ? 'job is' : 'jobs are'} running, the most maxHistoryJobs (${limit}) allows: retry later`);
  }
}

interface Waiting {
  resolve(points: HistoryPoint[]): void;
  reject(error: Error): void;
}

export type HistoryRequest = Omit<HistoryJob, 'db' | 'quality' | 'scorer' | 'params'>;

/** A configured scorer entry, its parameters over the configuration's defences: what a history thread instantiates for an instance name. */
export interface HistoryScorer {
  readonly scorer: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** The history jobs of a process running `config`: its store, quality options, scorer instances (by name) and `maxHistoryJobs`. */
export function historyJobsOf(config: Pick<ServiceConfig, 'db' | 'quality' | 'scorers' | 'defences' | 'maxHistoryJobs'>): HistoryJobs {
  const scorers = config.scorers.map((entry) => [instanceName(entry, config.defences), { scorer: entry.scorer, params: entryParams(entry, config.defences) }] as const);
  return new HistoryJobs(config.db, config.quality, new Map(scorers), config.maxHistoryJobs);
}

export class HistoryJobs {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<string, Promise<HistoryPoint[]>>();
  private readonly cache = new Map<string, HistoryPoint[]>();
  /** Bumped per community by `forget`: a job that started before it is not cached. */
  private readonly epochs = new Map<string, number>();
  private readonly workers = new Set<Worker>();
  private nextId = 0;
  /** Jobs on a thread now (a job `forget` let go of still runs to its end). */
  private inFlight = 0;
  private closed = false;

  constructor(
    private readonly db: string,
    private readonly quality: HistoryJob['quality'],
    /** By instance name. */
    private readonly scorers: ReadonlyMap<string, HistoryScorer>,
    readonly maxJobs: number,
  ) {}

  /** Histories running now. */
  get active(): number {
    return this.inFlight;
  }

  /** The history `request` asks for: from the cache, from the same running job, or from a new job (HistoryBusyError when `maxJobs` run). */
  history(request: HistoryRequest): Promise<HistoryPoint[]> {
    if (request.last === 0) return Promise.resolve([]); // a community with no events: nothing to replay
    const key = JSON.stringify([request.instance, request.community, request.player, request.points, request.last]);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const joined = this.running.get(key);
    if (joined !== undefined) return joined;
    if (this.closed) return Promise.reject(new HistoryClosingError());
    if (this.inFlight >= this.maxJobs) return Promise.reject(new HistoryBusyError(this.maxJobs));
    const entry = this.scorers.get(request.instance);
    // The route picks it among the live engine's instances, made from the same configuration.
    if (entry === undefined) return Promise.reject(new InternalError(`no scorer instance "${request.instance}" is configured`));
    const epoch = this.epochs.get(request.community) ?? 0;
    this.inFlight++;
    const job: Promise<HistoryPoint[]> = this.run({ ...request, scorer: entry.scorer, params: entry.params ?? {}, db: this.db, quality: this.quality }).finally(() => {
      this.inFlight--;
      if (this.running.get(key) === job) this.running.delete(key);
    });
    this.running.set(key, job);
    return job.then((points) => {
      if ((this.epochs.get(request.community) ?? 0) === epoch && !this.closed) {
        this.cache.set(key, points);
        if (this.cache.size > HISTORY_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      }
      return points;
    });
  }

  /** Forgets the histories of `community` (its log was rewritten by an erasure). */
  forget(community: string): void {
    this.epochs.set(community, (this.epochs.get(community) ?? 0) + 1);
    for (const key of [...this.cache.keys()]) if ((JSON.parse(key) as unknown[])[1] === community) this.cache.delete(key);
    // A job that began before the erasure read the old log: later requests start their own.
    for (const key of [...this.running.keys()]) if ((JSON.parse(key) as unknown[])[1] === community) this.running.delete(key);
  }

  /** Stops every history thread: idle ones close their store connection first; running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = new Set(this.idle);
    await Promise.all(
      [...this.workers].map(async (worker) => {
        if (!idle.has(worker)) return worker.terminate();
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.ref();
        worker.postMessage({ close: true });
        const timer = setTimeout(() => void worker.terminate(), 2000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private run(job: HistoryJob): Promise<HistoryPoint[]> {
    const worker = this.idle.pop() ?? this.start();
    const id = this.nextId++;
    worker.ref();
    return new Promise<HistoryPoint[]>((resolve, reject) => {
      const waiting: Waiting = { resolve, reject };
      const onMessage = (answer: { id: number; points?: HistoryPoint[]; error?: string }) => {
        if (answer.id !== id) return;
        done();
        if (answer.error !== undefined) waiting.reject(new Error(`history replay failed: ${answer.error}`));
        else waiting.resolve(answer.points!);
        worker.unref();
        if (!this.closed) this.idle.push(worker);
      };
      const onExit = (code: number) => {
        done();
        waiting.reject(this.closed ? new HistoryClosingError() : new Error(`a history thread exited (code ${code})`));
      };
      const onError = (error: Error) => {
        done();
        waiting.reject(error);
        void worker.terminate();
      };
      const done = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onError);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.once('error', onError);
      worker.postMessage({ ...job, id });
    });
  }

  private start(): Worker {
    const worker = startWorker(WORKER);
    worker.unref();
    this.workers.add(worker);
    worker.once('exit', () => {
      this.workers.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    // An error ends the thread; the job waiting on it (if any) fails. The process must not crash for want of a listener.
    worker.on('error', () => {});
    return worker;
  }
}
