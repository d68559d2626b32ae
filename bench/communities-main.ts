/** `npm run bench:communities`: only part 7 (many small communities), with its summary (and `-- --json FILE`). */
import { runCommunities } from './communities.js';
import { benchOptions, finish } from './report.js';

const options = benchOptions();
const part = await runCommunities();
console.log(part.text);
finish('bench:communities', part.figures, options);
