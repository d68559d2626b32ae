/**
 * Compiling the configured rules once, at start: each condition parsed (CEL, @bufbuild/cel),
 * checked against the variables a condition may read (./variables.ts: an unknown variable, field
 * or scorer instance is refused with its column), tried once on empty facts (a comparison of a
 * string with a number is refused there), and planned for the many evaluations to come; each
 * action checked (a ladder for mute and suspend only, never a ban). Every refusal is a
 * RuleConfigError naming the rule, the field and the reason, which the configuration turns into a
 * ConfigError with its source and path. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { celEnv, isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { StandingError } from '../../errors.js';
import { idCharacterProblem, shownText } from '../../events/id-characters.js';
import { durationMs, RULE_ACTIONS, RULE_DEFAULTS, type BreakerConfig, type RuleAction, type RuleConfig, type RulesConfig } from './schema.js';
import { sampleFacts, variableShapes, type PlayerFacts, type Shape } from './variables.js';

/**
 * One rule's configuration refused: `field` is its path inside the rule (`when`, `ladder`, …).
 * The configuration turns it into a ConfigError naming its source (../../service/config.ts).
 */
export class RuleConfigError extends StandingError {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(
    readonly index: number,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`rules.list[${index}]${field === '' ? '' : `.${field}`} ${reason}`);
  }
}

/** What an evaluation gives: whether the condition holds, or why it could not be evaluated. */
export type Outcome = boolean | { readonly error: string };

/** What a rule's condition reads, so an evaluation computes no more than it needs. */
export interface RuleUses {
  /** `recent` is read: the player's dated evidence is counted. */
  readonly recent: boolean;
  /** The scorer instances `scores` is read for; undefined: any of them (read as a whole). */
  readonly instances: ReadonlySet<string> | undefined;
}

export interface CompiledRule {
  readonly name: string;
  /** `rule:<name>`: the moderator of its events. */
  readonly moderator: string;
  readonly label: string;
  readonly reason: string;
  readonly when: string;
  readonly action: RuleAction;
  /** The ladder's durations (ms) and as written; empty for propose and warn. */
  readonly ladderMs: readonly number[];
  readonly ladder: readonly string[];
  readonly windowMs: number;
  readonly windowHours: number;
  readonly offenceMs: number;
  /** Proposes what it would do instead of doing it (the rule's or the section's dry run). */
  readonly dryRun: boolean;
  readonly breaker: BreakerConfig;
  readonly uses: RuleUses;
  evaluate(facts: PlayerFacts): Outcome;
}

export interface CompiledRules {
  readonly list: readonly CompiledRule[];
  /** Rules are evaluated when a community's clock enters a new period of this many ms (0: after every event). */
  readonly intervalMs: number;
  /** A digest of what the rules decide with: a checkpoint's rule state made under another is only folded, not re-evaluated. */
  readonly digest: string;
}

const ENV = celEnv();

/** `at column 12` (or `at line 2, column 3` in a condition of several lines), for an offset in `text`. */
export function where(text: string, offset: number | undefined): string {
  if (offset === undefined) return '';
  const before = text.slice(0, offset).split('\n');
  const column = before[before.length - 1]!.length + 1;
  return before.length === 1 ? ` at column ${column}` : ` at line ${before.length}, column ${column}`;
}

type Expr = ReturnType<typeof parse>['expr'];

interface Walk {
  readonly text: string;
  readonly positions: Readonly<Record<string, number>>;
  readonly shapes: Readonly<Record<string, Shape>>;
  readonly instances: Set<string>;
  allInstances: boolean;
  recent: boolean;
}

/** Checks `expr` against the variables; returns the shape of its value when known. Throws a message for the first unknown name. */
function shapeOf(expr: Expr | undefined, walk: Walk, scope: ReadonlySet<string>): Shape | undefined {
  if (expr === undefined) return undefined;
  const at = () => where(walk.text, walk.positions[String(expr.id)]);
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'identExpr': {
      const name = kind.value.name;
      if (scope.has(name)) return undefined;
      const shape = walk.shapes[name];
      if (shape === undefined) throw new Error(`names an unknown variable "${name}"${at()} (known: ${Object.keys(walk.shapes).join(', ')})`);
      if (name === 'recent') walk.recent = true;
      if (name === 'scores') walk.allInstances = true; // read as a whole; a keyed read does not come here
      return shape;
    }
    case 'selectExpr':
      return member(kind.value.operand, kind.value.field, kind.value.testOnly, walk, scope, at);
    case 'callExpr': {
      const { target, args } = kind.value;
      const index = args[1]?.exprKind;
      if (kind.value.function === '_[_]' && args.length === 2 && index?.case === 'constExpr' && index.value.constantKind.case === 'stringValue') {
        return member(args[0], index.value.constantKind.value, false, walk, scope, at);
      }
      shapeOf(target, walk, scope);
      for (const arg of args) shapeOf(arg, walk, scope);
      return undefined;
    }
    case 'listExpr':
      for (const element of kind.value.elements) shapeOf(element, walk, scope);
      return undefined;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === 'mapKey') shapeOf(entry.keyKind.value, walk, scope);
        shapeOf(entry.value, walk, scope);
      }
      return undefined;
    case 'comprehensionExpr': {
      const c = kind.value;
      shapeOf(c.iterRange, walk, scope);
      shapeOf(c.accuInit, walk, scope);
      const inner = new Set([...scope, c.iterVar, c.accuVar, ...(c.iterVar2 === '' ? [] : [c.iterVar2])]);
      shapeOf(c.loopCondition, walk, inner);
      shapeOf(c.loopStep, walk, inner);
      shapeOf(c.result, walk, inner);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `operand.field` (or `operand["field"]`), checked against the operand's shape. */
function member(operand: Expr | undefined, field: string, testOnly: boolean, walk: Walk, scope: ReadonlySet<string>, at: () => string): Shape | undefined {
  const isScores = operand?.exprKind.case === 'identExpr' && operand.exprKind.value.name === 'scores' && !scope.has('scores');
  const shape = isScores ? walk.shapes.scores : shapeOf(operand, walk, scope);
  if (shape === undefined) return undefined;
  if (shape.kind === 'map') {
    if (shape.keys.includes(field)) {
      if (isScores) walk.instances.add(field);
      return shape.value;
    }
    if (testOnly) return undefined; // has(scores.trust): false where trust is not configured
    throw new Error(`reads scores of "${field}"${at()}, which is not a configured scorer instance (configured: ${shape.keys.map((k) => JSON.stringify(k)).join(', ')}; an instance whose name holds a space or a sign is read as scores["cqr T=8"])`);
  }
  if (shape.kind === 'object') {
    const fieldShape = shape.fields[field];
    if (fieldShape !== undefined) return fieldShape;
    if (testOnly) return undefined;
    throw new Error(`reads a field "${field}"${at()} that does not exist (fields: ${Object.keys(shape.fields).join(', ')})`);
  }
  throw new Error(`reads a field "${field}"${at()} of a ${shape.kind === 'list' ? 'list' : shape.type}, which has no fields`);
}

/** The message and column of an evaluation's error. */
function failure(error: { message: string; exprId: bigint | undefined }, text: string, positions: Readonly<Record<string, number>>): string {
  return `${error.message}${error.exprId === undefined ? '' : where(text, positions[String(error.exprId)])}`;
}

/** Whether an evaluation error says the condition cannot work for any player (a type error), not only for this one (a division by 0). */
const TYPE_ERROR = /no matching overload|type mismatch|unsupported|no such overload/i;

function compileOne(rule: RuleConfig, index: number, section: RulesConfig, instances: readonly string[]): CompiledRule {
  const refuse = (field: string, reason: string): never => {
    throw new RuleConfigError(index, field, `(rule "${rule.name}") ${reason}`);
  };
  const labelProblem = idCharacterProblem(rule.label);
  if (labelProblem !== undefined) refuse('label', `${shownText(rule.label)} ${labelProblem}`);
  if (!(RULE_ACTIONS as readonly string[]).includes(rule.action)) {
    refuse('action', `must be one of ${RULE_ACTIONS.join(', ')}, got ${JSON.stringify(rule.action)}: a rule never bans, a moderator does`);
  }
  const sanctionsFor = rule.action === 'mute' || rule.action === 'suspend';
  if (sanctionsFor && rule.ladder === undefined) refuse('ladder', `is required for "${rule.action}": the durations of the first, second, … offence, such as ["10m", "1h", "1d"]`);
  if (!sanctionsFor && rule.ladder !== undefined) refuse('ladder', `is for "mute" and "suspend" only: "${rule.action}" has no duration`);
  const ladderMs = (rule.ladder ?? []).map((text, i) => {
    const ms = durationMs(text);
    if (ms === undefined) return refuse(`ladder[${i}]`, `must be a duration such as "10m", "1h" or "3d" (minutes, hours, days), got ${JSON.stringify(text)}`);
    if (ms <= 0) refuse(`ladder[${i}]`, `must be longer than 0, got ${JSON.stringify(text)}`);
    return ms;
  });

  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rule.when);
  } catch (error) {
    const e = error as { location?: { start?: { offset?: number } }; message: string };
    const message = e.message.replace(/^<input>:\d+:\d+: /, '');
    return refuse('when', `is not a valid CEL expression${where(rule.when, e.location?.start?.offset)}: ${message}`);
  }
  const positions = (parsed.sourceInfo?.positions ?? {}) as Readonly<Record<string, number>>;
  const walk: Walk = { text: rule.when, positions, shapes: variableShapes(instances), instances: new Set(), allInstances: false, recent: false };
  try {
    shapeOf(parsed.expr, walk, new Set());
  } catch (error) {
    refuse('when', (error as Error).message);
  }
  const program = plan(ENV, parsed);
  const evaluate = (facts: PlayerFacts): Outcome => {
    const result = program(facts as unknown as Record<string, CelInput>);
    if (isCelError(result)) return { error: failure(result, rule.when, positions) };
    if (typeof result !== 'boolean') return { error: `gives ${typeof result === 'bigint' ? 'an int' : typeof result === 'number' ? 'a double' : 'a value'}, not true or false` };
    return result;
  };
  const tried = evaluate(sampleFacts(instances));
  if (typeof tried !== 'boolean' && (TYPE_ERROR.test(tried.error) || tried.error.startsWith('gives'))) refuse('when', `cannot be evaluated: ${tried.error}`);

  const windowHours = rule.windowHours ?? RULE_DEFAULTS.windowHours;
  return {
    name: rule.name,
    moderator: `rule:${rule.name}`,
    label: rule.label,
    reason: rule.reason ?? rule.when,
    when: rule.when,
    action: rule.action as RuleAction,
    ladderMs,
    ladder: rule.ladder ?? [],
    windowMs: windowHours * 3_600_000,
    windowHours,
    offenceMs: (rule.offenceDays ?? RULE_DEFAULTS.offenceDays) * 86_400_000,
    dryRun: section.dryRun || rule.dryRun === true,
    breaker: { ...section.breaker, ...rule.breaker },
    uses: { recent: walk.recent, instances: walk.allInstances ? undefined : walk.instances },
    evaluate,
  };
}

/**
 * Compiles the section's rules for a service whose scorer instances are `instances` (their
 * names). Throws RuleConfigError for the first rule refused.
 */
export function compileRules(section: RulesConfig, instances: readonly string[]): CompiledRules {
  const names = new Set<string>();
  const list = section.list.map((rule, index) => {
    if (names.has(rule.name)) throw new RuleConfigError(index, 'name', `"${rule.name}" names two rules; each rule needs its own name`);
    names.add(rule.name);
    return compileOne(rule, index, section, instances);
  });
  const digest = createHash('sha256')
    .update(JSON.stringify({ instances, list: section.list, dryRun: section.dryRun, breaker: section.breaker, intervalMinutes: section.intervalMinutes }))
    .digest('hex')
    .slice(0, 16);
  return { list, intervalMs: section.intervalMinutes * 60_000, digest };
}
