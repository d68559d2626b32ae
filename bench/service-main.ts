/** `npm run bench:service`: only part 6 (the service over HTTP) and the heavy reads, with their summary (and `-- --json FILE`). */
import { runHeavyReads } from './heavy-reads.js';
import { benchOptions, finish } from './report.js';
import { runService } from './service.js';

const options = benchOptions();
const part = await runService();
console.log(part.text);
const reads = await runHeavyReads();
console.log(reads.text);
finish('bench:service', [...part.figures, ...reads.figures], options);
