// Fault injection for drills: parse a spec like
// "429=0.05,503=0.02,500=0.01,502=0.01,reset=0.01,slow=0.02" and draw a
// seeded fault per request.
import { rng } from './util/random.js';

export const FAULT_KINDS = ['429', '500', '502', '503', 'reset', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultSpec = Partial<Record<FaultKind, number>>;

/**
 * Parse a fault spec. Pure; throws an Error with a one-line message on bad input.
 * An empty string means "no faults". Rates are shares of requests in [0, 1];
 * their sum must not exceed 1 because each request gets at most one fault.
 */
export function parseFaultSpec(spec: string): FaultSpec {
  const out: FaultSpec = {};
  const text = spec.trim();
  if (text === '') return out;
  let sum = 0;
  for (const rawItem of text.split(',')) {
    const item = rawItem.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`invalid fault spec item '${item}': expected KIND=RATE, e.g. 503=0.02`);
    const kind = item.slice(0, eq).trim();
    const rateText = item.slice(eq + 1).trim();
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`invalid fault kind '${kind}': expected one of ${FAULT_KINDS.join(', ')}`);
    }
    if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(rateText)) {
      throw new Error(`invalid rate '${rateText}' for fault '${kind}': expected a number between 0 and 1`);
    }
    const rate = Number(rateText);
    if (!(rate >= 0 && rate <= 1)) {
      throw new Error(`invalid rate '${rateText}' for fault '${kind}': expected a number between 0 and 1`);
    }
    if (kind in out) throw new Error(`fault '${kind}' is given twice`);
    out[kind as FaultKind] = rate;
    sum += rate;
  }
  if (sum > 1 + 1e-9) throw new Error(`fault rates add up to ${Number(sum.toFixed(6))}, more than 1`);
  return out;
}

/** Seeded per-request fault picker; each call consumes one draw. */
export class FaultPicker {
  private readonly next: () => number;
  private readonly table: Array<[FaultKind, number]>;
  constructor(spec: FaultSpec, seed: number) {
    this.next = rng(seed ^ 0x5eed_fa17);
    let acc = 0;
    this.table = [];
    for (const k of FAULT_KINDS) {
      const r = spec[k] ?? 0;
      if (r > 0) {
        acc += r;
        this.table.push([k, acc]);
      }
    }
  }
  get enabled(): boolean {
    return this.table.length > 0;
  }
  draw(): FaultKind | null {
    if (this.table.length === 0) return null;
    const x = this.next();
    for (const [k, upTo] of this.table) if (x < upTo) return k;
    return null;
  }
}
