/** What src/http/errors.ts answers for the errors that became StandingErrors (issue 26, point 5). */
import fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError } from '../../../src/cli/command-error.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { NatsUnreachableError } from '../../../src/cluster/nats.js';
import { handleError } from '../../../src/http/errors.js';
import { HistoryBusyError, HistoryClosingError } from '../../../src/service/history-jobs.js';
import { ListenError } from '../../../src/app/serve.js';
import { CommunityOutsidePartitionError, PartitionFencedError, StreamBehindError, StreamMismatchError } from '../../../src/store/partitions.js';

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
