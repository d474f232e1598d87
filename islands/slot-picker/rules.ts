// The time-slot rules of a rent move, mirroring gateway.CheckSlotMove on the
// server (gateway/rules.go). Both are tested against the same cases,
// gateway/testdata/slot_cases.json, so they cannot drift apart. The server
// checks again whatever this says.

/** One hour of the day as the server sends it. */
export type Hour = { from: string; to: string; free: boolean; own?: boolean };

export const MSG_BUSY = "Невозможно выбрать период с неактивными часами.";
export const MSG_REVERSED = "Время окончания не может быть раньше времени начала.";
export const MSG_EMPTY = "Время окончания должно быть позже времени начала.";

/** 3 as "3", 2.5 as "2,5" (gateway.FormatHours). */
export function formatHours(h: number): string {
  return String(Math.round(h * 100) / 100).replace(".", ",");
}

export function amountMessage(hours: number): string {
  return `Такой период невозможен, необходимо выбрать от и до, вам доступно: ${formatHours(hours)} ч.`;
}

/** Minutes since midnight of "ЧЧ:ММ"; an end of "00:00" or "24:00" is the
 *  midnight that ends the day. null when unreadable. */
export function minutes(hhmm: string, end = false): number | null {
  if (end && (hhmm === "00:00" || hhmm === "24:00")) return 24 * 60;
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/**
 * Checks a move to from..end as the form posts it: from is the first hour's
 * start, end the last hour's end. Every hour must be listed and free, and
 * the hours times the hourly cost must equal the order's amount. Returns the
 * customer's text, or "" when the period is allowed.
 */
export function checkPeriod(hours: Hour[], cost: number, amount: number, from: string, end: string): string {
  const f = minutes(from);
  const e = minutes(end, true);
  if (f === null || e === null) return MSG_BUSY;
  if (e < f) return MSG_REVERSED;
  if (e === f) return MSG_EMPTY;
  if ((e - f) % 60 !== 0) return MSG_BUSY;
  const free = new Map<number, boolean>();
  for (const h of hours) {
    const m = minutes(h.from);
    if (m !== null) free.set(m, h.free);
  }
  const n = (e - f) / 60;
  if (n > hours.length) return MSG_BUSY;
  for (let m = f; m < e; m += 60) {
    if (!free.get(m)) return MSG_BUSY;
  }
  if (cost <= 0) return amountMessage(0);
  if (Math.abs(n * cost - amount) >= 0.005) return amountMessage(amount / cost);
  return "";
}

/** The picker's choice: indexes of the first and the last hour, or null. */
export type Pick = { start: number | null; end: number | null };

export const NONE: Pick = { start: null, end: null };

/**
 * The choice after a tap on hour i (the start slot, then the end
 * slot). A busy hour cannot be taken; an hour before the start starts
 * again from it; after a complete choice a tap starts a new one. error is
 * the alert when the period from the start to i breaks a rule; the choice
 * is then cleared, so the next tap is a new start.
 */
export function tap(p: Pick, i: number, hours: Hour[], cost: number, amount: number): { pick: Pick; error: string } {
  const h = hours[i];
  if (!h || !h.free) return { pick: p, error: "" };
  if (p.start === null || p.end !== null || i < p.start) return { pick: { start: i, end: null }, error: "" };
  const error = checkPeriod(hours, cost, amount, hours[p.start].from, h.to);
  return error ? { pick: NONE, error } : { pick: { start: p.start, end: i }, error: "" };
}

/** The choice that from..end posted, when it still fits the hours. */
export function pickOf(hours: Hour[], from?: string, end?: string): Pick {
  const start = hours.findIndex((h) => h.from === from && h.free);
  const last = hours.findIndex((h) => h.to === end);
  if (start < 0) return NONE;
  return { start, end: last >= start ? last : null };
}
