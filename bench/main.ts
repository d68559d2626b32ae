/**
 * `npm run bench`: CQR throughput in process, state bytes per player, the CLI end to end, the
 * reliability and chat scorers, the trust and reports scorers, the service over HTTP, many small
 * communities and the cluster, each against baselines run in this same run; then a summary of
 * every figure against its target, and with `-- --json FILE` the figures as one JSON document
 * (./report.ts). Timings are printed, never asserted. Run with --expose-gc (the npm script does).
 */
import { END_TO_END_STREAMS, runEndToEnd } from './cqr-end-to-end.js';
import { runInProcess } from './cqr-inprocess.js';
import { runMemory } from './cqr-memory.js';
import { runReliabilityAndChat } from './reliability-and-chat.js';
import { runTrustAndReports } from './trust-and-reports.js';
import { runService } from './service.js';
import { runHeavyReads } from './heavy-reads.js';
import { runCommunities } from './communities.js';
import { runCluster } from './cluster.js';
import { count, heading, seconds, table } from './format.js';
import { buildActionEvents, DEFAULT_SPEC, MILLION_PLAYERS_SPEC, playerIds, UNIFORM_SPEC, type StreamSpec } from './generate.js';
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
      ['part 3, also', `seed ${MILLION_PLAYERS_SPEC.seed}: ${count(MILLION_PLAYERS_SPEC.actions)} actions, ${count(MILLION_PLAYERS_SPEC.players)} players, ${describeShape(MILLION_PLAYERS_SPEC)}`],
    ],
  ),
);

const figures: Figure[] = [];

const generateStart = now();
const ids = playerIds(spec);
let events: ReturnType<typeof buildActionEvents> | undefined = buildActionEvents(spec, ids);
const generateTime = now() - generateStart;
const inProcess = runInProcess(events, ids);
console.log(inProcess.text);
console.log(`(events generated in ${seconds(generateTime)}, not timed)`);
figures.push(...inProcess.figures);
events = undefined; // free the stream before the memory part

const memory = runMemory(spec);
console.log(memory.text);
figures.push(...memory.figures);

for (const stream of END_TO_END_STREAMS) {
  const endToEnd = await runEndToEnd(stream);
  console.log(endToEnd.text);
  figures.push(...endToEnd.figures);
}

const reliabilityAndChat = await runReliabilityAndChat();
console.log(reliabilityAndChat.text);
figures.push(...reliabilityAndChat.figures);

const trustAndReports = await runTrustAndReports();
console.log(trustAndReports.text);
figures.push(...trustAndReports.figures);

const service = await runService();
console.log(service.text);
figures.push(...service.figures);

const heavyReads = await runHeavyReads();
console.log(heavyReads.text);
figures.push(...heavyReads.figures);
const communities = await runCommunities();
console.log(communities.text);
figures.push(...communities.figures);

const cluster = await runCluster();
console.log(cluster.text);
figures.push(...cluster.figures);

// Worst case: every action by a uniformly random one of the 100,000 players, so neither the id
// table nor the players' state stays in cache. Reported beside the headline, not held to targets.
// (Part 3's worst case is its run on 1,000,000 uniformly random players, held to the target.)
const reference = ({ target: _target, met: _met, ...figure }: Figure): Figure => ({
  ...figure,
  id: `worst.${figure.id}`,
  what: `worst case (uniformly random players): ${figure.what}`,
});
console.log(heading(`Worst case: ${describeShape(UNIFORM_SPEC)}`));
const uniformIds = playerIds(UNIFORM_SPEC);
const inProcessUniform = runInProcess(buildActionEvents(UNIFORM_SPEC, uniformIds), uniformIds);
console.log(inProcessUniform.text);
figures.push(...inProcessUniform.figures.filter((f) => !f.id.endsWith('.populated')).map(reference));

finish('bench', figures, options);
console.log(`\nbench finished in ${seconds(now() - started)}.`);

function describeShape(stream: StreamSpec): string {
  const shape = stream.shape;
  return shape.kind === 'uniform'
    ? shape.joinRate === undefined
      ? 'each action by a uniformly random player'
      : `each action by a new player (${shape.joinRate * 100} %) or a uniformly random one of those before`
    : `sessions: ${count(shape.online)} players online at a time, ~${shape.sessionLength} actions per session`;
}
