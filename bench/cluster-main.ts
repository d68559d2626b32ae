/** `npm run bench:cluster`: only part 8 (the cluster, beside the single-node service), with its summary (and `-- --json FILE`). */
import { runCluster } from './cluster.js';
import { benchOptions, finish } from './report.js';

const options = benchOptions();
const part = await runCluster();
console.log(part.text);
finish('bench:cluster', part.figures, options);
