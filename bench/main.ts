/**
 * `npm run bench`: CQR throughput in process, state bytes per player, the CLI end to end, the
 * matches/chat and graph parts, the service over HTTP, many small communities and the cluster, each against
 * baselines run in this same run; then a summary of every figure against its target, and with
 * `-- --json FILE` the figures as one JSON document (./report.ts). Timings are printed, never
 * asserted. Run with --expose-gc (the npm script does).
 */
import { runEndToEnd } from './cqr-end-to-end.js';
import { runInProcess } from './cqr-inprocess.js';
import { runMemory } from './cqr-memory.js';
import { runMatchesAndChat } from './matches-and-chat.js';
import { runGraph } from './graph.js';
import { runService } from './service.js';
import { runHeavyReads } from './heavy-reads.js';
import { runCommunities } from './communities.js';
import { runCluster } from './cluster.js';
import { count, heading, seconds, table } from './format.js';
import { buildActionEvents, DEFAULT_SPEC, playerIds, UNIFORM_SPEC, type StreamSpec } from './generate.js';
import { canCollectGarbage, now } from './measure.js';
import type { Figure } from './figures.js';
import { benchOptions, finish, machine } from './report.js';

const options = benchOptions();
const started = now();
const spec = DEFAULT_SPEC;
const host = machine();

console.log(heading('standing bench: machine'));
console.log(
  table(
    [{ title: 'item' }, { title: 'value' }],
    [
      ['cpu', host.cpu],
      ['cores', String(host.cores)],
      ['memory', `${host.memoryGiB.toFixed(1)} GiB`],
      ['node', `${host.node} (${host.platform})`],
      ['gc exposed', canCollectGarbage() ? 'yes' : 'no (memory part needs --expose-gc)'],
      ['stream', `seed ${spec.seed}: ${count(spec.actions)} actions, ${count(spec.players)} players, ${describeShape(spec)}`],
      ['worst case', `the same, ${describeShape(UNIFORM_SPEC)} (reported, not held to the targets)`],
    ],
  ),
);

const figures: Figure[] = [];

const generateStart = now();
const ids = playerIds(spec);
let events: ReturnType<typeof buildActionEvents> | undefined = buildActionEvents(spec, ids);
const generateTime = now() - generateStart;
const part1 = runInProcess(events, ids);
console.log(part1.text);
console.log(`(events generated in ${seconds(generateTime)}, not timed)`);
figures.push(...part1.figures);
events = undefined; // free the stream before the memory part

const part2 = runMemory(spec);
console.log(part2.text);
figures.push(...part2.figures);

const part3 = await runEndToEnd(spec);
console.log(part3.text);
figures.push(...part3.figures);

const part4 = await runMatchesAndChat();
console.log(part4.text);
figures.push(...part4.figures);

const part5 = await runGraph();
console.log(part5.text);
figures.push(...part5.figures);

const part6 = await runService();
console.log(part6.text);
figures.push(...part6.figures);

const part6Reads = await runHeavyReads();
console.log(part6Reads.text);
figures.push(...part6Reads.figures);
const part7 = await runCommunities();
console.log(part7.text);
figures.push(...part7.figures);

const part8 = await runCluster();
console.log(part8.text);
figures.push(...part8.figures);

// Worst case: every action by a uniformly random one of the 100,000 players, so neither the id
// Map nor the players' state stays in cache. Reported beside the headline, not held to targets.
const reference = ({ target: _target, met: _met, ...figure }: Figure): Figure => ({
  ...figure,
  id: `worst.${figure.id}`,
  what: `worst case (uniformly random players): ${figure.what}`,
});
console.log(heading(`Worst case: ${describeShape(UNIFORM_SPEC)}`));
const uniformIds = playerIds(UNIFORM_SPEC);
const part1Uniform = runInProcess(buildActionEvents(UNIFORM_SPEC, uniformIds), uniformIds);
console.log(part1Uniform.text);
figures.push(...part1Uniform.figures.filter((f) => !f.id.endsWith('.populated')).map(reference));
const part3Uniform = await runEndToEnd(UNIFORM_SPEC);
console.log(part3Uniform.text);
figures.push(...part3Uniform.figures.map(reference));

finish('bench', figures, options);
console.log(`\nbench finished in ${seconds(now() - started)}.`);

function describeShape(stream: StreamSpec): string {
  const shape = stream.shape;
  return shape.kind === 'uniform'
    ? 'each action by a uniformly random player'
    : `sessions: ${count(shape.online)} players online at a time, ~${shape.sessionLength} actions per session`;
}
