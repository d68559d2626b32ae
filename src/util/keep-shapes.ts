/**
 * V8 keeps the hidden classes a class's fields create only while some instance holds them: a
 * garbage collection that finds none discards them, and with them every optimized function
 * compiled against them. A process that drops its last instance before building the next (a
 * tuning run over one parameterization after another, the benchmark) would then run the next
 * instance's hot path unoptimized until V8 compiles it again. One idle instance per hot class,
 * kept here for the life of the process, prevents that.
 */
const kept: object[] = [];

/** Keeps `instance` (an idle one, holding nothing of note) alive for the life of the process. */
export function keepShapes(instance: object): void {
  kept.push(instance);
}
