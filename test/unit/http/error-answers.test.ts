/** What src/http/errors.ts answers for the errors that became StandingErrors (issue 26, point 5). */
import fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, UsageError } from '../../../src/cli/errors.js';
import { NatsUnreachableError } from '../../../src/cluster/nats.js';
import { handleError } from '../../../src/http/errors.js';
import { HistoryBusyError, HistoryClosingError } from '../../../src/service/history-jobs.js';
import { ListenError } from '../../../src/app/listen-error.js';
import { CommunityOutsidePartitionError, PartitionFencedError, StreamBehindError, StreamMismatchError } from '../../../src/store/partitions.js';
import { EventConflictError, EventSyntaxError, EventValidationError, InputError, InternalError, LabelsError, PlayerUnknownError, StandingError } from '../../../src/errors.js';
import { NOT_ANSWERED } from '../../../src/http/errors.js';
import { EngineClosedError } from '../../../src/service/live-engine/closed.js';

const THROWN: Readonly<Record<string, () => Error>> = {
  'history-busy': () => new HistoryBusyError(2),
  'history-closing': () => new HistoryClosingError(),
  fenced: () => new PartitionFencedError('partition 3 is fenced by epoch 7'),
  outside: () => new CommunityOutsidePartitionError('c', 1, { stream: 's', partitions: 4, partition: 2, epoch: 3 }),
  mismatch: () => new StreamMismatchError('s', 0, 'a', 'b'),
  behind: () => new StreamBehindError('s', 0, 9, 4),
  nats: () => new NatsUnreachableError(['nats://127.0.0.1:4222'], 'connection refused'),
  listen: () => new ListenError('port 1 on 127.0.0.1 is in use'),
  usage: () => new UsageError('unknown option'),
  command: () => new CommandError('the service cannot be reached'),
};

describe('issue 26: the errors given a StandingError code answer HTTP as they did', () => {
  const app = fastify();
  beforeAll(async () => {
    app.setErrorHandler(handleError);
    for (const [what, make] of Object.entries(THROWN)) {
      app.get(`/throw/${what}`, () => {
        throw make();
      });
    }
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a history the service cannot take now 503 with Retry-After: 1, as the route did', async () => {
    const busy = await app.inject('/throw/history-busy');
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toEqual({ error: 'HISTORY_BUSY', message: '2 history jobs are running, the most maxHistoryJobs (2) allows: retry later', limit: 2 });
    const closing = await app.inject('/throw/history-closing');
    expect(closing.statusCode).toBe(503);
    expect(closing.headers['retry-after']).toBe('1');
    expect(closing.json()).toEqual({ error: 'SERVICE_STOPPING', message: 'the service is stopping: retry once it is back' });
  });

  it("answers the command line's, a start's and a cluster's errors 500 INTERNAL, naming no internals, as when they were plain errors", async () => {
    for (const what of ['fenced', 'outside', 'mismatch', 'behind', 'nats', 'listen', 'usage', 'command']) {
      const answer = await app.inject(`/throw/${what}`);
      expect({ what, status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        what,
        status: 500,
        body: { error: 'INTERNAL', message: 'the request failed; the service log has the details' },
      });
    }
  });
});

describe('issue 26: a code of standing\'s errors answers a request as itself only from the API\'s list', () => {
  const NEVER: Readonly<Record<string, () => Error>> = {
    syntax: () => new EventSyntaxError({ line: 3 }, 'is not valid JSON'),
    invalid: () => new EventValidationError(undefined, 'delta', 'must be a number'),
    conflict: () => new EventConflictError(undefined, 'dot', 'is not on the board'),
    labels: () => new LabelsError({ source: 'labels.csv', line: 2 }, 'expected "player,class"'),
    input: () => new InputError('events.ndjson', 'no such file'),
  };
  const app = fastify({ logger: false });
  beforeAll(async () => {
    app.setErrorHandler(handleError);
    const all: Readonly<Record<string, () => Error>> = {
      ...NEVER,
      closed: () => new EngineClosedError(),
      internal: () => new InternalError('a state that cannot happen'),
      unknown: () => new PlayerUnknownError('p1'),
    };
    for (const [what, make] of Object.entries(all)) {
      app.get(`/throw/${what}`, () => {
        throw make();
      });
    }
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers an error whose code never answers a request 500 INTERNAL, naming no internals', async () => {
    for (const [what, make] of Object.entries(NEVER)) {
      expect(Object.keys(NOT_ANSWERED)).toContain((make() as StandingError).code);
      const answer = await app.inject(`/throw/${what}`);
      expect({ what, status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
        what,
        status: 500,
        body: { error: 'INTERNAL', message: 'the request failed; the service log has the details' },
      });
    }
  });

  it('answers a batch that meets a closed engine 503 SERVICE_STOPPING with Retry-After: 1', async () => {
    const answer = await app.inject('/throw/closed');
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json()).toEqual({ error: 'SERVICE_STOPPING', message: 'the engine is closed: the service is stopping; retry once it is back' });
  });

  it('answers an assertion that failed 500 INTERNAL without its message, and an erasure of an unknown player 404 NOT_FOUND', async () => {
    const internal = await app.inject('/throw/internal');
    expect({ status: internal.statusCode, body: internal.json<unknown>() }).toEqual({ status: 500, body: { error: 'INTERNAL', message: 'the request failed; the service log has the details' } });
    const unknown = await app.inject('/throw/unknown');
    expect({ status: unknown.statusCode, body: unknown.json<unknown>() }).toEqual({
      status: 404,
      body: { error: 'NOT_FOUND', message: 'player "p1" is unknown: no stored event is by or about them; nothing was erased' },
    });
  });
});
