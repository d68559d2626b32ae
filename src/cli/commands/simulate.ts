/** `standing simulate …`: the papers' experiments, run through the same scorer code. */
import type { Command } from 'commander';
import { registerAttacks } from '../simulate/attacks.js';
import { registerChatBalance } from '../simulate/chat-balance.js';
import { registerChatReliability } from '../simulate/chat-reliability.js';
import { registerQueue } from '../simulate/queue.js';
import { registerReportBrigade } from '../simulate/report-brigade.js';
import { registerTrustSimulations } from '../simulate/trust.js';

export function registerSimulate(program: Command): void {
  const simulate = program.command('simulate').description("reproduce the papers' experiments, measure what attacks cost (simulate attacks) and what the queue finds (simulate queue)");
  registerChatBalance(simulate);
  registerChatReliability(simulate);
  registerTrustSimulations(simulate);
  registerReportBrigade(simulate);
  registerAttacks(simulate);
  registerQueue(simulate);
}
