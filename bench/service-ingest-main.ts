/** `npm run bench:ingest`: only part 6's ingest and reads (the service over HTTP, beside fastify alone), with their summary (and `-- --json FILE`). */
import { benchOptions, finish } from './report.js';
import { runService } from './service.js';

const options = benchOptions();
const part = await runService();
console.log(part.text);
finish('bench:service', part.figures, options);
