/** `npm run bench:reads`: only the heavy reads of part 6, with their summary (and `-- --json FILE`). */
import { runHeavyReads } from './heavy-reads.js';
import { benchOptions, finish } from './report.js';

const options = benchOptions();
const reads = await runHeavyReads();
console.log(reads.text);
finish('bench:reads', reads.figures, options);
